// PATCH /api/clubs/:club_id/promo-codes/:promo_code_id (DESIGN.md section 12): the settings change
// any time; the code and its discount only while nobody used it. Refusals re-read the row.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { promoCodes } from "../../db/schema";
import { authCases } from "../auth-cases";
import { createEventVia, registerPublic } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const NO_ID = "0190a0a0-0000-7000-8000-000000000000";
const base = () => `/api/clubs/${env.clubId}/promo-codes`;
let n = 0;
async function code(body: Record<string, unknown> = {}) {
  const res = await env.call("POST", base(), { body: { code: `CODE${n++}X`, discount_type: "percent", discount_value: 10, ...body } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body;
}
const patch = (id: string, body: unknown, key?: string) => env.call("PATCH", `${base()}/${id}`, { key, body });
const stored = async (id: string) => (await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, id)))[0];

/** A code used once, by a public registration to an event with a 20.00 ticket. */
async function usedCode() {
  const event = await createEventVia(env, { tickets: [{ name: "Entry", non_member_price_cents: 2000 }] });
  const promo = await code({ event_id: event.id, max_uses: 5 });
  const reg = await registerPublic(env, event.id, { ticket_id: event.tickets[0].id, promo_code: promo.code }, `10.8.0.${n}`);
  expect(reg.body.discount_cents).toBe(200);
  return { promo: await stored(promo.id), event };
}

describe("PATCH /api/clubs/:club_id/promo-codes/:promo_code_id", () => {
  authCases(() => env, { method: "PATCH", path: (e) => `/api/clubs/${e.clubId}/promo-codes/${NO_ID}`, body: { is_active: false }, scope: "finances:edit" });

  it("changes only the fields sent; null clears a date or the limit", async () => {
    const promo = await code({ max_uses: 3, valid_until: "2031-01-01T00:00:00Z" });
    const res = await patch(promo.id, { is_active: false, valid_from: "2030-01-01T00:00:00+01:00", max_uses: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      is_active: false,
      valid_from: "2029-12-31T23:00:00.000Z",
      valid_until: "2031-01-01T00:00:00.000Z",
      max_uses: null,
      code: promo.code,
    });
    expect(await stored(promo.id)).toMatchObject({ is_active: false, valid_from: "2029-12-31T23:00:00.000Z", max_uses: null, discount_value: 10 });
    const cleared = await patch(promo.id, { valid_until: null });
    expect(cleared.body.valid_until).toBeNull();
  });

  it("an unused code may change its code and discount", async () => {
    const promo = await code();
    const res = await patch(promo.id, { code: "Renamed50", discount_type: "amount", discount_value: 500 });
    expect(res.status).toBe(200);
    expect(await stored(promo.id)).toMatchObject({ code: "Renamed50", code_key: "RENAMED50", discount_type: "amount", discount_value: 500 });
  });

  it("a used code keeps its code, type and value (409 PROMO_CODE_USED), its settings still change", async () => {
    const { promo } = await usedCode();
    for (const body of [{ code: "OTHERNAME" }, { discount_type: "amount" }, { discount_value: 50 }]) {
      const res = await patch(promo.id, { ...body, is_active: false });
      expect([res.status, res.body.code]).toEqual([409, "PROMO_CODE_USED"]);
    }
    expect(await stored(promo.id)).toEqual(promo);
    // Sending the same values is no change.
    expect((await patch(promo.id, { code: promo.code, discount_value: 10, max_uses: 2 })).status).toBe(200);
    expect(await stored(promo.id)).toMatchObject({ max_uses: 2, code: promo.code });
  });

  it("max_uses below used_count -> 409; a code taken in the club (any case) -> 409; unchanged", async () => {
    const { promo } = await usedCode();
    const below = await patch(promo.id, { max_uses: 1 });
    expect(below.status).toBe(200); // 1 use made, a limit of 1 is fine
    const { promo: twice } = await usedCode();
    await env.db.tx((t) => t.update(promoCodes).set({ used_count: 2 }).where(eq(promoCodes.id, twice.id)));
    const res = await patch(twice.id, { max_uses: 1 });
    expect([res.status, res.body.code]).toEqual([409, "PROMO_MAX_USES_BELOW_USED"]);
    expect((await stored(twice.id)).max_uses).toBe(5);
    const a = await code();
    const b = await code();
    const taken = await patch(b.id, { code: a.code.toLowerCase() });
    expect([taken.status, taken.body.code]).toEqual([409, "PROMO_CODE_TAKEN"]);
    expect((await stored(b.id)).code).toBe(b.code);
  });

  it("checks the code as it would become: a percent over 100, an end before the start -> 422", async () => {
    const amount = await code({ discount_type: "amount", discount_value: 5000 });
    const res = await patch(amount.id, { discount_type: "percent" });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "discount_value"]);
    const dated = await code({ valid_from: "2030-01-01T00:00:00Z" });
    const order = await patch(dated.id, { valid_until: "2029-01-01T00:00:00Z" });
    expect(order.status).toBe(422);
    expect(await stored(amount.id)).toMatchObject({ discount_type: "amount" });
    expect((await stored(dated.id)).valid_until).toBeNull();
  });

  it("a finances:view key -> 403 and another club's code -> 404, unchanged", async () => {
    const promo = await code();
    const view = await patch(promo.id, { is_active: false }, await env.makeKey({ finances: "view" }));
    expect([view.status, view.body.code]).toEqual([403, "SCOPE_MISSING"]);
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/promo-codes`, {
      key: other.api_key,
      body: { code: "THEIRS1", discount_type: "percent", discount_value: 10 },
    });
    const res = await patch(theirs.body.id, { is_active: false });
    expect([res.status, res.body.code]).toEqual([404, "PROMO_CODE_NOT_FOUND"]);
    expect((await stored(theirs.body.id)).is_active).toBe(true);
    expect((await stored(promo.id)).is_active).toBe(true);
  });
});
