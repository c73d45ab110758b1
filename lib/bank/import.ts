// The bank statement import (DESIGN.md section 13): each credit line whose ISO 11649 reference
// names, exactly, a member or an event registration of the club awaiting exactly that amount in
// that currency is recorded through the verb an admin would use (mark-paid, confirm), so it gets
// the same renewal, receipt, promo count, referral credit and webhooks. Every other line is
// listed with its reason: nothing is guessed. Each line is recorded in its own transaction under
// its statement line key (lib/payments/record), so an import cut short, or run again, records
// nothing twice.
import { and, eq, inArray, max, sql } from "drizzle-orm";
import { isUniqueViolation, type Queryable, withinTx } from "../../db";
import { lockRows } from "../../db/locks";
import { eventRegistrations, events, invoices, members, payments, payouts } from "../../db/schema";
import { daysApart, matchPayoutLine, PAYOUT_DAYS, type PayoutRow, payoutCandidates, payoutOfLine, recordPayout } from "../books/payouts";
import { type Ctx, verb } from "../context";
import { AppError, ValidationFailed } from "../errors";
import { t as translate } from "../i18n";
import type { MessageCode } from "../i18n/messages";
import { todayUtc } from "../days";
import { mailMoney } from "../mail/look";
import { markMemberPaid } from "../members";
import { memberDues } from "../members/dues";
import type { MemberRow } from "../members/internal";
import { type InvoiceRow, invoiceRow } from "../invoices";
import { addInvoicePayment, assertPayable, invoiceLeft, lockInvoice } from "../invoices/pay";
import { originOf, recordPayment } from "../payments/record";
import { referenceTarget } from "../payments/reference";
import { confirmPendingRegistration } from "../registrations/admin";
import type { PaymentImportMiss, PaymentImportResult } from "./schemas";
import { readStatement, StatementRefused, type StatementLine } from "./statement";

type Reason = PaymentImportMiss["reason"];

/** What a matched line pays, and how to record it. */
type Target =
  | { kind: "member"; member: MemberRow }
  | { kind: "registration"; id: string; event_id: string }
  | { kind: "invoice"; invoice: InvoiceRow }
  /** A Stripe payout reaching the bank: the payout recorded (`payout`), else one to record from the line under `id`. */
  | { kind: "payout"; payout: PayoutRow | null; id: string };

/**
 * What the recording verbs may answer when the state moved since the line was checked: a 409, or
 * a 404 for a member or registration erased meanwhile. The line is listed with its reason; the
 * others are recorded as if it were not there.
 */
const MOVED: Record<string, Reason> = {
  STATEMENT_LINE_ALREADY_RECORDED: "STATEMENT_LINE_ALREADY_RECORDED",
  MEMBER_SUSPENDED: "NOT_PAYABLE",
  REGISTRATION_NOT_PENDING: "ALREADY_PAID",
  EVENT_CANCELLED: "NOT_PAYABLE",
  MEMBER_NOT_FOUND: "REFERENCE_UNKNOWN",
  REGISTRATION_NOT_FOUND: "REFERENCE_UNKNOWN",
  EVENT_NOT_FOUND: "REFERENCE_UNKNOWN",
  INVOICE_CANCELLED: "NOT_PAYABLE",
  INVOICE_PAID: "ALREADY_PAID",
};

type ImportInput = { file: string | Uint8Array; dry_run?: boolean };

/**
 * Reads the statement `file` (CSV, camt.053 or camt.054, lib/bank/statement) and records each line it
 * can match, unless `dry_run`. 422 STATEMENT_UNREADABLE or STATEMENT_COLUMNS_MISSING for a file
 * that is no statement. The answer lists every credit or debit line, matched or not, in file order.
 */
