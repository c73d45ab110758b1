// Event and promo-code date-times stay within the years 0001..9999 once in UTC: an offset that
// pushes one past them ("9999-12-31T23:00:00-14:00") is a 422 at the field that stores nothing
// (it was stored as "+010000-01-01T13:00:00.000Z", which sorts before every real date).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { events, promoCodes } from "../../db/schema";
import { createEventVia } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const eventsPath = () => `/api/clubs/${env.clubId}/events`;
const countEvents = async () => (await env.db.read.select().from(events).where(eq(events.club_id, env.clubId))).length;
const countPromos = async () => (await env.db.read.select().from(promoCodes).where(eq(promoCodes.club_id, env.clubId))).length;

describe("event dates past the year 9999 or before 0001 (UTC)", () => {
  it("create: 422 DATE_OUT_OF_RANGE at each such field, in the club's language, nothing stored", async () => {
    const before = await countEvents();
    const res = await env.call("POST", eventsPath(), {
      body: { title: "Far", starts_at: "9999-12-31T23:00:00-14:00", registration_opens_at: "0001-01-01T00:00:00+01:00" },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: string[]; type: string }) => [d.loc, d.type])).toEqual([
      [["body", "starts_at"], "date_out_of_range"],
      [["body", "registration_opens_at"], "date_out_of_range"],
    ]);
    expect(res.body.detail[0].msg).toContain("9999");
    expect(await countEvents()).toBe(before);
  });

  it("update: 422 at the field, the event unchanged", async () => {
    const e = await createEventVia(env);
    const res = await env.call("PATCH", `${eventsPath()}/${e.id}`, { body: { title: "Changed", ends_at: "9999-12-31T23:30:00-10:00" } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ["body", "ends_at"], type: "date_out_of_range" });
    const [row] = await env.db.read.select().from(events).where(eq(events.id, e.id));
    expect(row.title).toBe(e.title);
    expect(row.ends_at).toBeNull();
  });

  it("the last and first instants that stay within the years are accepted and stored in UTC", async () => {
    const late = await createEventVia(env, { starts_at: "9999-12-31T13:59:59-10:00" });
    expect(late.starts_at).toBe("9999-12-31T23:59:59.000Z");
    const early = await createEventVia(env, { starts_at: "0001-01-01T02:00:00+02:00" });
    expect(early.starts_at).toBe("0001-01-01T00:00:00.000Z");
  });
});

describe("promo code dates past the year 9999 (UTC)", () => {
  it("create: 422 DATE_OUT_OF_RANGE at valid_until, nothing stored", async () => {
    const before = await countPromos();
    const res = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: { code: "FARAWAY", discount_type: "percent", discount_value: 10, valid_until: "9999-12-31T23:00:00-14:00" },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ["body", "valid_until"], type: "date_out_of_range" });
    expect(await countPromos()).toBe(before);
  });
});
