// References stay inside the club (issue 18 item 4): a promo code's applies_to_tier_ids and the
// keys of a ticket's tier_prices must be tiers of this club; another club's tier, a random UUID
// or any other string is a 422 naming the item, and nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { events, eventTickets, promoCodes } from "../../db/schema";
import { createEventVia } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let own: string;
let inactive: string;
let foreign: string;
beforeAll(async () => {
  env = await setup();
  own = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Junior", price_cents: 3000 } })).body.id;
  inactive = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Old", price_cents: 1000 } })).body.id;
  expect((await env.call("PUT", `/api/clubs/${env.clubId}/tiers/${inactive}`, { body: { is_active: false } })).status).toBe(200);
  const other = await env.otherClub();
  foreign = (await env.call("POST", `/api/clubs/${other.club_id}/tiers`, { key: other.api_key, body: { name: "Theirs", price_cents: 500 } })).body.id;
});
afterAll(() => env.close());

const count = async (table: typeof promoCodes | typeof events | typeof eventTickets) => (await env.db.read.select().from(table)).length;

describe("promo code applies_to_tier_ids", () => {
  const create = (ids: string[], code: string) =>
    env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, { body: { code, discount_type: "percent", discount_value: 10, applies_to_tier_ids: ids } });

  it("takes the club's tiers, an inactive one too", async () => {
    const res = await create([own, inactive], "OWNTIERS");
    expect(res.status).toBe(201);
    expect(res.body.applies_to_tier_ids).toEqual([own, inactive]);
  });

  it("refuses another club's tier and a random UUID with a 422 naming each item; nothing stored", async () => {
    const before = await count(promoCodes);
    const random = crypto.randomUUID();
    const res = await create([own, foreign, random], "FOREIGN1");
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    expect(res.body.detail).toEqual([
      { loc: ["body", "applies_to_tier_ids", 1], msg: expect.stringContaining(foreign), type: "tier_not_in_club" },
      { loc: ["body", "applies_to_tier_ids", 2], msg: expect.stringContaining(random), type: "tier_not_in_club" },
    ]);
    expect(await count(promoCodes)).toBe(before);
  });
});

describe("ticket tier_prices keys", () => {
  const ticket = (tierPrices: Record<string, number>) => ({ name: "Membre", member_price_cents: 1000, tier_prices: tierPrices });

  it("event create: the club's tiers are taken; another club's tier, a random UUID or a word is a 422 naming the key, nothing stored", async () => {
    const ok = await env.call("POST", `/api/clubs/${env.clubId}/events`, {
      body: { title: "Ok", starts_at: "2031-05-01T18:00:00Z", tickets: [ticket({ [own]: 500 })] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.tickets[0].tier_prices).toEqual({ [own]: 500 });
    const before = [await count(events), await count(eventTickets)];
    const random = crypto.randomUUID();
    const res = await env.call("POST", `/api/clubs/${env.clubId}/events`, {
      body: { title: "Bad", starts_at: "2031-05-01T18:00:00Z", tickets: [ticket({ [own]: 500 }), ticket({ [foreign]: 100, [random]: 200, gold: 300 })] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: unknown; type: string }) => [d.loc, d.type])).toEqual([
      [["body", "tickets", 1, "tier_prices", foreign], "tier_not_in_club"],
      [["body", "tickets", 1, "tier_prices", random], "tier_not_in_club"],
      [["body", "tickets", 1, "tier_prices", "gold"], "tier_not_in_club"],
    ]);
    expect([await count(events), await count(eventTickets)]).toEqual(before);
  });

  it("event update: another club's tier in tier_prices is a 422 and the tickets stay as they were", async () => {
    const e = await createEventVia(env, { tickets: [ticket({ [own]: 500 })] });
    const res = await env.call("PATCH", `/api/clubs/${env.clubId}/events/${e.id}`, {
      body: { title: "Changed", tickets: [{ id: e.tickets[0].id, ...ticket({ [foreign]: 1 }) }, ticket({})] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "tickets", 0, "tier_prices", foreign]);
    const stored = await env.db.read.select().from(eventTickets).where(eq(eventTickets.event_id, e.id));
    expect(stored.map((t) => t.tier_prices)).toEqual([{ [own]: 500 }]);
    expect((await env.db.read.select().from(events).where(eq(events.id, e.id)))[0].title).toBe(e.title);
  });
});
