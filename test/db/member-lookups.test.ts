// A member's rows found by member: their mailing deliveries (read by their data's export, written
// by their erasure, asked by an import's undo), their event registrations (by member or address:
// the export and the erasure), every row naming them (the undo) and their wallet devices. Without
// an index by member each read every row: with 1,000,000 recipients one member's export took
// 254 ms and an undo's batch of 500 members 155 ms, with 210,000 registrations 95 ms, the erasure
// and the undo holding the writer. The start's ask for page tokens an older version kept in clear
// read every member (45 ms at 100,000). The same answers on both engines; on SQLite the plans name
// the indexes.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { count, eq } from "drizzle-orm";
import { appleRegistrations, eventRegistrations, mailingRecipients, mailings, members } from "../../db/schema";
import { clearPageTokens } from "../../lib/member-page";
import { NAMING, namingRows } from "../../lib/members/import-journal";
import { memberMailings, memberRegistrations } from "../../lib/members/history";
import { createEventVia, insertRegistration } from "../events-fixtures";
import { onPostgres } from "../databases";
import { sqlitePlan } from "../plans";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const at = "2026-12-01T00:00:00.000Z";
const UNKNOWN = "0190a0a0-0000-7000-8000-000000000009";

/** A sent mailing of `clubId` with one delivery to each of `memberIds`. */
async function mailingTo(clubId: string, memberIds: string[]) {
  const id = crypto.randomUUID();
  await env.db.tx(async (t) => {
    await t
      .insert(mailings)
      .values({ id, club_id: clubId, subject: "Assemblée", body_markdown: "Bonjour", audience: {}, status: "sent", created_at: at, updated_at: at });
    for (const memberId of memberIds)
      await t.insert(mailingRecipients).values({
        id: crypto.randomUUID(),
        club_id: clubId,
        mailing_id: id,
        member_id: memberId,
        email: "x@test.org",
        state: "sent",
        unsubscribe_token: crypto.randomUUID(),
        created_at: at,
      });
  });
  return id;
}

describe("a member's rows found by member", () => {
  it("answers the member's deliveries in the club and the members naming them, no other's", async () => {
    const other = await env.otherClub();
    const a = await seedMember(env);
    const b = await seedMember(env, { referred_by_member_id: a.id });
    const c = await seedMember(env);
    const theirs = await seedMember(env, {}, other.club_id);
    const mine = await mailingTo(env.clubId, [a.id, b.id]);
    await mailingTo(other.club_id, [theirs.id]);

    const deliveries = await env.db.read.select({ mailing: mailingRecipients.mailing_id }).from(mailingRecipients).where(memberMailings(env.clubId, a.id));
    expect(deliveries).toEqual([{ mailing: mine }]);
    expect(await env.db.read.select().from(mailingRecipients).where(memberMailings(env.clubId, theirs.id))).toEqual([]);

    const named = async (column: typeof mailingRecipients.member_id | typeof members.referred_by_member_id) =>
      (await namingRows(env.db.read, column, [a.id, c.id, theirs.id, UNKNOWN])).map((r) => r.id).sort();
    expect(await named(mailingRecipients.member_id)).toEqual([a.id, theirs.id].sort());
    expect(await named(members.referred_by_member_id)).toEqual([a.id]);
  });

  it("answers the member's registrations linked to them or made with their address in any case, no other's", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Entrée" }] });
    const at = { eventId: event.id, ticketId: event.tickets[0].id };
    const m = await seedMember(env, { email: "ada@test.org" });
    const linked = await insertRegistration(env, { ...at, memberId: m.id, email: "other-address@test.org" });
    const typed = await insertRegistration(env, { ...at, email: "Ada@Test.ORG" });
    await insertRegistration(env, { ...at, email: "ada2@test.org" });
    await insertRegistration(env, { ...at, memberId: (await seedMember(env)).id, email: "grace@test.org" });
    const found = await env.db.read.select({ id: eventRegistrations.id }).from(eventRegistrations).where(memberRegistrations(env.clubId, m));
    expect(found.map((r) => r.id).sort()).toEqual([linked.id, typed.id].sort());
    // Another club's member with the same address: the club's registrations are not theirs.
    expect(
      await env.db.read
        .select()
        .from(eventRegistrations)
        .where(memberRegistrations((await env.otherClub()).club_id, m)),
    ).toEqual([]);
  });

  it.skipIf(onPostgres)("on SQLite, reads them through the indexes by member, not every row", () => {
    const ids = [UNKNOWN, "0190a0a0-0000-7000-8000-000000000008"];
    expect(sqlitePlan(env.db, env.db.read.select().from(mailingRecipients).where(memberMailings(env.clubId, UNKNOWN)))).toEqual([
      "SEARCH mailing_recipients USING INDEX mailing_recipients_member_idx (member_id=?)",
    ]);
    expect(sqlitePlan(env.db, namingRows(env.db.read, mailingRecipients.member_id, ids))).toEqual([
      "SEARCH mailing_recipients USING COVERING INDEX mailing_recipients_member_idx (member_id=?)",
    ]);
    expect(sqlitePlan(env.db, namingRows(env.db.read, members.referred_by_member_id, ids))).toEqual([
      "SEARCH members USING COVERING INDEX members_referred_by_idx (referred_by_member_id=?)",
    ]);
  });

  it.skipIf(onPostgres)("on SQLite, the start's ask for page tokens kept in clear reads the index of them, not every member", () => {
    // The pass itself (a clear token hashed, its link working again) is test/routes/member-page's.
    expect(sqlitePlan(env.db, clearPageTokens(env.db.read))).toEqual(["SCAN members USING INDEX members_clear_page_token_idx"]);
  });

  it.skipIf(onPostgres)("on SQLite, every column naming a member is asked through an index, and so are a member's registrations and devices", () => {
    const ids = [UNKNOWN, "0190a0a0-0000-7000-8000-000000000008"];
    for (const column of NAMING)
      expect(sqlitePlan(env.db, namingRows(env.db.read, column, ids))).toEqual([expect.stringMatching(/^SEARCH \w+ USING COVERING INDEX \w+ \(\w+=\?\)$/)]);
    expect(
      sqlitePlan(
        env.db,
        env.db.read
          .select()
          .from(eventRegistrations)
          .where(memberRegistrations(env.clubId, { id: UNKNOWN, email: "ada@test.org" })),
      ),
    ).toEqual([
      "MULTI-INDEX OR",
      "INDEX 1",
      "SEARCH event_registrations USING INDEX event_registrations_of_member_idx (member_id=?)",
      "INDEX 2",
      "SEARCH event_registrations USING INDEX event_registrations_lower_email_idx (<expr>=?)",
    ]);
    // What lib/cards/apple/registrations counts when a device registers or leaves.
    expect(sqlitePlan(env.db, env.db.read.select({ n: count() }).from(appleRegistrations).where(eq(appleRegistrations.member_id, UNKNOWN)))).toEqual([
      "SEARCH apple_registrations USING COVERING INDEX apple_registrations_member_idx (member_id=?)",
    ]);
  });
});
