// The club's journal (DESIGN.md section 21): the double-entry lines of a period's payments and
// provider payouts, on the club's own accounts (SPEC's accounting_account_*), with each
// account's totals (a trial balance that sums to zero), written as JSON, CSV, Banana's import or
// DATEV's Buchungsstapel (./formats.ts). The rules:
//   a manual payment (bank transfer, cash): bank to revenue (memberships) or events (tickets);
//   a provider's payment (a card through Stripe): passage to revenue for the gross, then fees to
//     passage for the provider's fee and again for the platform's commission;
//   a provider's payout: bank to passage (passage is back at 0 once every payout is in);
//   a refund (a negative payment): the same lines reversed.
// A manual payment's commission, when the club pays one, is taken from the bank as a card's is
// from passage. The same period gives the same bytes: lines in the order of (paid_at, id), no
// clock read. The whole period is read a page at a time and written as it is read (a stream).
import { edenGC } from "bun:jsc";
import { and, eq, gte, lt, max, sql } from "drizzle-orm";
import { rowsAsArrays } from "../../db";
import { z } from "zod";
import { clubs, payments, payouts } from "../../db/schema";
import { type Ctx, verb } from "../context";
import { NotFound, ValidationFailed } from "../errors";
import { asLocale, type Locale } from "../i18n";
import { BOOKS_TEXTS } from "../i18n/books";
import { fillText } from "../mail/layout";
import { receiptNumber } from "../payments/reference";
import type { FileReply } from "../reply";
import { type AccountTotal, fitsWindows1252, JOURNAL_FORMATS, type JournalFormat, type JournalHead, type JournalLine, WRITERS } from "./formats";
import { type PayoutRow, payoutsOf } from "./payouts";
import { checkPeriod, dayAfter, describe, JOURNAL_SELECTION, type JournalRow, journalQuery, LEDGER_TIME_ORDER, paidFor, periodWhere, startOf } from "./ledger";

export const JournalQuery = z.object({
  from: z.iso.date().meta({ description: "First day (UTC), inclusive." }),
  to: z.iso.date().meta({ description: "Last day (UTC), inclusive; at most 10 years after `from`." }),
  format: z
    .enum(JOURNAL_FORMATS)
    .default("json")
    .meta({ description: "`json` (default), `csv`, `banana` (Banana Accounting's import) or `datev` (DATEV Buchungsstapel)." }),
});
export type JournalQuery = z.output<typeof JournalQuery>;

/** The club's chart of accounts as the journal uses it. */
export type Accounts = { revenue: string; events: string; fees: string; bank: string; passage: string; journal: string; names: Map<string, string> };

async function accountsOf(ctx: Ctx): Promise<{ accounts: Accounts; locale: Locale; currency: string; slug: string }> {
  const [c] = await ctx.db.read.select().from(clubs).where(eq(clubs.id, ctx.clubId)).limit(1);
  if (!c) throw new NotFound("CLUB_NOT_FOUND");
  const names = new Map<string, string>();
  const named: [string, string][] = [
    [c.accounting_account_bank, c.accounting_account_bank_name],
    [c.accounting_account_passage, c.accounting_account_passage_name],
    [c.accounting_account_revenue, c.accounting_account_revenue_name],
    [c.accounting_account_events, c.accounting_account_events_name],
    [c.accounting_account_fees, c.accounting_account_fees_name],
  ];
  // Two roles on one account (events booked as revenue): the first name given is the account's.
  for (const [number, name] of named) if (!names.get(number)) names.set(number, name);
  return {
    accounts: {
      revenue: c.accounting_account_revenue,
      events: c.accounting_account_events,
      fees: c.accounting_account_fees,
      bank: c.accounting_account_bank,
      passage: c.accounting_account_passage,
      journal: c.accounting_journal,
      names,
    },
    locale: asLocale(c.locale),
    currency: c.currency,
    slug: c.slug,
  };
}

