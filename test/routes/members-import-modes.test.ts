// POST /api/clubs/:club_id/members/import: the modes (create leaves existing members alone,
// update writes only the columns the file has and never shortens a membership unless asked) and
// the dry run's per-line changes.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { memberHistory, members } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { historyOf, importFile, memberRow, seedMember, setCustomFields } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
  await setCustomFields(env, [{ key: "licence", label: "Licence" }]);
});
afterAll(() => env.close());

const importCsv = (body: BodyInit, qs = "") => importFile(env, body, qs);
const everything = async () => ({
  members: await env.db.read.select().from(members).where(eq(members.club_id, env.clubId)),
  history: await env.db.read.select().from(memberHistory).where(eq(memberHistory.club_id, env.clubId)),
});

describe("mode=create (the default)", () => {
  it("leaves a member whose email exists untouched and reports the line with MEMBER_EXISTS", async () => {
    const zoe = await seedMember(env, { email: "zoe@test.org", first_name: "Zoé", last_name: "Roy", membership_end: "2031-06-30" });
    const before = await everything();
    const res = await importCsv("first_name,last_name,email,membership_end\nNew,Member,new1@test.org,2030-12-31\nZoe,Other,ZOE@test.org,2029-01-01\n");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: "create", created: 1, updated: 0, skipped: 1, errors: [], written: true });
    expect(res.body.warnings).toEqual([
      { line: 3, email: "zoe@test.org", member_id: zoe.id, code: "MEMBER_EXISTS", detail: expect.stringContaining("zoe@test.org") },
    ]);
    expect(await memberRow(env, zoe.id)).toEqual(zoe);
    expect(await historyOf(env, zoe.id)).toEqual(before.history.filter((h) => h.member_id === zoe.id));
  });
});

describe("mode=update", () => {
  it("writes only the columns the file has; an empty cell changes nothing", async () => {
    const m = await seedMember(env, {
      email: "cols@test.org",
      first_name: "Anna",
      last_name: "Muster",
      membership_end: "2031-01-31",
      payment_method: "cash",
      custom_fields: { licence: "L-1", shirt: "M" },
    });
    const res = await importCsv("E-Mail;Nachname;Vorname;Licence\ncols@test.org;Meier;;L-2\n", "?mode=update");
    expect(res.body).toMatchObject({ mode: "update", created: 0, updated: 1, errors: [], warnings: [], written: true });
    const after = await memberRow(env, m.id);
    expect(after).toMatchObject({
      first_name: "Anna",
      last_name: "Meier",
      membership_end: "2031-01-31",
      payment_method: "cash",
      payment_status: "paid",
      custom_fields: { licence: "L-2", shirt: "M" },
    });
    expect(after.sort_name).toBe("meier\u0001anna");
    expect(after.search_text).toContain("anna meier");
    const [h] = await historyOf(env, m.id);
    expect(h).toMatchObject({ action: "import_update", from_end: "2031-01-31", to_end: "2031-01-31" });
    expect(h.details).toMatchObject({
      fields: ["last_name", "custom_fields.licence"],
      changes: [
        { field: "last_name", from: "Muster", to: "Meier" },
        { field: "custom_fields.licence", from: "L-1", to: "L-2" },
      ],
    });
  });

  it("never moves a membership end earlier (END_NOT_SHORTENED, the rest of the line is written); allow_shorten=true does", async () => {
    const m = await seedMember(env, { email: "short@test.org", first_name: "Old", membership_start: "2025-01-01", membership_end: "2031-06-30" });
    const csv = "email,first_name,membership_end\nshort@test.org,New,31.12.2030\n";
    const kept = await importCsv(csv, "?mode=update");
    expect(kept.body).toMatchObject({ updated: 1, errors: [], written: true });
    expect(kept.body.warnings).toEqual([
      {
        line: 2,
        email: "short@test.org",
        member_id: m.id,
        code: "END_NOT_SHORTENED",
        detail: "La fin d'adhésion reste le 2031-06-30 : le fichier donne 2030-12-31, plus tôt (allow_shorten=true pour raccourcir).",
      },
    ]);
    expect(await memberRow(env, m.id)).toMatchObject({ first_name: "New", membership_end: "2031-06-30" });

    const shortened = await importCsv(csv, "?mode=update&allow_shorten=true");
    expect(shortened.body).toMatchObject({ updated: 1, warnings: [], written: true });
    expect(await memberRow(env, m.id)).toMatchObject({ first_name: "New", membership_end: "2030-12-31" });
    expect((await historyOf(env, m.id)).map((h) => [h.from_end, h.to_end])).toEqual([
      ["2031-06-30", "2031-06-30"],
      ["2031-06-30", "2030-12-31"],
    ]);
  });

  it("creates new emails too, and says what a new member's line lacks", async () => {
    const res = await importCsv("email,membership_end\nunknown@test.org,2031-01-01\n", "?mode=update");
    expect(res.body).toMatchObject({ created: 0, written: false });
    expect(res.body.errors).toEqual([
      { line: 2, detail: "Aucun membre n'a l'adresse unknown@test.org : pour le créer, la ligne doit donner first_name, last_name." },
    ]);
  });

  it("all or nothing holds across batches: an error found after 500 written lines undoes them", async () => {
    await seedMember(env, { email: "late@test.org", membership_start: "2026-03-01", membership_end: "2027-02-28" });
    const before = await everything();
    const lines = Array.from({ length: 600 }, (_, i) => `Batch,B${i},batch${i}@test.org,2030-12-31`);
    // The last line ends before the stored start: only the database can tell.
    const res = await importCsv(
      `first_name,last_name,email,membership_end\n${lines.join("\n")}\n,,late@test.org,2025-01-01\n`,
      "?mode=update&allow_shorten=true",
    );
    expect(res.body).toMatchObject({ created: 0, updated: 0, written: false });
    expect(res.body.errors).toEqual([{ line: 602, detail: expect.stringContaining("(2025-01-01) ne peut pas précéder son début (2026-03-01)") }]);
    expect(await everything()).toEqual(before);
  });

  it("refuses a mode it does not know (422)", async () => {
    const res = await importCsv("email\na@test.org\n", "?mode=upsert");
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["query", "mode"]);
  });
});

