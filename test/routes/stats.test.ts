// GET /api/clubs/:club_id/stats, and lib/stats at month boundaries (UTC) with a fixed clock
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import type { Caller } from "../../lib/access";
import { type Ctx, siteOf } from "../../lib/context";
import { clubStats } from "../../lib/stats";
import { authCases } from "../auth-cases";
import { createEventVia, insertMember, insertPayment, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { refusalOf } from "../refusal";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

function ctxOf(e: TestEnv, scopes: Caller["scopes"] = e.allEdit): Ctx {
  const actor: Caller = {
    kind: "key",
    adminId: e.adminId,
    clubId: e.clubId,
    locale: "fr",
    scopes,
    readOnly: false,
    isSuperadmin: false,
    keyId: null,
    keyPrefix: null,
  };
  return { db: e.db, actor, clubId: e.clubId, locale: "fr", ...siteOf(e.config) };
}

describe("GET /api/clubs/:club_id/stats", () => {
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/stats`, scope: "finances:view" });

  it("counts members by derived status and sums this month's and all-time payments", async () => {
    const now = new Date();
    const past = new Date(now.getTime() - 3 * 86_400_000).toISOString().slice(0, 10);
    const future = new Date(now.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
    const lastYear = new Date(Date.UTC(now.getUTCFullYear() - 1, 5, 15)).toISOString();
    await insertMember(env, { paymentStatus: "paid", end: future });
    await insertMember(env, { paymentStatus: "paid", end: future, createdAt: lastYear });
    await insertMember(env, { paymentStatus: "paid", end: past, createdAt: lastYear });
    await insertMember(env, { paymentStatus: "pending", end: future });
    await insertMember(env, { paymentStatus: "pending", end: past, createdAt: lastYear });
    await insertMember(env, { paymentStatus: "suspended", end: future });
    const other = await env.otherClub();
    await insertMember(env, { clubId: other.club_id });
    await insertPayment(env, { clubId: other.club_id, kind: "membership", amount: 99999, paidAt: now.toISOString() });

    const e = await createEventVia(env, { tickets: [{ name: "T", non_member_price_cents: 3000 }] });
    const reg = await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[0].id, amount: 3000 });
    await insertPayment(env, { kind: "membership", amount: 5000, paidAt: now.toISOString() });
    await insertPayment(env, { kind: "membership", amount: 10000, fee: 320, commission: 200, paidAt: now.toISOString() });
    await insertPayment(env, { kind: "event", amount: 3000, fee: 100, commission: 60, registrationId: reg.id, paidAt: now.toISOString() });
    await insertPayment(env, { kind: "membership", amount: 7000, fee: 210, commission: 0, paidAt: lastYear });

    const res = await env.call("GET", `/api/clubs/${env.clubId}/stats`);
    expect(res.status).toBe(200);
    expect(res.body.currency).toBe("CHF");
    expect(res.body.members).toEqual({ total: 6, active: 2, expired: 2, pending: 1, suspended: 1, new_this_month: 3 });
    expect(res.body.revenue.this_month).toEqual({
      gross_cents: 18000,
      provider_fees_cents: 420,
      platform_commission_cents: 260,
      net_cents: 17320,
      memberships_cents: 15000,
      events_cents: 3000,
    });
    expect(res.body.revenue.all_time).toEqual({
      gross_cents: 25000,
      provider_fees_cents: 630,
      platform_commission_cents: 260,
      net_cents: 24110,
      memberships_cents: 22000,
      events_cents: 3000,
    });
  });

  it("splits months exactly at UTC midnight of the first day", async () => {
    const e = await setup();
    try {
      await insertPayment(e, { kind: "membership", amount: 100, paidAt: "2030-02-28T23:59:59.999Z" });
      await insertPayment(e, { kind: "event", amount: 40, paidAt: "2030-03-01T00:00:00.000Z" });
      await insertMember(e, { createdAt: "2030-02-28T23:59:59.999Z", end: "2031-01-01" });
      await insertMember(e, { createdAt: "2030-03-01T00:00:00.000Z", end: "2031-01-01" });

      const feb = await clubStats(ctxOf(e), { now: new Date("2030-02-28T23:59:59.999Z") });
      expect(feb.revenue.this_month.gross_cents).toBe(100);
      expect(feb.revenue.this_month.memberships_cents).toBe(100);
      expect(feb.revenue.this_month.events_cents).toBe(0);
      expect(feb.members.new_this_month).toBe(1);

      const mar = await clubStats(ctxOf(e), { now: new Date("2030-03-01T00:00:00.000Z") });
      expect(mar.revenue.this_month.gross_cents).toBe(40);
      expect(mar.revenue.this_month.events_cents).toBe(40);
      expect(mar.members.new_this_month).toBe(1);
      expect(mar.revenue.all_time.gross_cents).toBe(140);

      // December -> January crosses the year.
      await insertPayment(e, { kind: "membership", amount: 7, paidAt: "2030-12-31T23:59:59.999Z" });
      await insertPayment(e, { kind: "membership", amount: 9, paidAt: "2031-01-01T00:00:00.000Z" });
      expect((await clubStats(ctxOf(e), { now: new Date("2030-12-15T00:00:00Z") })).revenue.this_month.gross_cents).toBe(7);
      expect((await clubStats(ctxOf(e), { now: new Date("2031-01-31T23:59:59.999Z") })).revenue.this_month.gross_cents).toBe(9);
      // A membership ending on the day is still active that day, expired the next (UTC).
      expect((await clubStats(ctxOf(e), { now: new Date("2031-01-01T23:59:59.999Z") })).members.active).toBe(2);
      expect((await clubStats(ctxOf(e), { now: new Date("2031-01-02T00:00:00.000Z") })).members.expired).toBe(2);
    } finally {
      await e.close();
    }
  });

  it("the verb itself refuses a caller without finances:view", async () => {
    expect(await refusalOf(clubStats(ctxOf(env, { members: "edit" }), {}))).toMatchObject({ code: "SCOPE_MISSING" });
  });
});
