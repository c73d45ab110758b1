// POST /api/clubs/:club_id/members/import
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { addDays, todayUtc } from "../../lib/days";
import { addMonths, codeSource } from "../../lib/members/internal";
import { authCases } from "../auth-cases";
import { setup, type TestEnv } from "../helpers";
import { historyOf, importFile, memberRow, seedMember, setCustomFields } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
  await setCustomFields(env, [{ key: "licence", label: "N° de licence" }]);
});
afterAll(() => env.close());

const path = (qs = "") => `/api/clubs/${env.clubId}/members/import${qs}`;
const importCsv = (csv: string, qs = "") => importFile(env, csv, qs);
const all = async () => env.db.read.select().from(members).where(eq(members.club_id, env.clubId));
const byEmail = async (email: string) => (await all()).find((m) => m.email === email);

describe("POST /api/clubs/:club_id/members/import", () => {
  authCases(() => env, { method: "POST", path: (e) => `/api/clubs/${e.clubId}/members/import`, body: {}, scope: "members:edit" });

  it("creates members from French headings (BOM, DD.MM.YYYY, custom field by label)", async () => {
    const csv = "\uFEFFPrénom;Nom;Courriel;Fin abonnement;N° de licence\nAnaïs;Favre;Anais@Test.org;31.12.2030;L-7\nŁukasz;Żółć;lukasz@test.org;2030-06-30;\n";
    const res = await importCsv(csv);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 0, skipped: 0, errors: [], warnings: [], mode: "create", dry_run: false, written: true });
    expect(res.body.file).toMatchObject({ encoding: "utf-8", delimiter: ";" });
    expect(res.body.file.columns.map((c: { field: string | null }) => c.field)).toEqual([
      "first_name",
      "last_name",
      "email",
      "membership_end",
      "custom_fields.licence",
    ]);
    const anais = await byEmail("anais@test.org");
    expect(anais).toMatchObject({
      first_name: "Anaïs",
      last_name: "Favre",
      membership_end: "2030-12-31",
      payment_status: "paid",
      is_manual: true,
      custom_fields: { licence: "L-7" },
    });
    expect(anais?.search_text).toContain("anais favre");
    expect((await byEmail("lukasz@test.org"))?.search_text).toContain("lukasz zolc");
    expect((await historyOf(env, anais!.id))[0].action).toBe("import_create");
  });

  it("updates by email with mode=update, skips unchanged lines, from German and English headings", async () => {
    const de = await importCsv(
      "Vorname,Nachname,E-Mail,Mitgliedschaftsende\nAnaïs,Favre,anais@test.org,2031-01-31\nŁukasz,Żółć,lukasz@test.org,2030-06-30\n",
      "?mode=update",
    );
    expect(de.body).toMatchObject({ created: 0, updated: 1, skipped: 1, errors: [] });
    expect((await byEmail("anais@test.org"))?.membership_end).toBe("2031-01-31");
    const en = await importCsv("First name,Last name,Email\nAnna,Favre,anais@test.org\n", "?mode=update");
    expect(en.body).toMatchObject({ updated: 1 });
    const anna = await byEmail("anais@test.org");
    expect(anna?.first_name).toBe("Anna");
    expect(anna?.search_text).toContain("anna favre");
    expect(anna?.custom_fields).toEqual({ licence: "L-7" });
  });

  it("re-imports its own export (Italian headings work too)", async () => {
    const exported = await env.call("GET", `/api/clubs/${env.clubId}/members/export`);
    const res = await importCsv(exported.text, "?mode=update");
    expect(res.body).toMatchObject({ created: 0, updated: 0, skipped: 2, errors: [], warnings: [] });
    const it_ = await importCsv("nome,cognome,email,scadenza\nGiulia,Rossi,giulia@test.org,01/02/2031\n");
    expect(it_.body.created).toBe(1);
    expect((await byEmail("giulia@test.org"))?.membership_end).toBe("2031-02-01");
  });

  it("reports each faulty line and writes nothing (all or nothing)", async () => {
    const before = await all();
    const csv = [
      "first_name,last_name,email,membership_end,payment_status",
      "Ok,One,ok1@test.org,2030-01-01,",
      "Bad,Email,not-an-email,2030-01-01,",
      "Bad,Date,baddate@test.org,31/02/2030,",
      ",NoFirst,nofirst@test.org,2030-01-01,",
      "Dup,Line,ok1@test.org,2030-01-01,",
      "Bad,Status,status@test.org,2030-01-01,gold",
      "Anna,Favre,anais@test.org,2032-01-01,",
    ].join("\n");
    const res = await importCsv(csv, "?mode=update");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 0, updated: 0, written: false });
    expect(res.body.errors.map((e: { line: number }) => e.line)).toEqual([3, 4, 5, 6, 7]);
    expect(res.body.errors[0].detail).toContain("not-an-email");
    expect(res.body.errors[1].detail).toContain("31/02/2030");
    expect(res.body.errors[2].detail).toContain("first_name");
    expect(res.body.errors[3].detail).toContain("ligne 2");
    expect(res.body.errors[4].detail).toContain("gold");
    expect(await all()).toEqual(before);

    const dry = await importCsv(csv, "?mode=update&dry_run=true&partial=true");
    expect(dry.body).toMatchObject({ created: 1, updated: 1, dry_run: true, written: false });
    expect(await all()).toEqual(before);

    const partial = await importCsv(csv, "?mode=update&partial=true");
    expect(partial.body).toMatchObject({ created: 1, updated: 1, written: true });
    expect(partial.body.errors).toHaveLength(5);
    expect(await byEmail("ok1@test.org")).toBeDefined();
    expect((await byEmail("anais@test.org"))?.membership_end).toBe("2032-01-01");
  });

  it("changes a status by the rule of suspend and reactivate: a pending member suspended by import reactivates as pending", async () => {
    const pending = await seedMember(env, { email: "unpaid@test.org", payment_status: "pending" });
    const res = await importCsv("email,payment_status\nunpaid@test.org,suspended\n", "?mode=update");
    expect(res.body).toMatchObject({ updated: 1, errors: [] });
    expect(await memberRow(env, pending.id)).toMatchObject({ payment_status: "suspended", status_before_suspension: "pending" });
    const back = await env.call("POST", `/api/clubs/${env.clubId}/members/${pending.id}/actions/reactivate`, { body: {} });
    expect(back.body).toMatchObject({ payment_status: "pending", status: "pending" });
    expect(await memberRow(env, pending.id)).toMatchObject({ payment_status: "pending", status_before_suspension: null });

    // Leaving `suspended` by import clears the record as reactivate does; the file's status is taken.
    const suspended = await seedMember(env, { email: "lifted@test.org", payment_status: "suspended", status_before_suspension: "pending" });
    expect((await importCsv("email,payment_status\nlifted@test.org,paid\n", "?mode=update")).body).toMatchObject({ updated: 1 });
    expect(await memberRow(env, suspended.id)).toMatchObject({ payment_status: "paid", status_before_suspension: null });

    // A new member imported as suspended returns to the import's default, paid.
    expect((await importCsv("email,first_name,last_name,membership_end,payment_status\nnewsusp@test.org,New,Susp,2030-01-01,suspended\n")).body).toMatchObject({
      created: 1,
    });
    expect(await byEmail("newsusp@test.org")).toMatchObject({ payment_status: "suspended", status_before_suspension: "paid" });
    const h = await historyOf(env, pending.id);
    expect(h.map((x) => [x.action, x.from_status, x.to_status])).toEqual([
      ["import_update", "pending", "suspended"],
      ["reactivate", "suspended", "pending"],
    ]);
  });

  it("refuses a line whose membership_start is after its membership_end (the stored dates complete an update)", async () => {
    const stored = await seedMember(env, { email: "period@test.org", membership_start: "2025-03-01", membership_end: "2026-02-28" });
    const before = await all();
    const csv = [
      "email,first_name,last_name,membership_start,membership_end",
      "backwards@test.org,Back,Wards,2030-06-01,2030-05-31",
      "period@test.org,,,,2025-02-01",
      "period@test.org,,,2026-03-01,",
    ].join("\n");
    const res = await importCsv(csv, "?mode=update&allow_shorten=true&partial=true");
    expect(res.body).toMatchObject({ created: 0, updated: 0 });
    expect(res.body.errors.map((e: { line: number }) => e.line)).toEqual([2, 3, 4]);
    expect(res.body.errors[0].detail).toBe("La fin d'adhésion (2030-05-31) ne peut pas précéder son début (2030-06-01).");
    expect(res.body.errors[1].detail).toContain("(2025-02-01) ne peut pas précéder son début (2025-03-01)");
    expect(await all()).toEqual(before);
    expect(await memberRow(env, stored.id)).toEqual(stored);

    // Without a start in the file, an expired member's period is the club's (12 months) that ends on its end, never start > end.
    const old = await importCsv("email,first_name,last_name,membership_end\nexpired@test.org,Ex,Pired,2021-05-31\n");
    expect(old.body).toMatchObject({ created: 1, errors: [] });
    expect(await byEmail("expired@test.org")).toMatchObject({ membership_start: "2020-06-01", membership_end: "2021-05-31" });
  });

  it("starts a member the file gives no start at the beginning of the period that ends on its end, or today when that is later", async () => {
    const today = todayUtc();
    const season = addMonths(today, 3);
    const res = await importCsv(
      `email,first_name,last_name,membership_end\nseason@test.org,Last,Season,${season}\nlong@test.org,Paid,Ahead,${addMonths(today, 18)}\n`,
    );
    expect(res.body).toMatchObject({ created: 2, errors: [] });
    // Paid for the season that ends in three months: it began nine months ago (and they joined then).
    const member = await byEmail("season@test.org");
    expect(member).toMatchObject({ membership_start: addDays(addMonths(season, -12), 1), membership_end: season });
    expect(member?.created_at).toBe(`${addDays(addMonths(season, -12), 1)}T00:00:00.000Z`);
    // A period that would begin after today begins today.
    expect(await byEmail("long@test.org")).toMatchObject({ membership_start: today });
  });

  it("draws a referral code again on a collision, with the club's members and the file's earlier lines", async () => {
    await seedMember(env, { referral_code: "TAKEN777" });
    const draws = ["TAKEN777", "FRESH333", "FRESH333", "FRESH444"];
    const draw = codeSource.referral;
    codeSource.referral = () => draws.shift() ?? draw();
    try {
      const res = await importCsv("email,first_name,last_name,membership_end\ncode1@test.org,Code,One,2030-01-01\ncode2@test.org,Code,Two,2030-01-01\n");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ created: 2, errors: [], written: true });
    } finally {
      codeSource.referral = draw;
    }
    expect(draws).toEqual([]);
    expect([(await byEmail("code1@test.org"))?.referral_code, (await byEmail("code2@test.org"))?.referral_code]).toEqual(["FRESH333", "FRESH444"]);
  });

  it("refuses a file without an email column or without lines", async () => {
    expect((await importCsv("prénom,nom\nA,B\n")).body.errors[0]).toEqual({ line: 1, detail: expect.stringContaining("courriel") });
    expect((await importCsv("")).body.errors[0].line).toBe(1);
  });

  it("accepts a multipart form with the file in `file`", async () => {
    const form = new FormData();
    form.append("file", new Blob(["email,first_name,last_name,membership_end\nform@test.org,Form,Data,2030-01-01\n"], { type: "text/csv" }), "m.csv");
    const res = await env.call("POST", path(), { rawBody: form });
    expect(res.body).toMatchObject({ created: 1 });
  });

  it("never touches another club's member with the same email", async () => {
    const other = await env.otherClub();
    const theirs = await seedMember(env, { email: "shared@test.org", first_name: "Theirs" }, other.club_id);
    const res = await importCsv("email,first_name,last_name,membership_end\nshared@test.org,Mine,Mine,2030-01-01\n");
    expect(res.body.created).toBe(1);
    const [row] = await env.db.read.select().from(members).where(eq(members.id, theirs.id));
    expect(row.first_name).toBe("Theirs");
  });
});