export const importPayments = verb("finances:edit", async function importPayments(ctx: Ctx, input: ImportInput): Promise<PaymentImportResult> {
  let statement: Awaited<ReturnType<typeof readStatement>>;
  try {
    statement = await readStatement(input.file);
  } catch (err) {
    if (err instanceof StatementRefused) throw new ValidationFailed([{ loc: ["body"], code: err.code, params: err.params }]);
    throw err;
  }
  const dryRun = !!input.dry_run;
  const lookups = await lookUp(ctx, statement.lines);
  const paidInFile = new Set<string>();
  type Outcome = { matched: PaymentImportResult["matched"][number] } | { unmatched: PaymentImportMiss };
  const missed = (seen: Seen, reason: Reason, params: Record<string, string | number> = {}, expected?: number): Outcome => ({
    unmatched: {
      ...seen,
      reason,
      detail: translate(ctx.locale, reason as MessageCode, params),
      ...(expected === undefined ? {} : { expected_cents: expected }),
    },
  });
  // Every line decided first, in file order (a target paid twice in the file: the second is ALREADY_PAID)...
  const decided = statement.lines.map((line) => {
    const seen: Seen = {
      line: line.line,
      date: line.date,
      amount_cents: line.amount_cents,
      currency: line.currency,
      reference: line.reference,
      counterparty: line.counterparty,
    };
    const d = decide(ctx, line, lookups, paidInFile);
    if ("target" in d) paidInFile.add(targetKey(d.target));
    return { line, seen, d };
  });
  // A dry run's invoices as the file's earlier lines leave them (its lines add up, as recorded ones would).
  const dryInvoices = new Map<string, InvoiceRow>();
  // The lines of one invoice recorded one after the other, in file order (PostgreSQL would run
  // them side by side in any order): the same line completes it, however the batch runs.
  const invoiceTurns = new Map<string, Promise<unknown>>();
  // ...then the matched ones recorded, each in its own transaction by the verb; a batch at once,
  // so that their transactions share commits (db/ GroupCommit): one by one, each would wait for
  // its own commit (an fsync).
  const outcomes: Outcome[] = [];
  for (let i = 0; i < decided.length; i += RECORD_BATCH) {
    const batch = decided.slice(i, i + RECORD_BATCH).map(async ({ line, seen, d }): Promise<Outcome> => {
      if ("reason" in d) return missed(seen, d.reason, d.params, d.expected);
      const { target } = d;
      const amount = line.amount_cents as number;
      const origin = { paid_at: paidOn(line), statement_line_key: line.key, payment_method: "bank_transfer" };
      if (target.kind === "payout") {
        const recorded = !target.payout;
        if (!dryRun) {
          const reason = await payoutLine(ctx, target, line);
          if (reason) return missed(seen, reason);
        }
        return { matched: { ...seen, amount_cents: amount, payout_id: target.id, payout_recorded: recorded } };
      }
      if (target.kind === "invoice") {
        try {
          let paid: InvoiceRow;
          if (dryRun) {
            const before = dryInvoices.get(target.invoice.id) ?? target.invoice;
            if (before.status === "paid") return missed(seen, "ALREADY_PAID");
            paid = afterPayment(before, amount);
            dryInvoices.set(paid.id, paid);
          } else {
            const turn = (invoiceTurns.get(target.invoice.id) ?? Promise.resolve()).then(() => payInvoice(ctx, target.invoice, amount, origin));
            invoiceTurns.set(
              target.invoice.id,
              turn.catch(() => {}),
            );
            paid = await turn;
          }
          return { matched: { ...seen, amount_cents: amount, member_id: target.invoice.member_id, ...invoiceOutcome(paid) } };
        } catch (err) {
          const reason = err instanceof AppError ? MOVED[err.code] : undefined;
          if (!reason) throw err;
          return missed(seen, reason, { state: (err as AppError).code });
        }
      }
      if (!dryRun) {
        try {
          if (target.kind === "member") await markMemberPaid(ctx, { ...origin, member_id: target.member.id, amount_cents: amount, reason: null });
          else await confirmPendingRegistration(ctx, { ...origin, event_id: target.event_id, registration_id: target.id, amount_cents: amount });
        } catch (err) {
          const reason = err instanceof AppError ? MOVED[err.code] : undefined;
          if (!reason) throw err;
          return missed(seen, reason, { state: (err as AppError).code });
        }
      }
      return { matched: { ...seen, amount_cents: amount, ...(target.kind === "member" ? { member_id: target.member.id } : { registration_id: target.id }) } };
    });
    outcomes.push(...(await Promise.all(batch)));
  }
  return {
    format: statement.format,
    dry_run: dryRun,
    matched: outcomes.flatMap((o) => ("matched" in o ? [o.matched] : [])),
    unmatched: outcomes.flatMap((o) => ("unmatched" in o ? [o.unmatched] : [])),
  };
});

