// POST /api/clubs/:club_id/members/import beside manual creates of the same emails at the same
// moment (a defect found by the reliability suite: the import planned against what it read before
// its transaction and inserted a member created meanwhile a second time, a 500 on the unique email).
import { afterAll, beforeAll, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000" });
});
afterAll(() => env.close());

it("an import racing manual creates of the same emails matches them: no 5xx, each email once", async () => {
  const emails = Array.from({ length: 30 }, (_, i) => `race-${i}@example.org`);
  const csv = `first_name,last_name,email,membership_end\n${emails.map((e) => `Imp,Orted,${e},2030-01-01`).join("\n")}`;
  const importing = env.call("POST", `/api/clubs/${env.clubId}/members/import`, { rawBody: csv, headers: { "content-type": "text/csv" } });
  const creating = emails
    .slice(0, 5)
    .map((email) =>
      env.call("POST", `/api/clubs/${env.clubId}/members/manual`, { body: { first_name: "Man", last_name: "Ual", email, membership_end: "2031-01-01" } }),
    );
  const [imported, ...created] = await Promise.all([importing, ...creating]);
  expect(imported.status).toBe(200);
  for (const c of created) expect([201, 409]).toContain(c.status);
  // Every email exists once; the import reported, untouched, the members created before it (create mode).
  const rows = await env.db.read.select().from(members).where(eq(members.club_id, env.clubId));
  expect(rows.length).toBe(30);
  const manualFirst = created.filter((c) => c.status === 201).length;
  expect(imported.body.created + imported.body.skipped).toBe(30);
  expect(imported.body.created).toBe(30 - manualFirst);
  expect(imported.body.warnings.map((w: { code: string }) => w.code)).toEqual(Array(manualFirst).fill("MEMBER_EXISTS"));
});
