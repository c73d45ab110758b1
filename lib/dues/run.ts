// The dues run (DESIGN.md section 20, POST invoices/run) and the membership invoice of one period,
// which the run and the first renewal reminder (lib/reminders, `renewal_invoices`) make alike: one
// invoice per member and period (`period_start`, the day after the member's membership_end), for
// the member's dues as a renewal reckons them (lib/members/dues: the tier's price, else the club's
// fee, less the referral credit as a discount line). Two makers at once (two runs, a run and the
// reminders, in several processes) each take the club's lock `invoices.period:<club>` per batch and
// read what is invoiced inside it, so the second sees the first's invoices; the partial unique key
// (club, member, period_start) over open and paid invoices says the rule in the schema as well.
// The run creates; it does not mail (sending is `actions/send`; docs/decisions.md).
import { and, asc, eq, inArray, isNotNull, isNull, lt, ne, or, type SQL } from "drizzle-orm";
import { clubMembersIn, type Db, type Queryable } from "../../db";
import { lockName, lockNamedMembers } from "../../db/locks";
import { invoices, members, tiers } from "../../db/schema";
import { type ClubRow, getClubRow } from "../clubs/internal";
import { type Ctx, type Progress, verb } from "../context";
import { addDays, todayUtc } from "../days";
import { type Invalid, ValidationFailed } from "../errors";
import { asLocale } from "../i18n";
import { INVOICE_TEXTS } from "../i18n/invoices";
import { isQrIban } from "../iban";
import { newId, nowIso } from "../ids";
import { mailDay } from "../mail/look";
import { duesOf } from "../members/dues";
import { invoiceReference } from "../payments/reference";
import { fillText } from "../mail/layout";
import { emitter } from "../webhooks/emit";
import { DEFAULT_PAYMENT_DAYS, type InvoiceRow, invoiceNumber, nextNumber, toInvoice } from "../invoices";
import { type DuesRun, type DuesRunItem, DuesRunRequest, INVOICE_LINE_MAX } from "../invoices/schemas";

/** What the dues of a member are reckoned from. */
export type DuesMember = Pick<
  typeof members.$inferSelect,
  "id" | "first_name" | "last_name" | "membership_end" | "tier_id" | "amount_due_cents" | "referral_credit_cents"
>;
const DUES_COLUMNS = {
  id: members.id,
  first_name: members.first_name,
  last_name: members.last_name,
  membership_end: members.membership_end,
  tier_id: members.tier_id,
  amount_due_cents: members.amount_due_cents,
  referral_credit_cents: members.referral_credit_cents,
};

/** Members read and invoiced per transaction: a run of 10,000 holds the writer a moment at a time. */
const BATCH = 500;
/** Invoices in the run's answer. */
const SAMPLE = 20;

type Plan = {
  member: DuesMember;
  periodStart: string;
  lines: { label: string; amount_cents: number }[];
  amount: number;
  currency: string;
  tierId: string | null;
};
type Skipped = { nothing_to_pay: number; already_invoiced: number; over_limit: number };

/**
 * The members a dues run invoices: paid (not pending, not suspended), their membership ending
 * before `until`, not waiting for an approval nor asking to be erased, not renewed by a running
 * Stripe subscription (Stripe bills them), of `tierIds` when given; among `ids` when given (a
 * batch, found by their primary key: `clubMembersIn`).
 */
function duesWhere(clubId: string, until: string, tierIds?: string[], ids?: string[]): SQL | undefined {
  return and(
    ids ? clubMembersIn(clubId, ids) : eq(members.club_id, clubId),
    eq(members.payment_status, "paid"),
    lt(members.membership_end, until),
    isNull(members.application_status),
    isNull(members.erasure_requested_at),
    or(ne(members.payment_mode, "subscription"), isNotNull(members.renewal_opt_out_at)),
    tierIds ? inArray(members.tier_id, tierIds) : undefined,
  );
}

/** The period a membership invoice of `m` asks for: from the day after its end. */
export const periodStartOf = (m: Pick<DuesMember, "membership_end">) => addDays(m.membership_end, 1);

/**
 * What each of `list` would be invoiced, read on `q` (inside the lock when the invoices are made):
 * none for a member with an open membership invoice, or an open or paid one for that period
 * (already_invoiced), nor for one with nothing to pay (a free tier, a credit covering the fee).
 */
