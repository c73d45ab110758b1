// A membership promo code given at join is "counted once paid" (DESIGN.md section 13): lib/promo
// reserves its use at join (a redemption row awaiting payment, used_count untouched); the first
// payment counts it here, in the payment's transaction.
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../db";
import { promoCodes, promoRedemptions } from "../../db/schema";

/**
 * The code the member `memberId` was given at join, reserved until now, counts as used
 * (used_count + 1). A code that others' payments used up meanwhile still counts: the joiner was
 * promised the price.
 */
export async function countMembershipPromo(t: Queryable, input: { clubId: string; memberId: string; now: string }): Promise<void> {
  const paid = await t
    .update(promoRedemptions)
    .set({ awaiting_payment: false })
    .where(and(eq(promoRedemptions.club_id, input.clubId), eq(promoRedemptions.member_id, input.memberId), eq(promoRedemptions.awaiting_payment, true)))
    .returning({ promo_code_id: promoRedemptions.promo_code_id });
  for (const { promo_code_id } of paid) {
    await t
      .update(promoCodes)
      .set({ used_count: sql`${promoCodes.used_count} + 1`, updated_at: input.now })
      .where(eq(promoCodes.id, promo_code_id));
  }
}
