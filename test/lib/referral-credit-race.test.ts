// A referrer's credit never passes the club's cap (member_referral_max_credits_cents), even when
// several newcomers they referred pay at once (DESIGN.md section 13): the cap is part of the
// UPDATE that adds the reward, so payments committed side by side, on PostgreSQL from several
// connections of the pool, each add only what is left under the cap as the row stands then.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { markMemberPaid } from "../../lib/members";
import { setup, type TestEnv } from "../helpers";
import { memberRow, seedMember } from "../members-fixtures";

let env: TestEnv;
let ctx: Ctx;
let tier: string;
beforeAll(async () => {
  env = await setup();
  ctx = await operatorCtx(env.db, env.clubId, env.config);
  tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adult", price_cents: 5000, currency: "CHF", duration_months: 12 } })).body
    .id;
  // 20 % of 50.00: a reward of 10.00 a newcomer, up to 25.00 in all.
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({ member_referral_enabled: true, member_referral_reward_percent: 20, member_referral_max_credits_cents: 2500 })
      .where(eq(clubs.id, env.clubId)),
  );
});
afterAll(() => env.close());

describe("a referrer whose newcomers pay at once", () => {
  it("is credited up to the cap and no further, every referral counted", async () => {
    const referrer = await seedMember(env, { referral_credit_cents: 500 });
    const newcomers = await Promise.all(
      Array.from({ length: 10 }, () =>
        seedMember(env, { tier_id: tier, payment_status: "pending", amount_due_cents: 4000, referred_by_member_id: referrer.id }),
      ),
    );
    const paid = await Promise.allSettled(newcomers.map((m) => markMemberPaid(ctx, { member_id: m.id, amount_cents: 4000 })));
    expect(paid.filter((p) => p.status === "rejected")).toEqual([]);
    expect(await memberRow(env, referrer.id)).toMatchObject({ referral_count: 10, referral_credit_cents: 2500 });
  });

  it("keeps a credit already over the cap (the club lowered it) as it is", async () => {
    const referrer = await seedMember(env, { referral_credit_cents: 4000 });
    const newcomers = await Promise.all(
      Array.from({ length: 3 }, () =>
        seedMember(env, { tier_id: tier, payment_status: "pending", amount_due_cents: 4000, referred_by_member_id: referrer.id }),
      ),
    );
    await Promise.all(newcomers.map((m) => markMemberPaid(ctx, { member_id: m.id, amount_cents: 4000 })));
    expect(await memberRow(env, referrer.id)).toMatchObject({ referral_count: 3, referral_credit_cents: 4000 });
  });
});