async function planFor(q: Queryable, club: ClubRow, list: DuesMember[]): Promise<{ plans: Plan[]; skipped: Skipped }> {
  const skipped: Skipped = { nothing_to_pay: 0, already_invoiced: 0, over_limit: 0 };
  if (!list.length) return { plans: [], skipped };
  const ids = list.map((m) => m.id);
  const taken = await q
    .select({ member_id: invoices.member_id, period_start: invoices.period_start, status: invoices.status, kind: invoices.kind })
    .from(invoices)
    .where(
      and(
        eq(invoices.club_id, club.id),
        inArray(invoices.member_id, ids),
        or(and(eq(invoices.status, "open"), eq(invoices.kind, "membership")), and(ne(invoices.status, "cancelled"), isNotNull(invoices.period_start))),
      ),
    );
  const busy = new Set<string>();
  for (const row of taken) {
    if (row.status === "open" && row.kind === "membership") busy.add(row.member_id);
    if (row.period_start) busy.add(`${row.member_id}|${row.period_start}`);
  }
  const tierIds = [...new Set(list.map((m) => m.tier_id).filter((id): id is string => !!id))];
  const tierRows = tierIds.length
    ? await q
        .select({ id: tiers.id, name: tiers.name, price: tiers.price_cents, currency: tiers.currency })
        .from(tiers)
        .where(and(eq(tiers.club_id, club.id), inArray(tiers.id, tierIds)))
    : [];
  const tierById = new Map(tierRows.map((t) => [t.id, t]));
  const locale = asLocale(club.locale);
  const tx = INVOICE_TEXTS[locale].dues;
  const plans: Plan[] = [];
  for (const m of list) {
    const periodStart = periodStartOf(m);
    if (busy.has(m.id) || busy.has(`${m.id}|${periodStart}`)) {
      skipped.already_invoiced++;
      continue;
    }
    const tier = m.tier_id ? tierById.get(m.tier_id) : undefined;
    const dues = duesOf(m, { fee: club.membership_fee_cents, currency: club.currency }, tier);
    if (dues.amount <= 0) {
      skipped.nothing_to_pay++;
      continue;
    }
    // A tier may cost more than an invoice line takes: such a member is left to invoice by hand.
    if (dues.price > INVOICE_LINE_MAX) {
      skipped.over_limit++;
      continue;
    }
    const lines = [{ label: fillText(tx.line, { name: tier?.name ?? tx.membership, date: mailDay(periodStart, locale) }), amount_cents: dues.price }];
    if (dues.credit > 0) lines.push({ label: tx.credit, amount_cents: -dues.credit });
    plans.push({ member: m, periodStart, lines, amount: dues.amount, currency: dues.currency, tierId: tier?.id ?? null });
  }
  return { plans, skipped };
}

/**
 * Inside the transaction `t`: makes the membership invoice of each of `list` (members of `club`
 * as read in `t`) for its next period, unless it has one (planFor), issued `today` and due
 * DEFAULT_PAYMENT_DAYS later or when that period begins, whichever is later (a run far ahead
 * must not remind a member of dues for a period a year away), numbered on in order. Emits `invoice.created` for each. Takes the
 * club's lock first, so makers at once never invoice one period twice.
 */
export async function createPeriodInvoices(
  t: Queryable,
  site: { db: Db; baseUrl: string },
  club: ClubRow,
  list: DuesMember[],
  today: string,
): Promise<{ created: InvoiceRow[]; plans: Plan[]; skipped: Skipped }> {
  // Each invoice names its member, read before (a reminder) or in `t`: those still there are
  // locked (db/locks namingRead), before the club's lock as a member's row always is.
  const present = await lockNamedMembers(
    t,
    club.id,
    list.map((m) => m.id),
  );
  await lockName(t, `invoices.period:${club.id}`);
  const { plans, skipped } = await planFor(
    t,
    club,
    list.filter((m) => present.has(m.id)),
  );
  if (!plans.length) return { created: [], plans, skipped };
  const year = Number(today.slice(0, 4));
  const first = (await nextNumber(t, club.id, year, plans.length)) - plans.length + 1;
  const qr = !!club.payout_iban && isQrIban(club.payout_iban);
  const now = nowIso();
  const terms = addDays(today, DEFAULT_PAYMENT_DAYS);
  const values = plans.map((p, i) => ({
    id: newId(),
    club_id: club.id,
    number: invoiceNumber(year, first + i),
    member_id: p.member.id,
    tier_id: p.tierId,
    kind: "membership",
    lines: p.lines,
    amount_cents: p.amount,
    currency: p.currency,
    issued_on: today,
    // biome-ignore lint/complexity/useMathMinMax: ISO days, compared as strings
    due_on: p.periodStart > terms ? p.periodStart : terms,
    status: "open",
    paid_cents: 0,
    reference: invoiceReference(qr, year, first + i),
    period_start: p.periodStart,
    created_at: now,
    updated_at: now,
  }));
  const created: InvoiceRow[] = [];
  // A few hundred rows per statement: within both engines' limits on bound values.
  for (let i = 0; i < values.length; i += 200)
    created.push(
      ...(await t
        .insert(invoices)
        .values(values.slice(i, i + 200))
        .returning()),
    );
  const out = await emitter(site.db, t, club.id);
  for (const row of created) await out.emit("invoice.created", () => toInvoice(row, site.baseUrl));
  return { created, plans, skipped };
}

