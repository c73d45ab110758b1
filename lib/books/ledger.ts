// The club's payments ledger (DESIGN.md section 21): every row of `payments`, newest first, with
// filters and the totals of the filter, and the period rules the journal shares. A period is of
// UTC days (`from` and `to` inclusive), as the stats' months are, so that the stats' revenue of
// a month and the ledger's totals of its days are the same sums over the same rows.
import { and, asc, count, desc, eq, gte, lt, notInArray, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { eventRegistrations, events, invoices, members, payments, type payouts } from "../../db/schema";
import type { Queryable } from "../../db";
import { type Ctx, verb } from "../context";
import { ValidationFailed } from "../errors";
import type { Locale } from "../i18n";
import { BOOKS_TEXTS } from "../i18n/books";
import { clubSettings } from "../clubs/internal";
import { fillText } from "../mail/layout";
import { creditorReference, registrationReference } from "../payments/reference";
import { netCents } from "../stats/net";

/** What a ledger item is: a payment's kind, `refund` for a negative one, `other` for a kind neither a membership nor a ticket. */
export const PAYMENT_KINDS = ["membership", "event", "refund", "other"] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

/** The longest period a ledger or journal reads. */
export const MAX_PERIOD_YEARS = 10;

const day = (description: string) => z.iso.date().meta({ description });

export const PaymentListQuery = z.object({
  from: day("First day (UTC), inclusive.").optional(),
  to: day("Last day (UTC), inclusive.").optional(),
  method: z.string().min(1).max(50).optional().meta({ description: "Only payments made so (`bank_transfer`, `cash`, `stripe`...)." }),
  kind: z.enum(PAYMENT_KINDS).optional().meta({ description: "`membership`, `event` (a ticket), `refund` (a negative payment) or `other`." }),
  member_id: z.uuid().optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type PaymentListQuery = z.output<typeof PaymentListQuery>;

export const LedgerItem = z
  .object({
    id: z.string(),
    paid_at: z.string().meta({ format: "date-time" }),
    amount_cents: z.int().meta({ description: "Gross; negative for a refund." }),
    currency: z.string(),
    method: z.string(),
    kind: z.enum(PAYMENT_KINDS),
    provider_fee_cents: z.int(),
    platform_commission_cents: z.int(),
    net_cents: z.int().meta({ description: "amount - provider fee - platform commission" }),
    member_id: z.string().nullable(),
    registration_id: z.string().nullable(),
    invoice_id: z.string().nullable(),
    reference: z.string().nullable().meta({
      description: "The RF creditor reference the payer was given (the invoice's QRR or RF when it paid one, else the registration's or the member's).",
    }),
    description: z.string().meta({ description: "What it paid for, in the club's language (the journal's description)." }),
  })
  .meta({ id: "LedgerItem" });
export type LedgerItem = z.infer<typeof LedgerItem>;

export const LedgerTotals = z
  .object({
    count: z.int(),
    gross_cents: z.int(),
    provider_fees_cents: z.int(),
    platform_commission_cents: z.int(),
    net_cents: z.int(),
  })
  .meta({ id: "LedgerTotals", description: "The sums of every payment the filter keeps (all pages)." });

export const PaymentList = z
  .object({ total: z.int(), page: z.int(), limit: z.int(), items: z.array(LedgerItem), totals: LedgerTotals })
  .meta({ id: "PaymentList" });
export type PaymentList = z.infer<typeof PaymentList>;

const DAY_MS = 86_400_000;
/** The first instant of a UTC day, and that of the day after: a period is [startOf(from), dayAfter(to)). */
export const startOf = (d: string) => `${d}T00:00:00.000Z`;
export const dayAfter = (d: string) => new Date(Date.parse(startOf(d)) + DAY_MS).toISOString();

/**
 * 422 naming the parameter: `from` after `to`, or a period of more than MAX_PERIOD_YEARS years
 * (`to` on or after the day `from` plus ten years).
 */
export function checkPeriod(from: string | undefined, to: string | undefined): void {
  if (!from || !to) return;
  if (from > to) throw new ValidationFailed([{ loc: ["query", "from"], code: "PERIOD_REVERSED" }]);
  // The same day ten years on, as text (Date would read a year under 100 as 19xx); past 9999 no `to` reaches it.
  const limit = `${String(Number(from.slice(0, 4)) + MAX_PERIOD_YEARS).padStart(4, "0")}${from.slice(4)}`;
  if (limit.length === 10 && to >= limit) throw new ValidationFailed([{ loc: ["query", "to"], code: "PERIOD_TOO_LONG", params: { max: MAX_PERIOD_YEARS } }]);
}

/** The conditions of a period of UTC days on `column` (an ISO 8601 UTC text). */
export function periodWhere(column: typeof payments.paid_at | typeof payouts.paid_at, from: string | undefined, to: string | undefined): SQL[] {
  const where: SQL[] = [];
  if (from) where.push(gte(column, startOf(from)));
  if (to) where.push(lt(column, dayAfter(to)));
  return where;
}

const KNOWN_KINDS = ["membership", "event"];

function kindWhere(kind: PaymentKind): SQL {
  const credit = sql`${payments.amount_cents} >= 0`;
  if (kind === "refund") return sql`${payments.amount_cents} < 0`;
  if (kind === "other") return and(credit, notInArray(payments.kind, KNOWN_KINDS)) as SQL;
  return and(credit, eq(payments.kind, kind)) as SQL;
}

/**
 * The journal's read of a payment: what its lines and their descriptions need, no more. A year's
 * journal reads every payment of the year: each column left out (created_at, method, the
 * referral code, the invoice's reference, read by the ledger only) is a string fewer per row
 * made and dropped (docs/decisions.md, "The journal's memory").
 */
export const JOURNAL_SELECTION = {
  id: payments.id,
  paid_at: payments.paid_at,
  amount_cents: payments.amount_cents,
  currency: payments.currency,
  source: payments.source,
  kind: payments.kind,
  provider_fee_cents: payments.provider_fee_cents,
  platform_commission_cents: payments.platform_commission_cents,
  member_id: payments.member_id,
  registration_id: payments.registration_id,
  member_first: members.first_name,
  member_last: members.last_name,
  attendee_first: eventRegistrations.first_name,
  attendee_last: eventRegistrations.last_name,
  event_title: events.title,
};

/** The ledger's read of a payment: the journal's, and what a ledger item shows besides (its reference, method, invoice). */
const LEDGER_SELECTION = {
  ...JOURNAL_SELECTION,
  created_at: payments.created_at,
  method: payments.method,
  invoice_id: payments.invoice_id,
  invoice_reference: invoices.reference,
  member_code: members.referral_code,
};

/** The select of ledger rows from `payments` with the tables their description and reference read. */
export function ledgerQuery(ctx: Ctx) {
  return ctx.db.read
    .select(LEDGER_SELECTION)
    .from(payments)
    .leftJoin(members, eq(members.id, payments.member_id))
    .leftJoin(eventRegistrations, eq(eventRegistrations.id, payments.registration_id))
    .leftJoin(events, eq(events.id, eventRegistrations.event_id))
    .leftJoin(invoices, eq(invoices.id, payments.invoice_id));
}
export type LedgerRow = Awaited<ReturnType<typeof ledgerQuery>>[number];

/** The select of journal rows from `payments` with the names their descriptions read (the ledger's joins but the invoice). */
export function journalQuery(q: Queryable) {
  return q
    .select(JOURNAL_SELECTION)
    .from(payments)
    .leftJoin(members, eq(members.id, payments.member_id))
    .leftJoin(eventRegistrations, eq(eventRegistrations.id, payments.registration_id))
    .leftJoin(events, eq(events.id, eventRegistrations.event_id));
}
export type JournalRow = Awaited<ReturnType<typeof journalQuery>>[number];

/** What a description reads of a row (the ledger's and the journal's). */
type Described = Pick<
  JournalRow,
  "amount_cents" | "member_id" | "registration_id" | "member_first" | "member_last" | "attendee_first" | "attendee_last" | "event_title"
>;

export function kindOf(row: Pick<LedgerRow, "amount_cents" | "kind">): PaymentKind {
  if (row.amount_cents < 0) return "refund";
  return KNOWN_KINDS.includes(row.kind) ? (row.kind as PaymentKind) : "other";
}

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(" ");

/** What the payment paid for, without its sign (a refund's says what it reverses). */
export function paidFor(row: Described, locale: Locale): string {
  const tx = BOOKS_TEXTS[locale];
  if (row.registration_id && row.event_title !== null) {
    return fillText(tx.event, { event: row.event_title, name: fullName(row.attendee_first, row.attendee_last) });
  }
  if (row.member_id && row.member_first !== null) return fillText(tx.membership, { name: fullName(row.member_first, row.member_last) });
  return tx.other;
}

/** The ledger's description: what it paid for (`what`, when already known), or for a refund, what it reverses. */
export function describe(row: Described, locale: Locale, what = paidFor(row, locale)): string {
  return row.amount_cents < 0 ? fillText(BOOKS_TEXTS[locale].refund, { what }) : what;
}

function referenceOf(row: LedgerRow): string | null {
  if (row.invoice_reference) return row.invoice_reference;
  if (row.registration_id) return registrationReference(row.registration_id);
  return row.member_code ? creditorReference(row.member_code) : null;
}

export function toLedgerItem(row: LedgerRow, locale: Locale): LedgerItem {
  return {
    id: row.id,
    paid_at: row.paid_at,
    amount_cents: row.amount_cents,
    currency: row.currency,
    method: row.method,
    kind: kindOf(row),
    provider_fee_cents: row.provider_fee_cents,
    platform_commission_cents: row.platform_commission_cents,
    net_cents: netCents({ gross: row.amount_cents, fees: row.provider_fee_cents, commission: row.platform_commission_cents }),
    member_id: row.member_id,
    registration_id: row.registration_id,
    invoice_id: row.invoice_id,
    reference: referenceOf(row),
    description: describe(row, locale),
  };
}

/** The ledger's rows in time order (oldest first), for a reader of the whole period (the journal). */
export const LEDGER_TIME_ORDER = [asc(payments.paid_at), asc(payments.id)];

/** The club's payments, newest first, filtered, a page at a time, with the totals of the whole filter. */
export const listPayments = verb("finances:view", async function listPayments(ctx: Ctx, q: PaymentListQuery): Promise<PaymentList> {
  checkPeriod(q.from, q.to);
  const where: SQL[] = [eq(payments.club_id, ctx.clubId), ...periodWhere(payments.paid_at, q.from, q.to)];
  if (q.method) where.push(eq(payments.method, q.method));
  if (q.kind) where.push(kindWhere(q.kind));
  if (q.member_id) where.push(eq(payments.member_id, q.member_id));
  const condition = and(...where);
  const [sums] = await ctx.db.read
    .select({
      n: count(),
      gross: sql<number>`coalesce(sum(${payments.amount_cents}), 0)`,
      fees: sql<number>`coalesce(sum(${payments.provider_fee_cents}), 0)`,
      commission: sql<number>`coalesce(sum(${payments.platform_commission_cents}), 0)`,
    })
    .from(payments)
    .where(condition);
  const rows = await ledgerQuery(ctx)
    .where(condition)
    .orderBy(desc(payments.paid_at), desc(payments.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const club = await clubSettings(ctx.db.read, ctx.clubId);
  const locale = club.locale;
  const totals = { gross: Number(sums.gross), fees: Number(sums.fees), commission: Number(sums.commission) };
  return {
    total: sums.n,
    page: q.page,
    limit: q.limit,
    items: rows.map((r) => toLedgerItem(r, locale)),
    totals: {
      count: sums.n,
      gross_cents: totals.gross,
      provider_fees_cents: totals.fees,
      platform_commission_cents: totals.commission,
      net_cents: netCents(totals),
    },
  };
});