/** The chart of accounts an assistant reads (the MCP resource): each account with the payments it takes. */
export const chartOfAccounts = verb("finances:view", async function chartOfAccounts(ctx: Ctx, _input: Record<string, never> = {}) {
  const { accounts, currency } = await accountsOf(ctx);
  const roles = [
    ["bank", accounts.bank, "Bank transfers and cash received; provider payouts arrive here."],
    ["passage", accounts.passage, "Card payments on their way from the provider, until its payout."],
    ["revenue", accounts.revenue, "Membership fees."],
    ["events", accounts.events, "Event tickets."],
    ["fees", accounts.fees, "The provider's fees and the platform's commission."],
  ] as const;
  return {
    journal: accounts.journal,
    currency,
    accounts: roles.map(([role, number, used_for]) => ({ role, number, name: accounts.names.get(number) ?? "", used_for })),
  };
});

/**
 * What becomes of each line a payment or payout makes (never one of 0): the export keeps it
 * (`keepLines`), DATEV's first pass only reads its text. `cents` is signed: a negative amount
 * moves it back. One rule (`addPaymentLines`) makes the lines for both.
 */
type LineSink = (date: string, doc: string, currency: string, description: string, debit: string, credit: string, cents: number) => void;

/**
 * A sink pushing each line into `out()`, the page's array, as the line moving `cents` from
 * `credit` to `debit` (the accounts swapped for a negative amount). Each line is one object
 * literal pushed where it is kept: a year's journal makes 50,000 of them, and every copy or
 * array in between was garbage the collector had to catch (docs/decisions.md, "The journal's memory").
 */
const keepLines =
  (out: () => JournalLine[]): LineSink =>
  (date, doc, currency, description, debit, credit, cents) => {
    // The keys in this order: the JSON file's bytes follow it.
    if (cents > 0) out().push({ date, doc, currency, description, debit_account: debit, credit_account: credit, amount_cents: cents });
    else out().push({ date, doc, currency, description, debit_account: credit, credit_account: debit, amount_cents: -cents });
  };

/** Hands a payment's lines to `add` (the rules at the top). */
function addPaymentLines(add: LineSink, row: JournalRow, accounts: Accounts, locale: Locale): void {
  const tx = BOOKS_TEXTS[locale];
  const date = row.paid_at.slice(0, 10);
  const doc = receiptNumber(row.id);
  const income = row.kind === "event" ? accounts.events : accounts.revenue;
  const via = row.source === "provider" ? accounts.passage : accounts.bank;
  const what = paidFor(row, locale);
  if (row.amount_cents) add(date, doc, row.currency, describe(row, locale, what), via, income, row.amount_cents);
  // A fee of 0 makes no line: its text is not made either.
  if (row.provider_fee_cents) add(date, doc, row.currency, fillText(tx.fee, { what }), accounts.fees, via, row.provider_fee_cents);
  if (row.platform_commission_cents) add(date, doc, row.currency, fillText(tx.commission, { what }), accounts.fees, via, row.platform_commission_cents);
}

/** Hands a provider's payout to `add`: bank to passage (its doc: the provider's payout id). */
function addPayoutLines(add: LineSink, row: PayoutRow, accounts: Accounts, locale: Locale): void {
  if (!row.amount_cents) return;
  const description = fillText(BOOKS_TEXTS[locale].payout, { id: row.provider_payout_id });
  add(row.paid_at.slice(0, 10), row.provider_payout_id, row.currency, description, accounts.bank, accounts.passage, row.amount_cents);
}

/**
 * Payments read at a time. A page's rows, lines and text are what the collector finds alive at
 * each young-generation collection, and what is alive then is kept until a full one: over four
 * year-long exports, pages of 100 grew the server's peak memory by 46-60 MB, pages of 500 by
 * 56-78 (docs/benchmarks.md, "journal16"). The page's statement is prepared once, so more pages
 * cost no measurable time.
 */
const JOURNAL_PAGE = 100;

type Keyed = { paid_at: string; id: string };
const before = (a: Keyed, b: Keyed) => a.paid_at < b.paid_at || (a.paid_at === b.paid_at && a.id < b.id);

/** The journal's columns in the order a page's rows hold them. */
const JOURNAL_KEYS = Object.keys(JOURNAL_SELECTION) as (keyof JournalRow)[];

/**
 * A page of the period's payments after the point (`after_at`, `after_id`) of (paid_at, id), in
 * that order: one statement, prepared once, its rows read as arrays (`rowsAsArrays`). A year of
 * 20,000 payments is 200 pages; Drizzle's generic mapping of each row (an iterator and a pair per
 * column, the left joins' null checks) made more garbage than the lines themselves. The first
 * page starts after ("", ""), before any time. Every column is text or an integer: none needs decoding.
 */