describe("dry run", () => {
  it("shows, line by line, field: old -> new, and writes nothing", async () => {
    const m = await seedMember(env, { email: "dry@test.org", first_name: "Léa", last_name: "Favre", membership_end: "2030-06-30" });
    const same = await seedMember(env, { email: "same@test.org", first_name: "Same", last_name: "Same", membership_end: "2030-06-30" });
    const before = await everything();
    const csv = [
      "first_name,last_name,email,membership_end,licence",
      "Léa,Favre-Roy,dry@test.org,2031-06-30,L-9",
      "Same,Same,same@test.org,2030-06-30,",
      "Neu,Mitglied,neu@test.org,2030-12-31,",
    ].join("\n");
    const res = await importCsv(csv, "?mode=update&dry_run=true");
    expect(res.body).toMatchObject({ created: 1, updated: 1, skipped: 1, errors: [], dry_run: true, written: false });
    expect(res.body.changes).toEqual([
      {
        line: 2,
        member_id: m.id,
        email: "dry@test.org",
        action: "update",
        fields: [
          { field: "last_name", from: "Favre", to: "Favre-Roy" },
          { field: "membership_end", from: "2030-06-30", to: "2031-06-30" },
          { field: "custom_fields.licence", from: null, to: "L-9" },
        ],
      },
      { line: 3, member_id: same.id, email: "same@test.org", action: "unchanged", fields: [] },
      {
        line: 4,
        member_id: null,
        email: "neu@test.org",
        action: "create",
        fields: [
          { field: "first_name", from: null, to: "Neu" },
          { field: "last_name", from: null, to: "Mitglied" },
          { field: "email", from: null, to: "neu@test.org" },
          { field: "membership_start", from: null, to: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
          { field: "membership_end", from: null, to: "2030-12-31" },
          { field: "payment_status", from: null, to: "paid" },
        ],
      },
    ]);
    expect(await everything()).toEqual(before);

    // In create mode the existing members' lines are skips; the real run gives no `changes`.
    const created = await importCsv(csv, "?dry_run=true");
    expect(created.body.changes.map((c: { action: string }) => c.action)).toEqual(["skip", "skip", "create"]);
    expect(created.body.warnings.map((w: { line: number }) => w.line)).toEqual([2, 3]);
    expect(await everything()).toEqual(before);
    const real = await importCsv(csv, "?mode=update");
    expect(real.body).toMatchObject({ created: 1, updated: 1, skipped: 1, written: true });
    expect(real.body.changes).toBeUndefined();
  });
});
