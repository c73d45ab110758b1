// db/index.ts `clubMembersIn`: the club's members among a few ids, found by their primary key. On
// SQLite the club's condition as written before (`club_id = ?`) was planned as a scan of the club's
// range of an index carrying the id: every member of the club read to find a few. Its writers and
// readers (a page's referrers, a pass update, an invoice list's names, an export of chosen members)
// answer as before, on both engines.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubMembersIn } from "../../db";
import { members } from "../../db/schema";
import { onPostgres } from "../databases";
import { sqlitePlan } from "../plans";
import { setup, type TestEnv } from "../helpers";
import { memberRow, seedMember } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("clubMembersIn", () => {
  it("answers the club's members among the ids, and none of another club's", async () => {
    const other = await env.otherClub();
    const [a, b, theirs] = [
      await seedMember(env, { email: "in-a@test.org" }),
      await seedMember(env, { email: "in-b@test.org" }),
      await seedMember(env, { email: "in-c@test.org" }, other.club_id),
    ];
    const found = await env.db.read
      .select({ id: members.id })
      .from(members)
      .where(clubMembersIn(env.clubId, [a.id, theirs.id, "0190a0a0-0000-7000-8000-000000000000"]));
    expect(found.map((r) => r.id)).toEqual([a.id]);
    // A write through it (a pass update's): the club's named member changes, no other.
    await env.db.tx((t) =>
      t
        .update(members)
        .set({ pass_updated_at: "2026-11-30T00:00:00.000Z" })
        .where(clubMembersIn(env.clubId, [b.id, theirs.id])),
    );
    expect((await memberRow(env, b.id)).pass_updated_at).toBe("2026-11-30T00:00:00.000Z");
    const [row] = await env.db.read.select({ at: members.pass_updated_at }).from(members).where(eq(members.id, theirs.id));
    expect(row.at).not.toBe("2026-11-30T00:00:00.000Z");
  });

  it.skipIf(onPostgres)("on SQLite, finds them by the primary key, not by a scan of the club's members", () => {
    const ids = ["0190a0a0-0000-7000-8000-000000000001", "0190a0a0-0000-7000-8000-000000000002", "0190a0a0-0000-7000-8000-000000000003"];
    expect(sqlitePlan(env.db, env.db.read.select({ id: members.id }).from(members).where(clubMembersIn(env.clubId, ids)))).toEqual([
      "SEARCH members USING INDEX sqlite_autoindex_members_1 (id=?)",
    ]);
  });
});