/**
 * When a line's payment counts as made: its day, but never after the day it is imported (a value
 * date ahead, a bank's typo). A payment dated ahead would read as "already paid" to every later
 * line of its member dated before that day (decide), and date the books in the future.
 */
function paidOn(line: StatementLine): string {
  // The earlier of the two days (YYYY-MM-DD sorts as text).
  const [day] = [line.date as string, todayUtc()].sort();
  return `${day}T00:00:00.000Z`;
}

/**
 * Records a payout line in its own transaction: the recorded payout marked as this line's, or
 * the payout recorded from the line. What another import or `payout.paid` did meanwhile decides:
 * the line taken already is STATEMENT_LINE_ALREADY_RECORDED, the payout taken by another line
 * ALREADY_PAID; null when recorded.
 */
async function payoutLine(ctx: Ctx, target: Extract<Target, { kind: "payout" }>, line: StatementLine): Promise<Reason | null> {
  try {
    return await ctx.db.tx(async (t) => {
      if (target.payout) return (await matchPayoutLine(t, ctx.clubId, target.payout.id, line.key)) ? null : await takenWhy(t, line.key);
      const input = { clubId: ctx.clubId, providerPayoutId: target.id, amount: line.amount_cents as number, currency: line.currency as string, key: line.key };
      if (await recordPayout(t, { ...input, paidAt: paidOn(line) })) return null;
      // Recorded meanwhile (payout.paid, another import): this line is its arrival if none is yet.
      const [row] = await t
        .select({ id: payouts.id })
        .from(payouts)
        .where(and(eq(payouts.club_id, ctx.clubId), eq(payouts.provider_payout_id, target.id)));
      return row && (await matchPayoutLine(t, ctx.clubId, row.id, line.key)) ? null : await takenWhy(t, line.key);
    });
  } catch (err) {
    if (isUniqueViolation(err)) return "STATEMENT_LINE_ALREADY_RECORDED";
    throw err;
  }
}

/** Why a payout line could not be recorded: the line is some payout's already, or its payout is another line's. */
async function takenWhy(t: Queryable, key: string): Promise<Reason> {
  const [mine] = await t.select({ id: payouts.id }).from(payouts).where(eq(payouts.statement_line_key, key)).limit(1);
  return mine ? "STATEMENT_LINE_ALREADY_RECORDED" : "ALREADY_PAID";
}

/** Matched lines recorded at once (their transactions queue on the writer and commit together). */
const RECORD_BATCH = 100;

type Seen = Omit<PaymentImportMiss, "reason" | "detail" | "expected_cents">;

const targetKey = (target: Target) =>
  target.kind === "member"
    ? `m:${target.member.id}`
    : target.kind === "invoice"
      ? `i:${target.invoice.id}`
      : target.kind === "payout"
        ? `p:${target.id}`
        : `r:${target.id}`;

/** The invoice as a payment of `amount` leaves it (what a dry run answers). */
const afterPayment = (row: InvoiceRow, amount: number): InvoiceRow => {
  const paid = row.paid_cents + amount;
  return { ...row, paid_cents: paid, status: paid >= row.amount_cents ? "paid" : "open" };
};

/** What a matched line tells of its invoice: its state after the line, and what was paid over its amount. */
const invoiceOutcome = (row: InvoiceRow) => ({
  invoice_id: row.id,
  invoice_status: row.status as "open" | "paid",
  invoice_paid_cents: row.paid_cents,
  ...(row.paid_cents > row.amount_cents ? { overpaid_cents: row.paid_cents - row.amount_cents } : {}),
});

