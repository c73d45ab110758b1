// The referral reward once a referred newcomer pays (DESIGN.md section 13): the newcomer got the
// club's `member_referral_reward_percent` off when joining; on their first payment the referrer's
// `referral_count` rises and the same amount is added to their `referral_credit_cents`, the
// balance capped by `member_referral_max_credits_cents`.
import { eq, sql } from "drizzle-orm";
import { type Db, type Queryable, withinTx } from "../../db";
import { clubs, members, tiers } from "../../db/schema";
import { nowIso } from "../ids";
import { emitter } from "../webhooks/emit";
import { emitMemberChange, getMemberItem, type MemberRow } from "./internal";

/**
 * Inside the payment's transaction, for the member `m` as it was before it: when it joined online
 * and still owed its first payment (`amount_due_cents` set) and was referred, credits the referrer,
 * a change of the referrer told to the club's webhooks (`member.updated`) as any other is.
 * Nothing otherwise (a renewal, a member added by hand, a referrer since erased).
 */
export async function creditReferrer(db: Db, t: Queryable, m: MemberRow): Promise<void> {
  if (m.amount_due_cents === null || !m.referred_by_member_id || !m.tier_id) return;
  const [club] = await t
    .select({ percent: clubs.member_referral_reward_percent, max: clubs.member_referral_max_credits_cents })
    .from(clubs)
    .where(eq(clubs.id, m.club_id))
    .limit(1);
  const [tier] = await t.select({ price: tiers.price_cents }).from(tiers).where(eq(tiers.id, m.tier_id)).limit(1);
  const [referrer] = await t.select().from(members).where(eq(members.id, m.referred_by_member_id)).limit(1);
  if (!club || !tier || !referrer || referrer.club_id !== m.club_id) return;
  const reward = Math.round((tier.price * club.percent) / 100);
  // The cap is applied by the UPDATE to the balance as it stands when the row is written (on
  // PostgreSQL, re-read after another payment's write to it commits), not to the `referrer` read
  // above without a lock: two newcomers paying at once would each see room for a whole reward.
  // A balance already at or over the cap (a cap lowered since) is kept as it is.
  const credit = sql`${members.referral_credit_cents}`;
  const capped =
    club.max === null
      ? sql`${credit} + ${reward}`
      : sql`CASE WHEN ${credit} >= ${club.max} THEN ${credit} WHEN ${credit} + ${reward} > ${club.max} THEN ${club.max} ELSE ${credit} + ${reward} END`;
  const [after] = await t
    .update(members)
    .set({ referral_count: sql`${members.referral_count} + 1`, referral_credit_cents: capped, updated_at: nowIso() })
    .where(eq(members.id, referrer.id))
    .returning();
  await emitMemberChange(await emitter(db, t, m.club_id), referrer, after, () => getMemberItem(withinTx(db, t), m.club_id, referrer.id));
}
