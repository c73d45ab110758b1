// A payment provider's payouts to the club's bank (DESIGN.md section 21): recorded from Stripe's
// `payout.paid` (lib/stripe-events), read by the journal, which books each from the passage
// account to the bank. A payout is the installation's Stripe account's, so it may carry several
// clubs' payments: each club's share is the net of its own payments and refunds in it, found by
// their PaymentIntents; what names none of ours (an adjustment) is no club's.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { payments, payouts } from "../../db/schema";
import type { Ctx } from "../context";
import { newId, nowIso } from "../ids";
import type { PayoutPart } from "../stripe";
import { periodWhere } from "./ledger";

export type PayoutRow = typeof payouts.$inferSelect;

/** Each club's share of a payout's parts (cents, by club id), from the payments their PaymentIntents recorded. */
export async function payoutShares(db: Db, parts: PayoutPart[]): Promise<Map<string, number>> {
  const intents = [...new Set(parts.map((p) => p.paymentIntent))];
  const clubOf = new Map<string, string>();
  for (let i = 0; i < intents.length; i += 500) {
    const rows = await db.read
      .selectDistinct({ club_id: payments.club_id, intent: payments.provider_payment_id })
      .from(payments)
      .where(inArray(payments.provider_payment_id, intents.slice(i, i + 500)));
    for (const r of rows) if (r.intent) clubOf.set(r.intent, r.club_id);
  }
  const shares = new Map<string, number>();
  for (const p of parts) {
    const club = clubOf.get(p.paymentIntent);
    if (club) shares.set(club, (shares.get(club) ?? 0) + p.netCents);
  }
  return shares;
}

export type NewPayout = { clubId: string; providerPayoutId: string; amount: number; currency: string; paidAt: string };

/** Inside the caller's transaction: the club's share of a payout, once (the unique index on club and payout holds it, should two copies race). */
export async function recordPayout(t: Queryable, input: NewPayout): Promise<boolean> {
  const rows = await t
    .insert(payouts)
    .values({
      id: newId(),
      club_id: input.clubId,
      provider_payout_id: input.providerPayoutId,
      amount_cents: input.amount,
      currency: input.currency.toUpperCase(),
      paid_at: input.paidAt,
      created_at: nowIso(),
    })
    .onConflictDoNothing()
    .returning({ id: payouts.id });
  return rows.length > 0;
}

/** The club's payouts of a period (a few a week at most: read at once), in the order of (paid_at, id). */
export function payoutsOf(ctx: Ctx, from: string, to: string): Promise<PayoutRow[]> {
  return ctx.db.read
    .select()
    .from(payouts)
    .where(and(eq(payouts.club_id, ctx.clubId), ...periodWhere(payouts.paid_at, from, to)))
    .orderBy(asc(payouts.paid_at), asc(payouts.id));
}