const journalPage = (ctx: Ctx) =>
  ctx.db.prepareRead("books.journal.page", (q) =>
    journalQuery(q)
      .where(
        and(
          eq(payments.club_id, sql.placeholder("club")),
          gte(payments.paid_at, sql.placeholder("start")),
          lt(payments.paid_at, sql.placeholder("end")),
          sql`(${payments.paid_at}, ${payments.id}) > (${sql.placeholder("after_at")}, ${sql.placeholder("after_id")})`,
        ),
      )
      .orderBy(...LEDGER_TIME_ORDER)
      .limit(JOURNAL_PAGE),
  );

function journalRow(values: unknown[]): JournalRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < JOURNAL_KEYS.length; i++) row[JOURNAL_KEYS[i]] = values[i];
  return row as JournalRow;
}

/**
 * Pages read between two young-generation collections asked for by the journal (`edenGC`). Left
 * to itself, JavaScriptCore collects the young generation once some 30 MB were allocated (about
 * the heap's size after its last full collection): a year's export made its whole growth of the
 * server's peak memory in its first such span. A collection every page was worse than none: each
 * promotes what is alive at that moment (a chunk on its way out, some 100 KB) until the next full
 * one. Every 16 pages (1,600 payments) kept the growth of four year-long exports to 25-41 MB,
 * against 51-61 without (docs/benchmarks.md "journal17"); each took some 8 ms on a loaded machine,
 * 12 per year-long export, and spares JavaScriptCore the collections it would have made.
 */
const COLLECT_EVERY = 16;

/**
 * Reads the period's payments a page at a time, with the payouts between them, in the order of
 * (paid_at, id), and hands every line they make to `add`; yields once a page's lines are handed.
 */
async function* journalPages(ctx: Ctx, q: JournalQuery, accounts: Accounts, locale: Locale, add: LineSink): AsyncGenerator<void> {
  const waiting = await payoutsOf(ctx, q.from, q.to);
  const page = journalPage(ctx);
  let next = 0;
  const params = { club: ctx.clubId, start: startOf(q.from), end: dayAfter(q.to), after_at: "", after_id: "" };
  // A page's rows are this function's own: none is alive across a yield, when the collection comes.
  const handPage = async (): Promise<boolean> => {
    const rows = await rowsAsArrays(page, params);
    for (const values of rows) {
      const row = journalRow(values);
      for (; next < waiting.length && before(waiting[next], row); next++) addPayoutLines(add, waiting[next], accounts, locale);
      addPaymentLines(add, row, accounts, locale);
    }
    if (rows.length < JOURNAL_PAGE) {
      for (; next < waiting.length; next++) addPayoutLines(add, waiting[next], accounts, locale);
      return false;
    }
    const last = rows[rows.length - 1];
    params.after_at = last[JOURNAL_KEYS.indexOf("paid_at")] as string;
    params.after_id = last[JOURNAL_KEYS.indexOf("id")] as string;
    return true;
  };
  for (let read = 0; ; read++) {
    // Between pages, when the last one's rows, lines and text are garbage (the reader has taken them).
    if (read && read % COLLECT_EVERY === 0) edenGC();
    const more = await handPage();
    yield;
    if (!more) return;
  }
}

/** The period's lines, a page of payments at a time (journalPages), each page's its own array. */
async function* journalLines(ctx: Ctx, q: JournalQuery, accounts: Accounts, locale: Locale): AsyncGenerator<JournalLine[]> {
  let lines: JournalLine[] = [];
  for await (const _ of journalPages(
    ctx,
    q,
    accounts,
    locale,
    keepLines(() => lines),
  )) {
    yield lines;
    lines = [];
  }
}

/**
 * How many of the period's lines hold a text Windows-1252 lacks (DATEV's warning), read from the
 * rows by the same rules as the export's lines, no line made.
 */
async function linesNotInWindows1252(ctx: Ctx, q: JournalQuery, accounts: Accounts, locale: Locale): Promise<number> {
  let changed = 0;
  const count: LineSink = (_date, _doc, _currency, description) => {
    if (!fitsWindows1252(description)) changed++;
  };
  for await (const _ of journalPages(ctx, q, accounts, locale, count));
  return changed;
}

