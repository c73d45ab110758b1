// "New this month" (GET stats, the dashboard's overview) counts members by the day they joined,
// their `created_at` (SPEC's member): an import of last season's spreadsheet brings members who
// joined long ago, and they keep their own dates: the start the file gives, else the start of the
// period that ends on the file's end. Only a member whose period starts today counts as new.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { addDays, addMonths } from "../../lib/members/internal";
import { todayUtc } from "../../lib/members/status";
import { browser } from "../dashboard/helpers";
import { setup, type TestEnv } from "../helpers";
import { importFile } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const createdOf = async (email: string) => (await env.db.read.select().from(members).where(eq(members.email, email)))[0].created_at;

describe("new this month, after importing last season's members", () => {
  const today = todayUtc();
  const lastSeasonStart = addDays(today, -400);
  const paidUntil = addDays(today, 200);

  beforeAll(async () => {
    const csv = [
      "first_name,last_name,email,membership_start,membership_end",
      `Ancien,Expiré,old@test.org,${lastSeasonStart},${addDays(today, -35)}`,
      `Encore,Membre,running@test.org,,${paidUntil}`,
      `Nouvelle,Venue,fresh@test.org,${today},${addDays(today, 365)}`,
    ].join("\n");
    const res = await importFile(env, csv);
    expect(res.body).toMatchObject({ created: 3, errors: [] });
    const manual = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Par", last_name: "Main", email: "manual@test.org", membership_end: addDays(today, 365) },
    });
    expect(manual.status).toBe(201);
  });

  it("keeps each imported member's own date as the day they joined", async () => {
    expect(await createdOf("old@test.org")).toBe(`${lastSeasonStart}T00:00:00.000Z`);
    // No start in the file: one club period (12 months) before the end.
    expect(await createdOf("running@test.org")).toBe(`${addDays(addMonths(paidUntil, -12), 1)}T00:00:00.000Z`);
    // Starting today: joined now.
    expect((await createdOf("fresh@test.org")).slice(0, 10)).toBe(today);
  });

  it("counts only the members who joined this month in the stats", async () => {
    const res = await env.call("GET", `/api/clubs/${env.clubId}/stats`);
    expect(res.body.members).toMatchObject({ total: 4, new_this_month: 2 });
  });

  it("shows the same count on the dashboard's overview", async () => {
    const owner = browser(env);
    await owner.signIn();
    const page = await owner.request("GET", "/admin");
    expect(page.text).toMatch(/<dt>Nouveaux ce mois<\/dt><dd>2<\/dd>/);
    expect(page.text).toMatch(/<dt>Total<\/dt><dd>4<\/dd>/);
  });
});