/**
 * Records a statement line paying `seen` (the invoice as the lookup read it), in one transaction
 * holding the member's row, then the invoice's (mark-paid's order), and decided again on what
 * they hold then: the payment that completes a membership invoice is mark-paid's (the period
 * renewed once, the invoice paid there); any other is a payment on the invoice alone. 409s
 * (cancelled, paid meanwhile, the line recorded by another import) roll it all back.
 */
async function payInvoice(ctx: Ctx, seen: InvoiceRow, amount: number, origin: { paid_at: string; statement_line_key: string; payment_method: string }) {
  return ctx.db.tx(async (t) => {
    const inner: Ctx = { ...ctx, db: withinTx(ctx.db, t) };
    await lockRows(t, members, members.id, seen.member_id);
    const row = await lockInvoice(t, ctx.clubId, seen.id);
    assertPayable(row);
    if (row.kind === "membership" && amount >= invoiceLeft(row)) {
      await markMemberPaid(inner, { ...origin, member_id: row.member_id, amount_cents: amount, reason: null, invoice_id: row.id });
      return invoiceRow(t, ctx.clubId, row.id);
    }
    // A registration's invoice: the completing payment is the confirmation's (once: a registration
    // confirmed meanwhile is REGISTRATION_NOT_PENDING, listed ALREADY_PAID, nothing recorded).
    if (row.kind === "event" && row.registration_id && amount >= invoiceLeft(row)) {
      const [reg] = await t
        .select({ event_id: eventRegistrations.event_id })
        .from(eventRegistrations)
        .where(and(eq(eventRegistrations.club_id, ctx.clubId), eq(eventRegistrations.id, row.registration_id)));
      if (reg) {
        await confirmPendingRegistration(inner, {
          ...origin,
          event_id: reg.event_id,
          registration_id: row.registration_id,
          amount_cents: amount,
          invoice_id: row.id,
        });
        return invoiceRow(t, ctx.clubId, row.id);
      }
    }
    const kind = row.kind === "membership" || row.kind === "event" ? row.kind : "other";
    await recordPayment(t, inner, {
      ...originOf(origin),
      invoice_id: row.id,
      clubId: ctx.clubId,
      kind,
      memberId: row.member_id,
      registrationId: row.kind === "event" ? row.registration_id : null,
      amount,
      currency: row.currency,
      method: origin.payment_method,
      adminId: ctx.actor.adminId,
    });
    return addInvoicePayment(t, inner, row, amount);
  });
}

type Lookups = Awaited<ReturnType<typeof lookUp>>;

