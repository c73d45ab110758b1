// What a member pays now (DESIGN.md section 13): what they owe since joining online, else a
// renewal at their tier's price (else the club's fee) less their referral credit, never below 0.
// The member's page quotes it, a bank statement's line is held to it, mark-paid spends the credit.
import { and, eq } from "drizzle-orm";
import type { Queryable } from "../../db";
import { clubs, tiers } from "../../db/schema";
import type { MemberRow } from "./internal";

export type Dues = {
  /** The price before the credit: the amount owed since joining, or the renewal's full price. */
  price: number;
  /** The part of the member's referral credit this payment takes (0 for the first payment after joining). */
  credit: number;
  /** What the member pays: price - credit. */
  amount: number;
  currency: string;
  /** The first payment after joining online (amount_due_cents set). */
  first: boolean;
};

export async function memberDues(q: Queryable, m: MemberRow): Promise<Dues> {
  const [club] = await q.select({ fee: clubs.membership_fee_cents, currency: clubs.currency }).from(clubs).where(eq(clubs.id, m.club_id)).limit(1);
  const [tier] = m.tier_id
    ? await q
        .select({ price: tiers.price_cents, currency: tiers.currency })
        .from(tiers)
        .where(and(eq(tiers.id, m.tier_id), eq(tiers.club_id, m.club_id)))
        .limit(1)
    : [];
  return duesOf(m, club, tier);
}

/**
 * The rule of memberDues on rows already read (the dues run reads a club's tiers once for
 * thousands of members): `tier` is the member's tier (any, active or not), else undefined.
 */
export function duesOf(
  m: Pick<MemberRow, "amount_due_cents" | "referral_credit_cents">,
  club: { fee: number; currency: string },
  tier: { price: number; currency: string } | undefined,
): Dues {
  const currency = tier?.currency ?? club.currency;
  if (m.amount_due_cents !== null) return { price: m.amount_due_cents, credit: 0, amount: m.amount_due_cents, currency, first: true };
  const price = tier?.price ?? club.fee;
  const credit = Math.max(0, Math.min(m.referral_credit_cents, price));
  return { price, credit, amount: price - credit, currency, first: false };
}

/** The credit a renewal paid with `paid` cents spends: what the payment left of the price, at most the credit. */
export const creditSpent = (dues: Dues, paid: number): number => (dues.first ? 0 : Math.min(dues.credit, Math.max(0, dues.price - paid)));
