// What a club can be paid with, now (DESIGN.md section 13): the club chooses its methods
// (`payment_methods_enabled`), the installation decides whether card payments work at all
// (Stripe's keys), and the club's own details whether a bank transfer can be asked for (its
// payout IBAN). The Club's payment state fields and every payment step read it here, so the
// page, the join and the member's renewal always agree.
import type { ClubRow } from "./internal";

export type PaymentMethod = "stripe" | "bank_transfer";

type PayingClub = Pick<ClubRow, "payout_iban" | "payment_methods_enabled">;

/** The methods on offer: `stripe` when the club enables it and Stripe is configured, `bank_transfer` when enabled and the club has a payout IBAN. */
export function paymentMethods(club: PayingClub, stripeOn: boolean): PaymentMethod[] {
  const enabled = club.payment_methods_enabled ?? [];
  const out: PaymentMethod[] = [];
  if (stripeOn && enabled.includes("stripe")) out.push("stripe");
  if (club.payout_iban && enabled.includes("bank_transfer")) out.push("bank_transfer");
  return out;
}

/**
 * The Club's payment state as it is: `payment_provider` is `stripe` when Stripe is configured on
 * this installation, else `manual`; `payments_connected` says Stripe is configured;
 * `payments_ready` that the club takes card payments now (connected, and `stripe` enabled).
 */
export function paymentState(club: PayingClub, stripeOn: boolean) {
  return {
    payment_provider: stripeOn ? "stripe" : "manual",
    payments_connected: stripeOn,
    payments_ready: paymentMethods(club, stripeOn).includes("stripe"),
  };
}
