// GET /api/clubs/:club_id/members, POST .../members/manual, POST .../members/:member_id/actions/*
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, memberHistory, members, payments } from "../../db/schema";
import { codeSource } from "../../lib/members/internal";
import { authCases } from "../auth-cases";
import { setup, type TestEnv } from "../helpers";
import { addDays, historyOf, memberRow, paymentsOf, seedMember, todayUtc } from "../members-fixtures";
import { addMonths, periodEnd } from "../members-dates";
import { sha256Hex } from "../../lib/ids";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const base = () => `/api/clubs/${env.clubId}/members`;
const today = todayUtc();

describe("GET /api/clubs/:club_id/members", () => {
  let list: TestEnv;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    list = await setup();
    const mk = async (name: string, over: Parameters<typeof seedMember>[1]) => {
      ids[name] = (await seedMember(list, over)).id;
    };
    await mk("active", { first_name: "Élodie", last_name: "Zürcher", email: "elodie@test.org", created_at: "2024-01-01T00:00:00.000Z" });
    await mk("expired", {
      first_name: "Bruno",
      last_name: "Aebi",
      email: "bruno@test.org",
      membership_end: addDays(today, -1),
      created_at: "2024-01-02T00:00:00.000Z",
    });
    await mk("pending", {
      first_name: "Carla",
      last_name: "Meier",
      email: "carla@test.org",
      payment_status: "pending",
      created_at: "2024-01-03T00:00:00.000Z",
    });
    await mk("suspended", {
      first_name: "Łukasz",
      last_name: "Żółć",
      email: "lukasz@test.org",
      payment_status: "suspended",
      status_before_suspension: "paid",
      membership_end: addDays(today, -10),
      created_at: "2024-01-04T00:00:00.000Z",
    });
    await mk("endsToday", { first_name: "Dora", last_name: "Berger", email: "dora@test.org", membership_end: today, created_at: "2024-01-05T00:00:00.000Z" });
  });
  afterAll(() => list.close());
  const get = async (qs: string, key?: string) => list.call("GET", `/api/clubs/${list.clubId}/members${qs}`, { key });
  const names = (res: { body: { items: { first_name: string }[] } }) => res.body.items.map((i) => i.first_name);

  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/members`, scope: "members:view" });

  it("lists every member, newest first, with derived status and names", async () => {
    const res = await get("");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, page: 1, limit: 50 });
    expect(names(res)).toEqual(["Dora", "Łukasz", "Carla", "Bruno", "Élodie"]);
    const byName = Object.fromEntries(res.body.items.map((i: { first_name: string; status: string }) => [i.first_name, i.status]));
    expect(byName).toEqual({ Dora: "active", Łukasz: "suspended", Carla: "pending", Bruno: "expired", Élodie: "active" });
    const item = res.body.items[0];
    expect(item.referral_code).toMatch(/^[3467ACDEFGHJKMNPQRTUVWXY9]{8}$/);
    expect(item).toHaveProperty("tier_name", null);
    expect(item).toHaveProperty("pending_tier_name", null);
    expect(item).toHaveProperty("referred_by_name", null);
    expect(item).not.toHaveProperty("search_text");
    expect(item).not.toHaveProperty("club_id");
  });

  it("filters by each status (a member ending today is still active)", async () => {
    expect(names(await get("?status=active")).sort()).toEqual(["Dora", "Élodie"]);
    expect(names(await get("?status=expired"))).toEqual(["Bruno"]);
    expect(names(await get("?status=pending"))).toEqual(["Carla"]);
    expect(names(await get("?status=suspended"))).toEqual(["Łukasz"]);
    expect((await get("?status=all")).body.total).toBe(5);
    expect((await get("?status=active")).body.total).toBe(2);
    expect((await get("?status=gone")).status).toBe(422);
  });

  it("searches name, email and referral code, ignoring accents and case", async () => {
    expect(names(await get("?search=elodie"))).toEqual(["Élodie"]);
    expect(names(await get("?search=ZURCHER"))).toEqual(["Élodie"]);
    expect(names(await get("?search=zolc"))).toEqual(["Łukasz"]);
    expect(names(await get("?search=Żółć"))).toEqual(["Łukasz"]);
    expect(names(await get("?search=carla%40test"))).toEqual(["Carla"]);
    const code = (await memberRow(list, ids.pending)).referral_code;
    expect(names(await get(`?search=${code.toLowerCase()}`))).toEqual(["Carla"]);
    expect((await get("?search=%25")).body.total).toBe(0);
    expect((await get("?search=nobody")).body.total).toBe(0);
  });

  it("sorts by registered, name, email, membership_end and status, both ways", async () => {
    expect(names(await get("?sort=registered&dir=asc"))).toEqual(["Élodie", "Bruno", "Carla", "Łukasz", "Dora"]);
    // Alphabetical as a person reads it: Żółć (zolc) before Zürcher (zurcher), accents and case aside.
    expect(names(await get("?sort=name&dir=asc"))).toEqual(["Bruno", "Dora", "Carla", "Łukasz", "Élodie"]);
    expect(names(await get("?sort=name&dir=desc"))).toEqual(["Élodie", "Łukasz", "Carla", "Dora", "Bruno"]);
    const sorted = (await get("?sort=name&dir=asc&limit=1000")).body.items.map((i: { last_name: string }) => i.last_name);
    expect(sorted).toEqual([...sorted].sort(new Intl.Collator("fr", { sensitivity: "base" }).compare));
    expect(names(await get("?sort=email&dir=asc"))).toEqual(["Bruno", "Carla", "Dora", "Élodie", "Łukasz"]);
    // Same end: ties go by id (insertion order here).
    expect(names(await get("?sort=membership_end&dir=asc"))).toEqual(["Łukasz", "Bruno", "Dora", "Élodie", "Carla"]);
    expect(names(await get("?sort=membership_end&dir=desc"))).toEqual(["Carla", "Élodie", "Dora", "Bruno", "Łukasz"]);
    const statuses = (await get("?sort=status&dir=asc")).body.items.map((i: { status: string }) => i.status);
    expect(statuses).toEqual(["active", "active", "expired", "pending", "suspended"]);
    expect((await get("?sort=age")).status).toBe(422);
    expect((await get("?dir=up")).status).toBe(422);
  });

  it("pages with limit or page_size, echoes page and limit, and checks the bounds", async () => {
    const p2 = await get("?sort=registered&dir=asc&limit=2&page=2");
    expect(p2.body).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(names(p2)).toEqual(["Carla", "Łukasz"]);
    const ps = await get("?sort=registered&dir=asc&page_size=3&page=2");
    expect(ps.body).toMatchObject({ page: 2, limit: 3 });
    expect(names(ps)).toEqual(["Łukasz", "Dora"]);
    expect((await get("?limit=1000")).body.limit).toBe(1000);
    expect((await get("?limit=1")).body.items).toHaveLength(1);
    for (const bad of ["?limit=0", "?limit=1001", "?page=0", "?page_size=0", "?page_size=1001", "?page=abc"]) {
      const res = await get(bad);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.detail[0].loc[0]).toBe("query");
    }
  });

  it("shows a tier's new name and the club's new grace period on a search asked again (the club's terms kept per members version)", async () => {
    const club = `/api/clubs/${list.clubId}`;
    const copper = await list.call("POST", `${club}/tiers`, { body: { name: "Copper", price_cents: 100 } });
    const m = await seedMember(list, { first_name: "Termed", email: "termed@test.org", tier_id: copper.body.id, membership_end: addDays(today, -3) });
    const item = async () => (await get("?search=termed%40test.org")).body.items[0];
    try {
      expect(await item()).toMatchObject({ id: m.id, tier_name: "Copper", status: "expired" });
      expect(await item()).toMatchObject({ tier_name: "Copper", status: "expired" });
      // Neither write touches a member: the members version moves by the tier's and the club's triggers.
      expect((await list.call("PUT", `${club}/tiers/${copper.body.id}`, { body: { name: "Brass" } })).status).toBe(200);
      expect(await item()).toMatchObject({ tier_name: "Brass", status: "expired" });
      expect((await list.call("PUT", club, { body: { grace_period_days: 30 } })).status).toBe(200);
      expect(await item()).toMatchObject({ tier_name: "Brass", status: "active" });
    } finally {
      expect((await list.call("PUT", club, { body: { grace_period_days: 0 } })).status).toBe(200);
      await list.db.tx((t) => t.delete(members).where(eq(members.id, m.id)));
    }
  });

  it("names the member's tier, pending tier and referrer in the item", async () => {
    const gold = await list.call("POST", `/api/clubs/${list.clubId}/tiers`, { body: { name: "Gold", price_cents: 100 } });
    const silver = await list.call("POST", `/api/clubs/${list.clubId}/tiers`, { body: { name: "Silver", price_cents: 50 } });
    const m = await seedMember(list, {
      first_name: "Tiered",
      email: "tiered@test.org",
      tier_id: gold.body.id,
      pending_tier_id: silver.body.id,
      referred_by_member_id: ids.active,
    });
    try {
      const [item] = (await get("?search=tiered%40test.org")).body.items;
      expect(item).toMatchObject({ id: m.id, tier_id: gold.body.id, tier_name: "Gold", pending_tier_name: "Silver", referred_by_name: "Élodie Zürcher" });
    } finally {
      await list.db.tx((t) => t.delete(members).where(eq(members.id, m.id)));
    }
  });

  it("takes limit over page_size when both are sent", async () => {
    const res = await get("?sort=registered&dir=asc&limit=2&page_size=3");
    expect(res.body).toMatchObject({ total: 5, page: 1, limit: 2 });
    expect(names(res)).toEqual(["Élodie", "Bruno"]);
    expect((await get("?sort=registered&dir=asc&page_size=3&limit=2")).body.items).toHaveLength(2);
  });

  it("shows only the caller's club", async () => {
    const other = await list.otherClub();
    await seedMember(list, { first_name: "Other" }, other.club_id);
    expect((await get("")).body.total).toBe(5);
  });
});

describe("POST /api/clubs/:club_id/members/manual", () => {
  const body = { first_name: "Jeanne", last_name: "Dupont", email: "Jeanne.Dupont@Test.org", membership_end: addDays(today, 365) };
  authCases(() => env, { method: "POST", path: (e) => `/api/clubs/${e.clubId}/members/manual`, body, scope: "members:edit" });

  it("creates a paid, manual member starting today, with wallet URLs and a history row", async () => {
    const res = await env.call("POST", `${base()}/manual`, { body: { ...body, custom_fields: { licence: "A-12" } } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      first_name: "Jeanne",
      email: "jeanne.dupont@test.org",
      payment_status: "paid",
      status: "active",
      is_manual: true,
      membership_start: today,
    });
    expect(res.body.wallet_urls).toEqual({ apple: null, google: null, web: `http://localhost/c/${res.body.pass_serial_number}` });
    const row = await memberRow(env, res.body.id);
    expect(row.club_id).toBe(env.clubId);
    expect(row.membership_end).toBe(body.membership_end);
    expect(row.search_text).toContain("jeanne dupont jeanne.dupont@test.org");
    expect(row.custom_fields).toEqual({ licence: "A-12" });
    // The page's token is in this answer only; the row keeps its hash, and a read says null.
    expect(res.body.manage_token).toHaveLength(32);
    expect(row.manage_token).toBe(sha256Hex(res.body.manage_token));
    expect((await env.call("GET", `${base()}/${res.body.id}`)).body.manage_token).toBeNull();
    const history = await historyOf(env, res.body.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ action: "manual_create", to_status: "paid", admin_id: env.adminId });
    expect(await paymentsOf(env, res.body.id)).toHaveLength(0);
  });

  it("refuses a duplicate email in the club (409, any case), and writes nothing", async () => {
    const before = (await env.db.read.select().from(members)).length;
    const res = await env.call("POST", `${base()}/manual`, { body: { ...body, email: "JEANNE.dupont@test.org" } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("MEMBER_EMAIL_TAKEN");
    expect(res.body.detail).toContain("jeanne.dupont@test.org");
    expect((await env.db.read.select().from(members)).length).toBe(before);
  });

  it("accepts the same email in another club", async () => {
    const other = await env.otherClub();
    const res = await env.call("POST", `/api/clubs/${other.club_id}/members/manual`, { key: other.api_key, body });
    expect(res.status).toBe(201);
  });

  it("keeps joined_at as the registration date and validates the payload", async () => {
    const res = await env.call("POST", `${base()}/manual`, { body: { ...body, email: "joined@test.org", joined_at: "2020-05-01" } });
    expect(res.body.created_at).toBe("2020-05-01T00:00:00.000Z");
    const bad = await env.call("POST", `${base()}/manual`, { body: { first_name: "", email: "nope", membership_end: "31.12.2030" } });
    expect(bad.status).toBe(422);
    const locs = bad.body.detail.map((d: { loc: string[] }) => d.loc.join("."));
    expect(locs).toEqual(expect.arrayContaining(["body.first_name", "body.last_name", "body.email", "body.membership_end"]));
  });

  it("refuses an end before today, the membership's start (422 on body.membership_end), and writes nothing; today itself is a one-day membership", async () => {
    const before = await env.db.read.select().from(members);
    const res = await env.call("POST", `${base()}/manual`, { body: { ...body, email: "past@test.org", membership_end: addDays(today, -1) } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.detail).toEqual([
      {
        loc: ["body", "membership_end"],
        type: "membership_end_before_start",
        msg: `La fin d'adhésion (${addDays(today, -1)}) ne peut pas précéder son début (${today}).`,
      },
    ]);
    expect(await env.db.read.select().from(members)).toEqual(before);
    const same = await env.call("POST", `${base()}/manual`, { body: { ...body, email: "oneday@test.org", membership_end: today } });
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({ membership_start: today, membership_end: today, status: "active" });
  });

  it("draws the referral code again when the one drawn is already a member's of the club", async () => {
    const holder = await seedMember(env, { referral_code: "KX7RT4QP" });
    const draws = ["KX7RT4QP", "KX7RT4QP", "M3NP9CDE"];
    const draw = codeSource.referral;
    codeSource.referral = () => draws.shift() ?? draw();
    try {
      const res = await env.call("POST", `${base()}/manual`, { body: { ...body, email: "collision@test.org" } });
      expect(res.status).toBe(201);
      expect(res.body.referral_code).toBe("M3NP9CDE");
      const row = await memberRow(env, res.body.id);
      expect(row.referral_code).toBe("M3NP9CDE");
      expect(row.search_text).toContain("m3np9cde");
    } finally {
      codeSource.referral = draw;
    }
    expect(draws).toEqual([]);
    expect((await memberRow(env, holder.id)).referral_code).toBe("KX7RT4QP");
  });

  it("stores the tier given, and names it in the answer", async () => {
    const tier = await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Bronze", price_cents: 100 } });
    const res = await env.call("POST", `${base()}/manual`, { body: { ...body, email: "bronze@test.org", tier_id: tier.body.id } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tier_id: tier.body.id, tier_name: "Bronze" });
    expect((await memberRow(env, res.body.id)).tier_id).toBe(tier.body.id);
  });

  it("answers the member as a read of it shows it (tier, custom fields, registration date, a club with a grace period), with the page's token and wallet URLs beside", async () => {
    // The answer is made from the row written, not read back (lib/members addMember).
    const other = await env.otherClub();
    const key = other.api_key;
    expect((await env.call("PUT", `/api/clubs/${other.club_id}`, { key, body: { grace_period_days: 30 } })).status).toBe(200);
    const tier = await env.call("POST", `/api/clubs/${other.club_id}/tiers`, { key, body: { name: "Argent", price_cents: 100 } });
    for (const extra of [{}, { tier_id: tier.body.id, custom_fields: { licence: "B-7", n: 3 }, joined_at: "2021-03-04" }, { membership_end: today }]) {
      const res = await env.call("POST", `/api/clubs/${other.club_id}/members/manual`, {
        key,
        body: { ...body, email: `read-${Object.keys(extra).length}@test.org`, ...extra },
      });
      expect(res.status).toBe(201);
      const read = await env.call("GET", `/api/clubs/${other.club_id}/members/${res.body.id}`, { key });
      const { manage_token, wallet_urls, ...answer } = res.body;
      expect(manage_token).toHaveLength(32);
      expect(wallet_urls.web).toBe(`http://localhost/c/${res.body.pass_serial_number}`);
      expect({ ...answer, manage_token: null }).toEqual(read.body);
    }
  });

  it("refuses another club's tier with 404", async () => {
    const other = await env.otherClub();
    const tier = await env.call("POST", `/api/clubs/${other.club_id}/tiers`, { key: other.api_key, body: { name: "Gold", price_cents: 100 } });
    const res = await env.call("POST", `${base()}/manual`, { body: { ...body, email: "tier@test.org", tier_id: tier.body.id } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("TIER_NOT_FOUND");
  });
});

describe("member actions", () => {
  const act = (id: string, action: string, body: unknown = {}, key?: string) => env.call("POST", `${base()}/${id}/actions/${action}`, { body, key });
  const fakeId = "0190a0a0-0000-7000-8000-000000000000";
  for (const [action, scope, body] of [
    ["extend", "members:edit", {}],
    ["mark-paid", "finances:edit", { amount_cents: 100 }],
    ["suspend", "members:edit", {}],
    ["reactivate", "members:edit", {}],
    ["cancel-subscription", "finances:edit", {}],
  ] as const) {
    authCases(() => env, { method: "POST", path: (e) => `/api/clubs/${e.clubId}/members/${fakeId}/actions/${action}`, body, scope });
    it(`${action}: another club's member -> 404, unchanged`, async () => {
      const other = await env.otherClub();
      const m = await seedMember(env, { payment_status: action === "reactivate" ? "suspended" : "paid", payment_mode: "subscription" }, other.club_id);
      const res = await act(m.id, action, body);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("MEMBER_NOT_FOUND");
      expect(await memberRow(env, m.id)).toEqual(m);
      expect(await historyOf(env, m.id)).toHaveLength(0);
    });
  }

  describe("extend", () => {
    it("to extend_until", async () => {
      const m = await seedMember(env, { membership_end: "2030-01-31" });
      const res = await act(m.id, "extend", { extend_until: "2030-06-30", reason: "geste" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: m.id, membership_end: "2030-06-30", status: "active" });
      expect((await memberRow(env, m.id)).membership_end).toBe("2030-06-30");
      const [h] = await historyOf(env, m.id);
      expect(h).toMatchObject({ action: "extend", from_end: "2030-01-31", to_end: "2030-06-30", reason: "geste", from_status: "paid", to_status: "paid" });
    });

    it("refuses extend_until not later than the end (422) and extend_months < 1, changing nothing", async () => {
      const m = await seedMember(env, { membership_end: "2030-01-31" });
      for (const body of [
        { extend_until: "2030-01-31" },
        { extend_until: "2029-01-01" },
        { extend_months: 0 },
        { extend_months: 2, extend_until: "2031-01-01" },
      ]) {
        const res = await act(m.id, "extend", body);
        expect(res.status).toBe(422);
      }
      const res = await act(m.id, "extend", { extend_until: "2030-01-01" });
      expect(res.body.detail[0].loc).toEqual(["body", "extend_until"]);
      expect(res.body.detail[0].msg).toContain("2030-01-31");
      expect(await memberRow(env, m.id)).toEqual(m);
      expect(await historyOf(env, m.id)).toHaveLength(0);
    });

    it("by extend_months, from the end (clamped) or from today when expired", async () => {
      const m = await seedMember(env, { membership_end: "2030-01-31" });
      expect((await act(m.id, "extend", { extend_months: 1 })).body.membership_end).toBe("2030-02-28");
      const expired = await seedMember(env, { membership_end: "2020-01-01" });
      const res = await act(expired.id, "extend", { extend_months: 3 });
      expect(res.body.membership_end).toBe(periodEnd(today, 3));
      expect(res.body.status).toBe("active");
    });

    it("is documented without a 409: extend refuses no state (DESIGN 6), only bad input (422)", async () => {
      const spec = (await env.call("GET", "/api/public/openapi.json", { key: null })).body;
      const actions = "/api/clubs/{club_id}/members/{member_id}/actions";
      // Its only 409 is an Idempotency-Key's, still running (every keyed write may answer it).
      expect(spec.paths[`${actions}/extend`].post.responses["409"].description).toStartWith("`IDEMPOTENCY_KEY_IN_USE`");
      expect(spec.paths[`${actions}/extend`].post.responses["422"]).toBeDefined();
      expect(spec.paths[`${actions}/suspend`].post.responses["409"]).toBeDefined();
      // Any state is extended, a suspended member too (it stays suspended).
      const s = await seedMember(env, { payment_status: "suspended", status_before_suspension: "paid", membership_end: "2030-01-01" });
      expect((await act(s.id, "extend", { extend_until: "2030-02-01" })).body).toMatchObject({ payment_status: "suspended", membership_end: "2030-02-01" });
    });

    it("by one period of the tier, else of the club", async () => {
      const tier = await env.call("POST", `${base().replace("/members", "")}/tiers`, { body: { name: "Trimestre", price_cents: 1000, duration_months: 3 } });
      const withTier = await seedMember(env, { membership_end: "2030-01-15", tier_id: tier.body.id });
      expect((await act(withTier.id, "extend", {})).body.membership_end).toBe("2030-04-15");
      const plain = await seedMember(env, { membership_end: "2030-01-15" });
      expect((await act(plain.id, "extend")).body.membership_end).toBe("2031-01-15");
    });
  });

  describe("mark-paid", () => {
    it("pending -> paid with a new period from today, a manual payment without fee, and history", async () => {
      const m = await seedMember(env, { payment_status: "pending", membership_start: "2020-01-01", membership_end: addDays(today, 5) });
      const res = await act(m.id, "mark-paid", { amount_cents: 5000, reason: "virement reçu" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        payment_status: "paid",
        status: "active",
        membership_start: today,
        membership_end: periodEnd(today, 12),
        payment_method: "bank_transfer",
      });
      const [p] = await paymentsOf(env, m.id);
      expect(p).toMatchObject({
        amount_cents: 5000,
        currency: "CHF",
        method: "bank_transfer",
        source: "manual",
        provider_fee_cents: 0,
        kind: "membership",
        reason: "virement reçu",
      });
      const [h] = await historyOf(env, m.id);
      expect(h).toMatchObject({ action: "mark_paid", from_status: "pending", to_status: "paid", to_end: periodEnd(today, 12) });
      expect(h.details).toMatchObject({ amount_cents: 5000, payment_id: p.id });
    });

    it("records the payment in the tier's currency when the member has a tier, else the club's", async () => {
      const tier = await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Euro", price_cents: 3000, currency: "EUR", duration_months: 6 } });
      const m = await seedMember(env, { payment_status: "pending", tier_id: tier.body.id });
      const res = await act(m.id, "mark-paid", { amount_cents: 3000 });
      expect(res.body.membership_end).toBe(periodEnd(today, 6));
      expect((await paymentsOf(env, m.id))[0]).toMatchObject({ amount_cents: 3000, currency: "EUR" });
      const plain = await seedMember(env, { payment_status: "pending" });
      await act(plain.id, "mark-paid", { amount_cents: 3000 });
      expect((await paymentsOf(env, plain.id))[0].currency).toBe("CHF");
    });

    it("takes the platform commission at the club's commission_rate_percent (null: 0)", async () => {
      const setRate = (rate: number | null) => env.db.tx((t) => t.update(clubs).set({ commission_rate_percent: rate }).where(eq(clubs.id, env.clubId)));
      await setRate(5);
      try {
        const m = await seedMember(env, { payment_status: "pending" });
        await act(m.id, "mark-paid", { amount_cents: 4010 });
        expect((await paymentsOf(env, m.id))[0]).toMatchObject({ amount_cents: 4010, platform_commission_cents: 201, provider_fee_cents: 0 });
      } finally {
        await setRate(null);
      }
      const free = await seedMember(env, { payment_status: "pending" });
      await act(free.id, "mark-paid", { amount_cents: 4010 });
      expect((await paymentsOf(env, free.id))[0].platform_commission_cents).toBe(0);
    });

    it("expired -> a new period from today; active -> renewed from its end", async () => {
      const expired = await seedMember(env, { membership_end: "2021-03-01" });
      expect((await act(expired.id, "mark-paid", { amount_cents: 1, payment_method: "cash" })).body).toMatchObject({
        membership_start: today,
        membership_end: periodEnd(today, 12),
        payment_method: "cash",
      });
      const active = await seedMember(env, { membership_start: "2025-01-01", membership_end: addDays(today, 10) });
      const res = await act(active.id, "mark-paid", { amount_cents: 1 });
      expect(res.body).toMatchObject({ membership_start: "2025-01-01", membership_end: addMonths(addDays(today, 10), 12) });
    });

    it("refuses a suspended member (409) and a missing amount (422), writing nothing", async () => {
      const m = await seedMember(env, { payment_status: "suspended", status_before_suspension: "paid" });
      const res = await act(m.id, "mark-paid", { amount_cents: 100 });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("MEMBER_SUSPENDED");
      expect((await act(m.id, "mark-paid", {})).status).toBe(422);
      expect(await memberRow(env, m.id)).toEqual(m);
      expect(await paymentsOf(env, m.id)).toHaveLength(0);
      expect(await historyOf(env, m.id)).toHaveLength(0);
    });
  });

  describe("suspend and reactivate", () => {
    it("paid -> suspended -> paid, and pending -> suspended -> pending", async () => {
      for (const start of ["paid", "pending"]) {
        const m = await seedMember(env, { payment_status: start });
        const s = await act(m.id, "suspend", { reason: "cotisation contestée" });
        expect(s.status).toBe(200);
        expect(s.body).toMatchObject({ payment_status: "suspended", status: "suspended" });
        expect((await memberRow(env, m.id)).status_before_suspension).toBe(start);
        const r = await act(m.id, "reactivate", {});
        expect(r.status).toBe(200);
        expect(r.body.payment_status).toBe(start);
        const row = await memberRow(env, m.id);
        expect(row.payment_status).toBe(start);
        expect(row.status_before_suspension).toBeNull();
        const h = await historyOf(env, m.id);
        expect(h.map((x) => [x.action, x.from_status, x.to_status])).toEqual([
          ["suspend", start, "suspended"],
          ["reactivate", "suspended", start],
        ]);
        expect(h[0].reason).toBe("cotisation contestée");
      }
    });

    it("refuses suspending a suspended member and reactivating one that is not (409), unchanged", async () => {
      const s = await seedMember(env, { payment_status: "suspended", status_before_suspension: "paid" });
      const r1 = await act(s.id, "suspend");
      expect(r1.status).toBe(409);
      expect(r1.body.code).toBe("MEMBER_ALREADY_SUSPENDED");
      expect(await memberRow(env, s.id)).toEqual(s);
      const p = await seedMember(env);
      const r2 = await act(p.id, "reactivate");
      expect(r2.status).toBe(409);
      expect(r2.body.code).toBe("MEMBER_NOT_SUSPENDED");
      expect(await memberRow(env, p.id)).toEqual(p);
      expect((await historyOf(env, s.id)).length + (await historyOf(env, p.id)).length).toBe(0);
    });
  });

  describe("cancel-subscription", () => {
    it("sets renewal_opt_out_at on a subscription; the member stays active", async () => {
      const m = await seedMember(env, { payment_mode: "subscription" });
      const res = await act(m.id, "cancel-subscription", { reason: "déménage" });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe("active");
      expect(res.body.renewal_opt_out_at).toBeString();
      expect((await memberRow(env, m.id)).renewal_opt_out_at).toBe(res.body.renewal_opt_out_at);
      expect((await historyOf(env, m.id))[0]).toMatchObject({ action: "cancel_subscription", reason: "déménage" });
    });

    it("refuses a one-time member or an already cancelled subscription (409), unchanged", async () => {
      const once = await seedMember(env);
      const cancelled = await seedMember(env, { payment_mode: "subscription", renewal_opt_out_at: "2025-01-01T00:00:00.000Z" });
      for (const m of [once, cancelled]) {
        const res = await act(m.id, "cancel-subscription");
        expect(res.status).toBe(409);
        expect(res.body.code).toBe("NO_ACTIVE_SUBSCRIPTION");
        expect(await memberRow(env, m.id)).toEqual(m);
        expect(await historyOf(env, m.id)).toHaveLength(0);
      }
    });
  });

  it("answers 422 for a member id that is not a uuid", async () => {
    expect((await act("nope", "suspend")).status).toBe(422);
  });

  it("history and payments rows stay in the club", async () => {
    // A second club acts on its own member, so that a row filed under the wrong club would show.
    const other = await env.otherClub();
    const theirs = await seedMember(env, { payment_status: "pending" }, other.club_id);
    const url = `/api/clubs/${other.club_id}/members/${theirs.id}/actions`;
    expect((await env.call("POST", `${url}/mark-paid`, { key: other.api_key, body: { amount_cents: 700 } })).status).toBe(200);
    expect((await env.call("POST", `${url}/suspend`, { key: other.api_key, body: {} })).status).toBe(200);
    const ours = await seedMember(env, { payment_status: "pending" });
    expect((await act(ours.id, "mark-paid", { amount_cents: 800 })).status).toBe(200);

    const clubOf = new Map((await env.db.read.select({ id: members.id, club_id: members.club_id }).from(members)).map((m) => [m.id, m.club_id]));
    const rows = await env.db.read.select().from(memberHistory);
    const pays = await env.db.read.select().from(payments);
    for (const row of [...rows, ...pays]) expect([row.member_id, row.club_id]).toEqual([row.member_id, clubOf.get(row.member_id as string) as string]);
    expect((await historyOf(env, theirs.id)).map((h) => [h.action, h.club_id])).toEqual([
      ["mark_paid", other.club_id],
      ["suspend", other.club_id],
    ]);
    expect((await paymentsOf(env, theirs.id)).map((p) => [p.club_id, p.amount_cents, p.source])).toEqual([[other.club_id, 700, "manual"]]);
    expect((await paymentsOf(env, ours.id)).map((p) => [p.club_id, p.amount_cents, p.source])).toEqual([[env.clubId, 800, "manual"]]);
  });
});