/** Adds `lines` to the per-account totals. */
function addTo(totals: Map<string, { debit: number; credit: number }>, lines: JournalLine[]): void {
  for (const l of lines) {
    const d = totals.get(l.debit_account) ?? { debit: 0, credit: 0 };
    d.debit += l.amount_cents;
    totals.set(l.debit_account, d);
    const c = totals.get(l.credit_account) ?? { debit: 0, credit: 0 };
    c.credit += l.amount_cents;
    totals.set(l.credit_account, c);
  }
}

/** The trial balance: each account's movements, by account number; the balances sum to zero. */
function trialBalance(totals: Map<string, { debit: number; credit: number }>, accounts: Accounts): AccountTotal[] {
  return [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .map(([account, t]) => ({
      account,
      name: accounts.names.get(account) ?? "",
      debit_cents: t.debit,
      credit_cents: t.credit,
      balance_cents: t.debit - t.credit,
    }));
}

/** The latest record of the period: the export's fixed "as of" (DATEV's "created on"); the period's first instant when it holds none. */
async function asOf(ctx: Ctx, q: JournalQuery): Promise<string> {
  const [paid] = await ctx.db.read
    .select({ at: max(payments.created_at) })
    .from(payments)
    .where(and(eq(payments.club_id, ctx.clubId), ...periodWhere(payments.paid_at, q.from, q.to)));
  const [out] = await ctx.db.read
    .select({ at: max(payouts.created_at) })
    .from(payouts)
    .where(and(eq(payouts.club_id, ctx.clubId), ...periodWhere(payouts.paid_at, q.from, q.to)));
  const latest = [paid?.at, out?.at].filter((at): at is string => !!at).sort();
  return latest.at(-1) ?? `${q.from}T00:00:00.000Z`;
}

export type JournalFile = FileReply & { filename: string; contentType: string; body: ReadableStream<Uint8Array> };

/**
 * The period's journal as a file in `format`, streamed. 422 naming `from` (after `to`) or `to` (a
 * period over 10 years; for DATEV, beyond the calendar year of `from`: its dates carry no year).
 * A DATEV export of a text Windows-1252 lacks writes the closest letters and says how many lines
 * it changed in a `Warning` header (299).
 */
export const exportJournal = verb("finances:view", async function exportJournal(ctx: Ctx, q: JournalQuery): Promise<JournalFile> {
  checkPeriod(q.from, q.to);
  if (q.format === "datev" && q.from.slice(0, 4) !== q.to.slice(0, 4)) {
    throw new ValidationFailed([{ loc: ["query", "to"], code: "DATEV_PERIOD_SPANS_YEARS" }]);
  }
  const { accounts, locale, currency, slug } = await accountsOf(ctx);
  const writer = WRITERS[q.format];
  const numbers = [accounts.revenue, accounts.events, accounts.fees, accounts.bank, accounts.passage];
  const head: JournalHead = {
    from: q.from,
    to: q.to,
    currency,
    journal: accounts.journal,
    asOf: await asOf(ctx, q),
    accountLength: Math.max(...numbers.map((n) => n.length)),
  };
  const headers: Record<string, string> = {};
  if (q.format === "datev") {
    // The header goes before the first byte: a first pass counts the lines whose text DATEV's encoding lacks.
    const changed = await linesNotInWindows1252(ctx, q, accounts, locale);
    if (changed) headers.warning = `299 - "${changed} line(s) hold characters Windows-1252 lacks: written as the closest letters"`;
  }
  const pages = journalLines(ctx, q, accounts, locale);
  const totals = new Map<string, { debit: number; credit: number }>();
  let first = true;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(writer.encode(writer.head(head)));
        return;
      }
      // A stream pulls again only after an enqueue: an empty page reads on at once.
      for (;;) {
        const next = await pages.next();
        if (next.done) {
          controller.enqueue(writer.encode(writer.tail(trialBalance(totals, accounts))));
          controller.close();
          return;
        }
        addTo(totals, next.value);
        const text = writer.lines(next.value, first);
        if (next.value.length) first = false;
        if (text) return controller.enqueue(writer.encode(text));
      }
    },
  });
  const filename = q.format === "datev" ? `EXTF_Buchungsstapel_${q.from}_${q.to}.csv` : `journal-${slug}-${q.from}-${q.to}.${writer.extension}`;
  return { filename, contentType: writer.contentType, body, headers };
});

