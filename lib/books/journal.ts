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
import { and, eq, max, type SQL, sql } from "drizzle-orm";
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
import { checkPeriod, describe, LEDGER_TIME_ORDER, type LedgerRow, ledgerQuery, paidFor, periodWhere } from "./ledger";

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

type Base = Pick<JournalLine, "date" | "doc" | "currency">;

/** The line moving `cents` from `credit` to `debit`; a negative amount moves it back (the accounts swapped); none for 0. */
function signed(base: Base, description: string, debit: string, credit: string, cents: number): JournalLine[] {
  if (cents === 0) return [];
  return cents > 0
    ? [{ ...base, description, debit_account: debit, credit_account: credit, amount_cents: cents }]
    : [{ ...base, description, debit_account: credit, credit_account: debit, amount_cents: -cents }];
}

/** A payment's lines (the rules at the top). */
export function paymentLines(row: LedgerRow, accounts: Accounts, locale: Locale): JournalLine[] {
  const tx = BOOKS_TEXTS[locale];
  const base = { date: row.paid_at.slice(0, 10), doc: receiptNumber(row.id), currency: row.currency };
  const income = row.kind === "event" ? accounts.events : accounts.revenue;
  const via = row.source === "provider" ? accounts.passage : accounts.bank;
  const what = paidFor(row, locale);
  return [
    ...signed(base, describe(row, locale), via, income, row.amount_cents),
    ...signed(base, fillText(tx.fee, { what }), accounts.fees, via, row.provider_fee_cents),
    ...signed(base, fillText(tx.commission, { what }), accounts.fees, via, row.platform_commission_cents),
  ];
}

/** A provider's payout: bank to passage (its doc: the provider's payout id). */
export function payoutLines(row: PayoutRow, accounts: Accounts, locale: Locale): JournalLine[] {
  const base = { date: row.paid_at.slice(0, 10), doc: row.provider_payout_id, currency: row.currency };
  return signed(base, fillText(BOOKS_TEXTS[locale].payout, { id: row.provider_payout_id }), accounts.bank, accounts.passage, row.amount_cents);
}

/** Payments read at a time. */
const JOURNAL_PAGE = 500;

type Keyed = { paid_at: string; id: string };
const before = (a: Keyed, b: Keyed) => a.paid_at < b.paid_at || (a.paid_at === b.paid_at && a.id < b.id);

/** The period's lines, a page of payments at a time with the payouts between them, in the order of (paid_at, id). */
async function* journalPages(ctx: Ctx, q: JournalQuery, accounts: Accounts, locale: Locale): AsyncGenerator<JournalLine[]> {
  const period = [eq(payments.club_id, ctx.clubId), ...periodWhere(payments.paid_at, q.from, q.to)];
  const waiting = await payoutsOf(ctx, q.from, q.to);
  let next = 0;
  let after: Keyed | null = null;
  for (;;) {
    const where: SQL[] = after ? [...period, sql`(${payments.paid_at}, ${payments.id}) > (${after.paid_at}, ${after.id})`] : period;
    const rows = await ledgerQuery(ctx)
      .where(and(...where))
      .orderBy(...LEDGER_TIME_ORDER)
      .limit(JOURNAL_PAGE);
    const lines: JournalLine[] = [];
    for (const row of rows) {
      for (; next < waiting.length && before(waiting[next], row); next++) lines.push(...payoutLines(waiting[next], accounts, locale));
      lines.push(...paymentLines(row, accounts, locale));
    }
    if (rows.length < JOURNAL_PAGE) {
      for (; next < waiting.length; next++) lines.push(...payoutLines(waiting[next], accounts, locale));
      yield lines;
      return;
    }
    yield lines;
    const last = rows[rows.length - 1];
    after = { paid_at: last.paid_at, id: last.id };
  }
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
    let changed = 0;
    for await (const lines of journalPages(ctx, q, accounts, locale)) changed += lines.filter((l) => !fitsWindows1252(l.description)).length;
    if (changed) headers.warning = `299 - "${changed} line(s) hold characters Windows-1252 lacks: written as the closest letters"`;
  }
  const pages = journalPages(ctx, q, accounts, locale);
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
  for await (const lines of journalPages(ctx, { ...q, format: "json" }, accounts, locale)) addTo(totals, lines);
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
