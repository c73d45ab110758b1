// GET, POST /api/clubs/:club_id/tiers, PUT /api/clubs/:club_id/tiers/:tier_id
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { jobs, members, tiers } from "../../db/schema";
import { WALLET_PASS_UPDATE } from "../../lib/passes";
import { tierCounts } from "../../lib/tiers";
import { onPostgres } from "../databases";
import { sqlitePlan } from "../plans";
import { authCases } from "../auth-cases";
import { setup, type TestEnv } from "../helpers";
import { memberRow, seedMember } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const path = () => `/api/clubs/${env.clubId}/tiers`;
const tierRow = async (id: string) => (await env.db.read.select().from(tiers).where(eq(tiers.id, id)))[0];

describe("tiers", () => {
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/tiers`, scope: "members:view" });
  authCases(() => env, { method: "POST", path: (e) => `/api/clubs/${e.clubId}/tiers`, body: { name: "X", price_cents: 1 }, scope: "members:edit" });
  authCases(() => env, {
    method: "PUT",
    path: (e) => `/api/clubs/${e.clubId}/tiers/0190a0a0-0000-7000-8000-000000000000`,
    body: { name: "X" },
    scope: "members:edit",
  });

  it("creates a tier with the club's currency and duration by default", async () => {
    const res = await env.call("POST", path(), { body: { name: "Standard", price_cents: 5000 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Standard",
      price_cents: 5000,
      currency: "CHF",
      duration_months: 12,
      is_active: true,
      member_count: 0,
      description: null,
    });
    const row = await tierRow(res.body.id);
    expect(row.club_id).toBe(env.clubId);
    const custom = await env.call("POST", path(), {
      body: { name: "Jeune", price_cents: 2000, currency: "EUR", duration_months: 6, sort_order: 1, description: "Moins de 25 ans" },
    });
    expect(custom.body).toMatchObject({ currency: "EUR", duration_months: 6, sort_order: 1, description: "Moins de 25 ans" });
  });

  it("validates TierCreate (422): name and price_cents required", async () => {
    const before = (await env.db.read.select().from(tiers)).length;
    const res = await env.call("POST", path(), { body: { currency: "chf", duration_months: 0 } });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join("."));
    expect(locs).toEqual(expect.arrayContaining(["body.name", "body.price_cents", "body.currency", "body.duration_months"]));
    expect((await env.db.read.select().from(tiers)).length).toBe(before);
  });

  it.skipIf(onPostgres)("on SQLite, counts a tier's members in its index, not by reading every member of every club", () => {
    const ids = ["0190a0a0-0000-7000-8000-000000000001", "0190a0a0-0000-7000-8000-000000000002"];
    expect(sqlitePlan(env.db, tierCounts(env.db.read, ids))).toEqual(["SEARCH members USING COVERING INDEX members_tier_idx (tier_id=?)"]);
  });

  it("lists active tiers with member_count; soft-deleted ones only with include_inactive=true", async () => {
    const gold = await env.call("POST", path(), { body: { name: "Gold", price_cents: 9000, sort_order: 5 } });
    await seedMember(env, { tier_id: gold.body.id });
    await seedMember(env, { tier_id: gold.body.id, payment_status: "suspended" });
    const list = await env.call("GET", path());
    expect(list.status).toBe(200);
    expect(list.body.map((t: { name: string }) => t.name)).toEqual(["Standard", "Jeune", "Gold"]);
    expect(list.body.find((t: { name: string }) => t.name === "Gold").member_count).toBe(2);
    const del = await env.call("PUT", `${path()}/${gold.body.id}`, { body: { is_active: false } });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ is_active: false, name: "Gold", member_count: 2 });
    expect((await tierRow(gold.body.id)).is_active).toBe(false);
    expect((await env.call("GET", path())).body.map((t: { name: string }) => t.name)).toEqual(["Standard", "Jeune"]);
    expect((await env.call("GET", `${path()}?include_inactive=true`)).body.map((t: { name: string }) => t.name)).toEqual(["Standard", "Jeune", "Gold"]);
    expect((await env.call("GET", `${path()}?include_inactive=false`)).body).toHaveLength(2);
    expect((await env.call("GET", `${path()}?include_inactive=maybe`)).status).toBe(422);
  });

  it("lists by sort_order, whatever the order of creation", async () => {
    const other = await env.otherClub();
    const url = `/api/clubs/${other.club_id}/tiers`;
    for (const [name, sort_order] of [
      ["Third", 30],
      ["First", 10],
      ["Second", 20],
    ] as const) {
      expect((await env.call("POST", url, { key: other.api_key, body: { name, price_cents: 1, sort_order } })).status).toBe(201);
    }
    const list = await env.call("GET", url, { key: other.api_key });
    expect(list.body.map((t: { name: string }) => t.name)).toEqual(["First", "Second", "Third"]);
  });

  it("updates only the fields sent", async () => {
    const t = await env.call("POST", path(), { body: { name: "Famille", price_cents: 8000, description: "2 adultes" } });
    const before = await tierRow(t.body.id);
    const res = await env.call("PUT", `${path()}/${t.body.id}`, { body: { price_cents: 8500, name: null } });
    expect(res.status).toBe(200);
    const after = await tierRow(t.body.id);
    expect(after).toMatchObject({ price_cents: 8500, name: "Famille", description: "2 adultes", currency: before.currency });
    expect(after.updated_at).not.toBe(before.updated_at);
    expect((await env.call("PUT", `${path()}/${t.body.id}`, { body: { description: null } })).body.description).toBeNull();
    expect((await env.call("PUT", `${path()}/${t.body.id}`, { body: { price_cents: -1 } })).status).toBe(422);
    expect((await tierRow(t.body.id)).price_cents).toBe(8500);
  });

  it("a rename queues one wallet pass update for the tier's members; a change not shown on cards queues none", async () => {
    const passJobs = async () => (await env.db.read.select().from(jobs).where(eq(jobs.club_id, env.clubId))).filter((j) => j.kind === WALLET_PASS_UPDATE);
    const t = await env.call("POST", path(), { body: { name: "Argent", price_cents: 4000, description: "Soutien" } });
    const other = await env.call("POST", path(), { body: { name: "Bronze", price_cents: 1000 } });
    const a = await seedMember(env, { tier_id: t.body.id });
    const b = await seedMember(env, { tier_id: t.body.id, payment_status: "suspended", status_before_suspension: "paid" });
    const bystanders = [await seedMember(env, { tier_id: other.body.id }), await seedMember(env)];
    const before = await passJobs();

    for (const body of [{ description: "Pour nous soutenir" }, { price_cents: 4500, sort_order: 3 }, { name: "Argent" }]) {
      expect((await env.call("PUT", `${path()}/${t.body.id}`, { body })).status).toBe(200);
    }
    expect(await passJobs()).toEqual(before);

    const res = await env.call("PUT", `${path()}/${t.body.id}`, { body: { name: "Argent+" } });
    expect(res.status).toBe(200);
    const added = (await passJobs()).filter((j) => !before.some((o) => o.id === j.id));
    expect(added).toHaveLength(1);
    expect(added[0].payload.reason).toBe("tier");
    expect((added[0].payload.member_ids as string[]).sort()).toEqual([a.id, b.id].sort());
    for (const m of [a, b]) expect((await memberRow(env, m.id)).pass_updated_at).toBe(added[0].payload.at as string);
    for (const m of bystanders) expect((await memberRow(env, m.id)).pass_updated_at).toBe(m.pass_updated_at);
    expect((await env.db.read.select().from(members).where(eq(members.tier_id, t.body.id))).length).toBe(2);
  });

  it("another club's tier -> 404, unchanged; other clubs' tiers are not listed", async () => {
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/tiers`, { key: other.api_key, body: { name: "Theirs", price_cents: 1 } });
    const res = await env.call("PUT", `${path()}/${theirs.body.id}`, { body: { name: "Mine now" } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("TIER_NOT_FOUND");
    expect((await tierRow(theirs.body.id)).name).toBe("Theirs");
    expect((await env.call("GET", `${path()}?include_inactive=true`)).body.some((t: { name: string }) => t.name === "Theirs")).toBe(false);
  });
});
