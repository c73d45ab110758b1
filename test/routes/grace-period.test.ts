// The club's grace_period_days (DESIGN.md section 14) in every place that shows a member's status:
// the member item and the list (filter, status sort), verify, the web card, the stats. One rule
// (lib/members/status `statusDay`): a member stays `active` that many days past the end.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { addDays, seedMember, todayUtc } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const grace = (days: number) => env.db.tx((t) => t.update(clubs).set({ grace_period_days: days }).where(eq(clubs.id, env.clubId)));

/** Every place's status of `m`, as the API and the card show it. */
async function everywhere(m: { id: string; pass_serial_number: string }) {
  const item = await env.call("GET", `/api/clubs/${env.clubId}/members/${m.id}`);
  const active = await env.call("GET", `/api/clubs/${env.clubId}/members?status=active&limit=1000`);
  const expired = await env.call("GET", `/api/clubs/${env.clubId}/members?status=expired&limit=1000`);
  const verify = await env.call("GET", `/api/verify/${m.pass_serial_number}`);
  const card = await env.call("GET", `/c/${m.pass_serial_number}`, { key: null });
  const stats = await env.call("GET", `/api/clubs/${env.clubId}/stats`);
  return {
    item: item.body.status,
    inActive: active.body.items.some((i: { id: string }) => i.id === m.id),
    inExpired: expired.body.items.some((i: { id: string }) => i.id === m.id),
    verify: verify.body.status,
    valid: verify.body.valid,
    card: /status status-(\w+)/.exec(card.text)?.[1],
    stats: { active: stats.body.members.active, expired: stats.body.members.expired },
  };
}

describe("grace_period_days", () => {
  it("keeps a member active that many days past the end, everywhere, and expired the day after", async () => {
    const m = await seedMember(env, { membership_end: addDays(todayUtc(), -3) });
    await grace(0);
    expect(await everywhere(m)).toEqual({
      item: "expired",
      inActive: false,
      inExpired: true,
      verify: "expired",
      valid: false,
      card: "expired",
      stats: { active: 0, expired: 1 },
    });
    await grace(3);
    expect(await everywhere(m)).toEqual({
      item: "active",
      inActive: true,
      inExpired: false,
      verify: "active",
      valid: true,
      card: "active",
      stats: { active: 1, expired: 0 },
    });
    await grace(2);
    expect(await everywhere(m)).toEqual({
      item: "expired",
      inActive: false,
      inExpired: true,
      verify: "expired",
      valid: false,
      card: "expired",
      stats: { active: 0, expired: 1 },
    });
  });

  it("does not make a suspended member active", async () => {
    await grace(30);
    const m = await seedMember(env, { membership_end: addDays(todayUtc(), -3), payment_status: "suspended" });
    const item = await env.call("GET", `/api/clubs/${env.clubId}/members/${m.id}`);
    expect(item.body.status).toBe("suspended");
  });
});