/** The dues members of a batch (`duesWhere` with its ids), in the run's order. */
const readDuesMembers = (q: Queryable, where: SQL | undefined) =>
  q.select(DUES_COLUMNS).from(members).where(where).orderBy(asc(members.membership_end), asc(members.id));

/**
 * The dues run: a membership invoice for each member whose membership ends before `until` (of
 * `tier_ids` when given) and who has none open or paid for that period, issued today; a second
 * run makes none. `dry_run`: answers the same (count, totals, a sample) and writes nothing.
 * 422 TIER_NOT_FOUND naming `tier_ids` for a tier not of the club. Emits `invoice.created` for each.
 * `onProgress`: the members gone through, after each batch.
 */
export const runDues = verb("finances:edit", async function runDues(ctx: Ctx, input: DuesRunRequest & { onProgress?: Progress }): Promise<DuesRun> {
  const q = DuesRunRequest.parse(input);
  const club = await getClubRow(ctx.db, ctx.clubId);
  if (q.tier_ids) {
    const known = new Set(
      (
        await ctx.db.read
          .select({ id: tiers.id })
          .from(tiers)
          .where(and(eq(tiers.club_id, ctx.clubId), inArray(tiers.id, q.tier_ids)))
      ).map((r) => r.id),
    );
    const problems: Invalid[] = q.tier_ids.flatMap((id, i) => (known.has(id) ? [] : [{ loc: ["body", "tier_ids", i], code: "TIER_NOT_FOUND" as const }]));
    if (problems.length) throw new ValidationFailed(problems, "TIER_NOT_FOUND");
  }
  const where = duesWhere(ctx.clubId, q.until, q.tier_ids);
  const batchWhere = (chunk: string[]) => duesWhere(ctx.clubId, q.until, q.tier_ids, chunk);
  const ids = (await ctx.db.read.select({ id: members.id }).from(members).where(where).orderBy(asc(members.membership_end), asc(members.id))).map((r) => r.id);
  const today = todayUtc();
  const run: DuesRun = {
    dry_run: q.dry_run,
    until: q.until,
    created: 0,
    totals: [],
    skipped: { nothing_to_pay: 0, already_invoiced: 0, over_limit: 0 },
    sample: [],
  };
  const totals = new Map<string, { currency: string; amount_cents: number; count: number }>();
  const tally = (plans: Plan[], skipped: Skipped, made: InvoiceRow[]) => {
    run.created += plans.length;
    run.skipped.nothing_to_pay += skipped.nothing_to_pay;
    run.skipped.already_invoiced += skipped.already_invoiced;
    run.skipped.over_limit += skipped.over_limit;
    plans.forEach((p, i) => {
      const sum = totals.get(p.currency) ?? { currency: p.currency, amount_cents: 0, count: 0 };
      sum.amount_cents += p.amount;
      sum.count++;
      totals.set(p.currency, sum);
      if (run.sample.length < SAMPLE) run.sample.push(itemOf(p, made[i]));
    });
  };
  for (let i = 0; i < ids.length; i += BATCH) {
    const chunk = ids.slice(i, i + BATCH);
    if (q.dry_run) {
      const { plans, skipped } = await planFor(ctx.db.read, club, await readDuesMembers(ctx.db.read, batchWhere(chunk)));
      tally(plans, skipped, []);
    } else {
      // The members read again inside the lock: one renewed since the list was read is left out.
      const { plans, skipped, created } = await ctx.db.tx(async (t) => createPeriodInvoices(t, ctx, club, await readDuesMembers(t, batchWhere(chunk)), today));
      tally(plans, skipped, created);
    }
    input.onProgress?.(Math.min(i + BATCH, ids.length), ids.length);
  }
  run.totals = [...totals.values()];
  return run;
});

function itemOf(p: Plan, made: InvoiceRow | undefined): DuesRunItem {
  return {
    member_id: p.member.id,
    first_name: p.member.first_name,
    last_name: p.member.last_name,
    period_start: p.periodStart,
    lines: p.lines,
    amount_cents: p.amount,
    currency: p.currency,
    invoice_id: made?.id ?? null,
    number: made?.number ?? null,
  };
}
