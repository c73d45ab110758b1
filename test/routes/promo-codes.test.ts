// GET/POST /api/clubs/:club_id/promo-codes
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { promoCodes } from "../../db/schema";
import { authCases } from "../auth-cases";
import { createEventVia } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const path = () => `/api/clubs/${env.clubId}/promo-codes`;
const create = (body: Record<string, unknown>) => env.call("POST", path(), { body: { discount_type: "percent", discount_value: 10, ...body } });
const count = async () => (await env.db.read.select().from(promoCodes).where(eq(promoCodes.club_id, env.clubId))).length;

describe("promo codes: auth", () => {
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/promo-codes`, scope: "finances:view" });
  authCases(() => env, {
    method: "POST",
    path: (e) => `/api/clubs/${e.clubId}/promo-codes`,
    body: { code: "AUTH1", discount_type: "percent", discount_value: 5 },
    scope: "finances:edit",
  });
});

describe("POST /api/clubs/:club_id/promo-codes", () => {
  it("creates a code (201 PromoCodePublic) and stores it", async () => {
    const res = await create({ code: "Summer24", max_uses: 5, valid_until: "2030-01-01T00:00:00Z" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      code: "Summer24",
      discount_type: "percent",
      discount_value: 10,
      scope: "membership",
      used_count: 0,
      max_uses: 5,
      is_active: true,
      event_id: null,
      valid_until: "2030-01-01T00:00:00.000Z",
    });
    const [row] = await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, res.body.id));
    expect(row.code_key).toBe("SUMMER24");
    expect(row.club_id).toBe(env.clubId);
  });

  it("code length 4..30 (422 outside)", async () => {
    const before = await count();
    expect((await create({ code: "ABC" })).status).toBe(422);
    expect((await create({ code: "A".repeat(31) })).status).toBe(422);
    expect(await count()).toBe(before);
    expect((await create({ code: "ABCD" })).status).toBe(201);
    expect((await create({ code: "B".repeat(30) })).status).toBe(201);
  });

  it("discount_value > 0; percent at most 100; currency at most 3 characters (422)", async () => {
    const before = await count();
    expect((await create({ code: "ZERO0", discount_value: 0 })).status).toBe(422);
    expect((await create({ code: "NEG00", discount_value: -5 })).status).toBe(422);
    const over = await create({ code: "OVER1", discount_value: 101 });
    expect(over.status).toBe(422);
    expect(over.body.detail[0]).toMatchObject({ loc: ["body", "discount_value"], type: "promo_percent_max" });
    expect((await create({ code: "CURR1", discount_type: "amount", discount_value: 500, currency: "CHFX" })).status).toBe(422);
    expect((await create({ code: "TYPE1", discount_type: "free" })).status).toBe(422);
    expect(await count()).toBe(before);
    expect((await create({ code: "FULL1", discount_value: 100 })).status).toBe(201);
    expect((await create({ code: "AMNT1", discount_type: "amount", discount_value: 5000, currency: "CHF" })).status).toBe(201);
  });

  it("is unique in the club whatever the case (409), but another club may use it", async () => {
    expect((await create({ code: "Unique1" })).status).toBe(201);
    const before = await count();
    const dup = await create({ code: "UNIQUE1" });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("PROMO_CODE_TAKEN");
    expect(await count()).toBe(before);
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/promo-codes`, {
      key: other.api_key,
      body: { code: "unique1", discount_type: "percent", discount_value: 5 },
    });
    expect(theirs.status).toBe(201);
  });

  it("an event code takes the event scope; another club's event is a 404; membership scope with an event is a 422", async () => {
    const e = await createEventVia(env);
    const res = await create({ code: "EVENT01", event_id: e.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ scope: "event", event_id: e.id });
    expect((await create({ code: "EVENT02", event_id: e.id, scope: "membership" })).status).toBe(422);
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/events`, {
      key: other.api_key,
      body: { title: "T", starts_at: "2030-01-01T00:00:00Z" },
    });
    const bad = await create({ code: "EVENT03", event_id: theirs.body.id });
    expect(bad.status).toBe(404);
    expect(bad.body.code).toBe("EVENT_NOT_FOUND");
  });

  it("applies_to_tier_ids belongs to membership codes: kept on one, a 422 on an event code (which would never honour it)", async () => {
    const tier = await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Junior", price_cents: 3000 } });
    const membership = await create({ code: "JUNIOR10", applies_to_tier_ids: [tier.body.id] });
    expect(membership.status).toBe(201);
    expect(membership.body).toMatchObject({ scope: "membership", applies_to_tier_ids: [tier.body.id] });
    const e = await createEventVia(env);
    const before = await count();
    for (const body of [
      { code: "JUNEVT1", event_id: e.id, applies_to_tier_ids: [tier.body.id] },
      { code: "JUNEVT2", scope: "event", applies_to_tier_ids: [tier.body.id] },
    ]) {
      const res = await create(body);
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ["body", "applies_to_tier_ids"], type: "promo_tiers_membership_only" });
    }
    expect(await count()).toBe(before);
    expect((await create({ code: "JUNEVT3", event_id: e.id, applies_to_tier_ids: [] })).status).toBe(201);
  });

  it("valid_until must be after valid_from (422)", async () => {
    expect((await create({ code: "DATES1", valid_from: "2030-01-02T00:00:00Z", valid_until: "2030-01-01T00:00:00Z" })).status).toBe(422);
  });
});

describe("GET /api/clubs/:club_id/promo-codes", () => {
  it("lists only the caller's club's codes, even filtered by another club's event", async () => {
    const other = await env.otherClub();
    const theirEvent = await env.call("POST", `/api/clubs/${other.club_id}/events`, {
      key: other.api_key,
      body: { title: "Theirs", starts_at: "2030-01-01T00:00:00Z" },
    });
    for (const body of [{ code: "THEIRS1" }, { code: "THEIRS2", event_id: theirEvent.body.id }]) {
      const made = await env.call("POST", `/api/clubs/${other.club_id}/promo-codes`, {
        key: other.api_key,
        body: { discount_type: "percent", discount_value: 5, ...body },
      });
      expect(made.status).toBe(201);
    }
    await create({ code: "OURS0001" });
    const ours = await env.call("GET", path());
    const codes = ours.body.map((p: { code: string }) => p.code);
    expect(codes).toContain("OURS0001");
    expect(codes.filter((c: string) => c.startsWith("THEIRS"))).toEqual([]);
    expect(ours.body).toHaveLength(await count());
    expect((await env.call("GET", `${path()}?event_id=${theirEvent.body.id}`)).body).toEqual([]);
    const theirs = await env.call("GET", `/api/clubs/${other.club_id}/promo-codes`, { key: other.api_key });
    expect(theirs.body.map((p: { code: string }) => p.code).sort()).toEqual(["THEIRS1", "THEIRS2"]);
  });

  it("filters by event_id, scope and include_inactive (default true)", async () => {
    const fresh = await setup();
    try {
      const e = await fresh.call("POST", `/api/clubs/${fresh.clubId}/events`, { body: { title: "E", starts_at: "2030-01-01T00:00:00Z" } });
      const mk = (body: Record<string, unknown>) =>
        fresh.call("POST", `/api/clubs/${fresh.clubId}/promo-codes`, { body: { discount_type: "amount", discount_value: 100, ...body } });
      await mk({ code: "MEMB1" });
      await mk({ code: "MEMB2", is_active: false });
      await mk({ code: "EVNT1", event_id: e.body.id });
      await mk({ code: "EVNT2", scope: "event" });
      const list = async (q: string) => (await fresh.call("GET", `/api/clubs/${fresh.clubId}/promo-codes${q}`)).body.map((p: { code: string }) => p.code);
      expect(await list("")).toEqual(["MEMB1", "MEMB2", "EVNT1", "EVNT2"]);
      expect(await list("?include_inactive=false")).toEqual(["MEMB1", "EVNT1", "EVNT2"]);
      expect(await list("?scope=membership")).toEqual(["MEMB1", "MEMB2"]);
      expect(await list("?scope=event")).toEqual(["EVNT1", "EVNT2"]);
      expect(await list(`?event_id=${e.body.id}`)).toEqual(["EVNT1"]);
      expect((await fresh.call("GET", `/api/clubs/${fresh.clubId}/promo-codes?scope=bogus`)).status).toBe(422);
    } finally {
      await fresh.close();
    }
  });
});
