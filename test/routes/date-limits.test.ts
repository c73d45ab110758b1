// The last day a date can name, 9999-12-31 (defects found by the reliability suite): a transition
// that would carry a membership past it is a 422 that stores nothing (it was a 500 after storing a
// five-digit year), and a `to` filter of 9999-12-31 keeps every row (it matched none).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { memberHistory, members, payments } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

async function memberEnding(end: string) {
  const res = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
    body: { first_name: "Far", last_name: "Future", email: `far-${crypto.randomUUID()}@example.org`, membership_end: end },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function stored(id: string) {
  const [row] = await env.db.read.select().from(members).where(eq(members.id, id));
  const history = await env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, id));
  const paid = await env.db.read.select().from(payments).where(eq(payments.member_id, id));
  return { end: row.membership_end, history: history.map((h) => h.action), payments: paid.length };
}

describe("a membership cannot end after 9999-12-31", () => {
  it("extend past it: 422 MEMBERSHIP_END_TOO_LATE naming extend_months, nothing stored", async () => {
    const id = await memberEnding("9999-12-01");
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${id}/actions/extend`, { body: { extend_months: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].type).toBe("membership_end_too_late");
    expect(res.body.detail[0].loc).toEqual(["body", "extend_months"]);
    expect(res.body.detail[0].msg).toContain("9999-12-31");
    expect(await stored(id)).toEqual({ end: "9999-12-01", history: ["manual_create"], payments: 0 });
  });

  it("extend up to it still works", async () => {
    const id = await memberEnding("9999-11-30");
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${id}/actions/extend`, { body: { extend_until: "9999-12-31" } });
    expect(res.status).toBe(200);
    expect(res.body.membership_end).toBe("9999-12-31");
  });

  it("mark-paid renewing an active member past it: 422, no payment recorded", async () => {
    const id = await memberEnding("9999-06-01");
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${id}/actions/mark-paid`, { body: { amount_cents: 5000 } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("VALIDATION_FAILED");
    // No field of the request set that end (one period of the tier did): the body as a whole.
    expect(res.body.detail[0].loc).toEqual(["body"]);
    expect(await stored(id)).toEqual({ end: "9999-06-01", history: ["manual_create"], payments: 0 });
  });
});

describe("a `to` filter of 9999-12-31 keeps every row up to then", () => {
  it("GET audit-log?to=9999-12-31 lists what the unfiltered log lists", async () => {
    await env.call("GET", "/api/auth/me");
    const all = await env.call("GET", `/api/clubs/${env.clubId}/audit-log`);
    const res = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?from=2000-01-01&to=9999-12-31`);
    expect(res.status).toBe(200);
    expect(all.body.total).toBeGreaterThan(0);
    // One more row: the unfiltered request's own, committed before its answer left.
    expect(res.body.total).toBe(all.body.total + 1);
  });

  it("GET attendance?from=...&to=9999-12-31 counts today's scans", async () => {
    const id = await memberEnding("2099-01-01");
    const [row] = await env.db.read.select().from(members).where(eq(members.id, id));
    expect((await env.call("GET", `/api/verify/${row.referral_code}`)).status).toBe(200);
    const res = await env.call("GET", `/api/clubs/${env.clubId}/attendance?from=2000-01-01&to=9999-12-31`);
    expect(res.status).toBe(200);
    expect(res.body.total_scans).toBe(1);
    expect(res.body.scans[0].member_id).toBe(id);
  });
});