/** What the lines' references name, read at once: members by card code, registrations by id tail, their last payments, the keys recorded before. */
async function lookUp(ctx: Ctx, lines: StatementLine[]) {
  const codes = new Set<string>();
  const tails = new Set<string>();
  const invoiceRefs = new Set<string>();
  for (const line of lines) {
    const target = referenceTarget(line.reference);
    if (target?.kind === "member") codes.add(target.code);
    if (target?.kind === "registration") tails.add(target.idTail);
    if (target?.kind === "invoice") invoiceRefs.add(target.reference);
  }
  const q = ctx.db.read;
  const invoiceRows: InvoiceRow[] = [];
  const refs = [...invoiceRefs];
  for (let i = 0; i < refs.length; i += 500)
    invoiceRows.push(
      ...(await q
        .select()
        .from(invoices)
        .where(and(eq(invoices.club_id, ctx.clubId), inArray(invoices.reference, refs.slice(i, i + 500))))),
    );
  const memberRows = codes.size
    ? await q
        .select()
        .from(members)
        .where(and(eq(members.club_id, ctx.clubId), inArray(members.referral_code, [...codes])))
    : [];
  const idTail = sql<string>`substr(${eventRegistrations.id}, 15)`;
  const registrationRows = tails.size
    ? await q
        .select({ r: eventRegistrations, event_status: events.status, tail: idTail })
        .from(eventRegistrations)
        .innerJoin(events, eq(events.id, eventRegistrations.event_id))
        .where(and(eq(eventRegistrations.club_id, ctx.clubId), inArray(idTail, [...tails])))
    : [];
  const lastPaid = memberRows.length
    ? await q
        .select({ member_id: payments.member_id, at: max(payments.paid_at) })
        .from(payments)
        .where(
          and(
            eq(payments.club_id, ctx.clubId),
            eq(payments.kind, "membership"),
            inArray(
              payments.member_id,
              memberRows.map((m) => m.id),
            ),
          ),
        )
        .groupBy(payments.member_id)
    : [];
  const keys = lines.map((l) => l.key);
  const recorded = new Set<string>();
  for (let i = 0; i < keys.length; i += 500) {
    const rows = await q
      .select({ key: payments.statement_line_key })
      .from(payments)
      .where(and(eq(payments.club_id, ctx.clubId), inArray(payments.statement_line_key, keys.slice(i, i + 500))));
    for (const r of rows) if (r.key) recorded.add(r.key);
  }
  // Payout lines: the payouts they name, and those not yet seen on a line around the file's days.
  const payoutLines = lines.filter((l) => l.credit && !referenceTarget(l.reference) && payoutOfLine(l));
  const days = payoutLines
    .map((l) => l.date)
    .filter((d): d is string => !!d)
    .sort();
  const payoutIds = payoutLines.map((l) => payoutOfLine(l)?.id).filter((id): id is string => !!id);
  const payoutRows = payoutLines.length ? await payoutCandidates(q, ctx.clubId, payoutIds, days[0] ?? null, days.at(-1) ?? null) : [];
  for (let i = 0; i < keys.length && payoutLines.length; i += 500) {
    const rows = await q
      .select({ key: payouts.statement_line_key })
      .from(payouts)
      .where(and(eq(payouts.club_id, ctx.clubId), inArray(payouts.statement_line_key, keys.slice(i, i + 500))));
    for (const r of rows) if (r.key) recorded.add(r.key);
  }
  const dues = new Map<string, Awaited<ReturnType<typeof memberDues>>>();
  for (const m of memberRows) dues.set(m.id, await memberDues(q, m));
  return {
    members: new Map(memberRows.map((m) => [m.referral_code, m])),
    registrations: new Map(registrationRows.map((r) => [r.tail, r])),
    invoices: new Map(invoiceRows.map((r) => [r.reference, r])),
    lastPaid: new Map(lastPaid.map((p) => [p.member_id as string, p.at as string | null])),
    payouts: payoutRows,
    dues,
    recorded,
  };
}

/**
 * A payout line: quoting the payout's id, it is that payout (recorded from the line when Stripe's
 * `payout.paid` has not recorded it); naming Stripe only, it is the one recorded payout not yet
 * seen on a line, of the same amount and currency, arriving within PAYOUT_DAYS; none: listed
 * PAYOUT_NOT_RECORDED, never recorded (a later payout.paid could not tell it is the same).
 */
function decidePayout(line: StatementLine, id: string | null, found: Lookups, paidInFile: Set<string>): Decision {
  if (found.recorded.has(line.key)) return { reason: "STATEMENT_LINE_ALREADY_RECORDED" };
  if (id) {
    const row = found.payouts.find((p) => p.provider_payout_id === id) ?? null;
    if ((row?.statement_line_key && row.statement_line_key !== line.key) || paidInFile.has(`p:${id}`)) return { reason: "ALREADY_PAID" };
    return { target: { kind: "payout", payout: row, id } };
  }
  const row = found.payouts.find(
    (p) =>
      !p.statement_line_key &&
      !paidInFile.has(`p:${p.provider_payout_id}`) &&
      p.amount_cents === line.amount_cents &&
      p.currency === line.currency &&
      daysApart(p.paid_at, line.date as string) <= PAYOUT_DAYS,
  );
  return row ? { target: { kind: "payout", payout: row, id: row.provider_payout_id } } : { reason: "PAYOUT_NOT_RECORDED" };
}