/** The period's trial balance alone (the dashboard's totals by account): the lines summed as they are made, none kept. */
export const journalTotals = verb("finances:view", async function journalTotals(ctx: Ctx, q: Omit<JournalQuery, "format">): Promise<AccountTotal[]> {
  checkPeriod(q.from, q.to);
  const { accounts, locale } = await accountsOf(ctx);
  const totals = new Map<string, { debit: number; credit: number }>();
  for await (const lines of journalLines(ctx, { ...q, format: "json" }, accounts, locale)) addTo(totals, lines);
  return trialBalance(totals, accounts);
});

/** The journal's lines and trial balance of a period as values (an assistant's answer, a test). */
export async function journalOf(ctx: Ctx, q: Omit<JournalQuery, "format">): Promise<{ lines: JournalLine[]; accounts: AccountTotal[] }> {
  const file = await exportJournal(ctx, { ...q, format: "json" });
  return JSON.parse(await Bun.readableStreamToText(file.body));
}

export type { JournalFormat };

/** Lines an assistant's answer holds at most: beyond, it gets the totals and the export's address. */
export const ASSISTANT_JOURNAL_LIMIT = 500;

const JournalLineShape = z
  .object({
    date: z.string().meta({ format: "date" }),
    doc: z.string().meta({ description: "The payment's receipt number, or the provider's payout id." }),
    description: z.string(),
    debit_account: z.string(),
    credit_account: z.string(),
    amount_cents: z.int().min(1),
    currency: z.string(),
  })
  .meta({ id: "JournalLine" });
const TrialBalance = z
  .array(z.object({ account: z.string(), name: z.string(), debit_cents: z.int(), credit_cents: z.int(), balance_cents: z.int() }).meta({ id: "AccountTotal" }))
  .meta({ description: "Each account's debits, credits and balance (debits - credits) over the period: the balances sum to zero." });

/** The journal as JSON (`format=json`). */
export const JournalJson = z
  .object({
    from: z.string().meta({ format: "date" }),
    to: z.string().meta({ format: "date" }),
    currency: z.string(),
    journal: z.string().meta({ description: "The club's `accounting_journal`." }),
    lines: z.array(JournalLineShape),
    accounts: TrialBalance,
  })
  .meta({ id: "Journal" });

export const AssistantJournal = z
  .object({
    from: z.string(),
    to: z.string(),
    format: z.enum(JOURNAL_FORMATS),
    line_count: z.int(),
    accounts: TrialBalance,
    lines: z
      .array(JournalLineShape)
      .nullable()
      .meta({ description: `The lines (format json), up to ${ASSISTANT_JOURNAL_LIMIT}; null otherwise.` }),
    text: z
      .string()
      .nullable()
      .meta({
        description: `The file's text (csv, banana), up to ${ASSISTANT_JOURNAL_LIMIT} lines; null otherwise (datev is Windows-1252 bytes: download it).`,
      }),
    url: z.string().meta({ description: "The HTTP export of the same file, to download with the same key." }),
  })
  .meta({ id: "AssistantJournal" });

/** The journal for an assistant: the trial balance always, the lines or the file's text when not too many, and the export's address. */
export const journalForAssistant = verb("finances:view", async function journalForAssistant(ctx: Ctx, q: JournalQuery): Promise<
  z.infer<typeof AssistantJournal>
> {
  const { lines, accounts } = await journalOf(ctx, q);
  const small = lines.length <= ASSISTANT_JOURNAL_LIMIT;
  const text = small && (q.format === "csv" || q.format === "banana") ? await Bun.readableStreamToText((await exportJournal(ctx, q)).body) : null;
  return {
    from: q.from,
    to: q.to,
    format: q.format,
    line_count: lines.length,
    accounts,
    lines: small && q.format === "json" ? lines : null,
    text: text?.replace(/^\uFEFF/, "") ?? null,
    url: `${ctx.baseUrl}/api/clubs/${ctx.clubId}/journal?from=${q.from}&to=${q.to}&format=${q.format}`,
  };
});
