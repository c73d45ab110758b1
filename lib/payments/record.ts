// The one place a payment is recorded (a member's mark-paid, a registration's confirm or refund,
// a bank statement's line, a payment provider's event): the payments row with its commission,
// `payment.recorded` for the webhooks, and the payer's receipt, all in the caller's transaction.
// A statement line is recorded once whatever happens: its key is unique per club, checked here
// and held by the unique index (payments_club_statement_line_unique) should two imports race.
import { and, eq, sql } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { clubs, invoices, payments } from "../../db/schema";
import { Conflict } from "../errors";
import { newId, nowIso } from "../ids";
import { paymentData } from "../webhooks/data";
import { emit } from "../webhooks/emit";
import { queueReceipt } from "./receipt";

export type PaymentRow = typeof payments.$inferSelect;

/** Where a payment comes from, beyond what an admin types: the bank line it was read from, its own date, a provider's fee. */
export type PaymentOrigin = {
  /** When the money came in (a statement's booking date); default now. */
  paid_at?: string;
  /** The statement line it was imported from (lib/bank/import.ts). */
  statement_line_key?: string;
  /** `provider` for a payment provider's (its fee in provider_fee_cents); default `manual`. */
  source?: "manual" | "provider";
  provider_fee_cents?: number;
  /** The provider's own payment (Stripe's PaymentIntent `pi_...`): its refunds are found by it. */
  provider_payment_id?: string | null;
  /** The invoice the payment pays (lib/invoices/pay.ts). */
  invoice_id?: string | null;
};

/** The origin fields of a verb's input (which carries others). */
export const originOf = (input: PaymentOrigin): PaymentOrigin => ({
  paid_at: input.paid_at,
  statement_line_key: input.statement_line_key,
  source: input.source,
  provider_fee_cents: input.provider_fee_cents,
  provider_payment_id: input.provider_payment_id,
  invoice_id: input.invoice_id,
});

export type NewPayment = PaymentOrigin & {
  /** Drawn here unless the caller names it first (a history row pointing at it). */
  id?: string;
  clubId: string;
  /** `other`: an invoice's that is neither a membership's nor a ticket's. */
  kind: "membership" | "event" | "other";
  memberId: string | null;
  registrationId?: string | null;
  /** Negative: a refund. */
  amount: number;
  currency: string;
  method: string;
  reason?: string | null;
  adminId?: string | null;
};

/**
 * Inside the caller's transaction: stores the payment (commission at the club's
 * `commission_rate_percent`, null = 0), emits `payment.recorded` and queues the receipt or refund
 * note. 409 STATEMENT_LINE_ALREADY_RECORDED for a statement line recorded before (the caller's
 * whole transaction rolls back with it).
 */
export async function recordPayment(t: Queryable, site: { db: Db; baseUrl: string }, input: NewPayment): Promise<PaymentRow> {
  if (input.statement_line_key) {
    const [seen] = await t
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.club_id, input.clubId), eq(payments.statement_line_key, input.statement_line_key)))
      .limit(1);
    if (seen) throw new Conflict("STATEMENT_LINE_ALREADY_RECORDED");
  }
  const [club] = await t.select().from(clubs).where(eq(clubs.id, input.clubId)).limit(1);
  const now = nowIso();
  const [payment] = await t
    .insert(payments)
    .values({
      id: input.id ?? newId(),
      club_id: input.clubId,
      member_id: input.memberId,
      kind: input.kind,
      registration_id: input.registrationId ?? null,
      amount_cents: input.amount,
      currency: input.currency,
      method: input.method,
      source: input.source ?? "manual",
      provider_fee_cents: input.provider_fee_cents ?? 0,
      provider_payment_id: input.provider_payment_id ?? null,
      platform_commission_cents: Math.round((input.amount * (club.commission_rate_percent ?? 0)) / 100),
      reason: input.reason ?? null,
      admin_id: input.adminId ?? null,
      paid_at: input.paid_at ?? now,
      created_at: now,
      statement_line_key: input.statement_line_key ?? null,
      invoice_id: input.invoice_id ?? null,
    })
    .returning();
  // A refund of a payment on an invoice gives the invoice back what it takes (open again if due).
  if (input.amount < 0 && input.invoice_id) await refundInvoicePayment(t, input.clubId, input.invoice_id, -input.amount);
  await emit(site.db, t, input.clubId, "payment.recorded", () => paymentData(payment));
  await queueReceipt(t, site.baseUrl, club, payment);
  return payment;
}

/**
 * Inside the transaction recording a refund of `cents` (positive) of a payment on the invoice
 * `id`: what was paid is lowered (never below 0), and a paid invoice no longer covered is open
 * again, in one conditional write (no read-then-write: two refunds at once each take their
 * part). Called once per refund row, which the callers record once. Here, not in lib/invoices: that
 * area builds on this one (references), so this one writes the invoices row itself.
 */
async function refundInvoicePayment(t: Queryable, clubId: string, id: string, cents: number): Promise<void> {
  const after = sql`${invoices.paid_cents} - ${cents}`;
  await t
    .update(invoices)
    .set({
      paid_cents: sql`case when ${after} < 0 then 0 else ${after} end`,
      status: sql`case when ${invoices.status} = 'paid' and ${after} < ${invoices.amount_cents} then 'open' else ${invoices.status} end`,
      updated_at: nowIso(),
    })
    .where(and(eq(invoices.club_id, clubId), eq(invoices.id, id)));
}