type Decision = { target: Target } | { reason: Reason; params?: Record<string, string | number>; expected?: number };

/** Whether `line` pays exactly what its reference's member or registration awaits, else why not. In this order: readable, credit, reference, target, state, currency, amount. */
function decide(ctx: Ctx, line: StatementLine, found: Lookups, paidInFile: Set<string>): Decision {
  if (line.problem) return { reason: "LINE_UNREADABLE", params: { problem: line.problem } };
  if (!line.credit) return { reason: "LINE_NOT_CREDIT" };
  const ref = referenceTarget(line.reference);
  // A Stripe payout (a line quoting no member's, registration's or invoice's reference).
  const payout = ref ? undefined : payoutOfLine(line);
  if (payout) return decidePayout(line, payout.id, found, paidInFile);
  if (!line.reference) return { reason: "REFERENCE_MISSING" };
  if (!ref) return { reason: "REFERENCE_INVALID" };
  if (found.recorded.has(line.key)) return { reason: "STATEMENT_LINE_ALREADY_RECORDED" };
  const amount = line.amount_cents as number;
  const money = (cents: number, currency: string) => mailMoney(cents, currency, ctx.locale);
  if (ref.kind === "member") {
    const m = found.members.get(ref.code);
    if (!m) return { reason: "REFERENCE_UNKNOWN" };
    if (m.payment_status === "suspended") return { reason: "NOT_PAYABLE", params: { state: "suspended" } };
    if (m.application_status === "pending_approval") return { reason: "NOT_PAYABLE", params: { state: "pending_approval" } };
    const dues = found.dues.get(m.id) as Awaited<ReturnType<typeof memberDues>>;
    const target: Target = { kind: "member", member: m };
    if (line.currency && line.currency !== dues.currency.toUpperCase()) return { reason: "CURRENCY_DIFFERS", params: { expected: dues.currency } };
    // A payment recorded on or after the line's day (mark-paid by hand, an earlier statement in another format) already counts it.
    const last = found.lastPaid.get(m.id);
    if (paidInFile.has(targetKey(target)) || (!dues.first && last && last.slice(0, 10) >= (line.date as string))) return { reason: "ALREADY_PAID" };
    if (amount !== dues.amount) return { reason: "AMOUNT_DIFFERS", params: { expected: money(dues.amount, dues.currency) }, expected: dues.amount };
    return { target };
  }
  if (ref.kind === "invoice") {
    // Any amount is taken (a part, the rest, or more: the overpayment is kept and listed); one
    // line after another of the same file add up.
    const invoice = found.invoices.get(ref.reference);
    if (!invoice) return { reason: "REFERENCE_UNKNOWN" };
    if (invoice.status === "cancelled") return { reason: "NOT_PAYABLE", params: { state: "cancelled" } };
    if (invoice.status === "paid") return { reason: "ALREADY_PAID" };
    if (line.currency && line.currency !== invoice.currency.toUpperCase()) return { reason: "CURRENCY_DIFFERS", params: { expected: invoice.currency } };
    return { target: { kind: "invoice", invoice } };
  }
  const hit = found.registrations.get(ref.idTail);
  if (!hit) return { reason: "REFERENCE_UNKNOWN" };
  const { r, event_status } = hit;
  const target: Target = { kind: "registration", id: r.id, event_id: r.event_id };
  if (r.status === "confirmed" || paidInFile.has(targetKey(target))) return { reason: "ALREADY_PAID" };
  if (r.status !== "pending" || event_status === "cancelled")
    return { reason: "NOT_PAYABLE", params: { state: event_status === "cancelled" ? "event cancelled" : r.status } };
  if (line.currency && line.currency !== r.currency.toUpperCase()) return { reason: "CURRENCY_DIFFERS", params: { expected: r.currency } };
  if (amount !== r.amount_cents) return { reason: "AMOUNT_DIFFERS", params: { expected: money(r.amount_cents, r.currency) }, expected: r.amount_cents };
  return { target };
}
