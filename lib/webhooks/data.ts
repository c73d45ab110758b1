// The `data` of the webhook events whose object has no route of its own to borrow a shape from:
// a payment (as the member's data export shows it, with what it pays for).
import type { payments } from "../../db/schema";

type PaymentRow = typeof payments.$inferSelect;

/** `payment.recorded`'s data: a negative amount is a refund. */
export function paymentData(p: PaymentRow) {
  return {
    id: p.id,
    kind: p.kind,
    member_id: p.member_id,
    registration_id: p.registration_id,
    amount_cents: p.amount_cents,
    currency: p.currency,
    method: p.method,
    source: p.source,
    provider_fee_cents: p.provider_fee_cents,
    reason: p.reason,
    paid_at: p.paid_at,
  };
}
