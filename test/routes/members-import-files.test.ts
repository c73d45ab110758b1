// POST /api/clubs/:club_id/members/import: files as spreadsheets save them. Windows-1252 without
// a BOM, UTF-16, semicolons and tabs, Excel's `sep=` line, headings in four languages, a missing
// column told with the headings recognised for it, and the export's formula guard taken off.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { importFile, memberRow, seedMember, setCustomFields } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
  await setCustomFields(env, [{ key: "note", label: "Note" }]);
});
afterAll(() => env.close());

const importBody = (body: BodyInit, qs = "") => importFile(env, body, qs);
const byEmail = async (email: string) => (await env.db.read.select().from(members).where(eq(members.club_id, env.clubId))).find((m) => m.email === email);

/** Windows-1252 bytes of `text` (Latin-1 letters are one byte each, as Excel writes them). */
const cp1252 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));

describe("encodings and separators", () => {
  it("reads a Windows-1252 file without BOM, separated by semicolons (Excel's CSV on a French or German Windows)", async () => {
    const bytes = cp1252("Prénom;Nom;E-Mail;Échéance\r\nZoé;Müller;zoe.muller@test.org;31.12.2030\r\nFrançois;Gärtner;francois@test.org;30.06.2031\r\n");
    expect(bytes[2]).toBe(0xe9); // é as one byte, not valid UTF-8
    const res = await importBody(bytes);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, errors: [], file: { encoding: "windows-1252", delimiter: ";" } });
    expect(await byEmail("zoe.muller@test.org")).toMatchObject({ first_name: "Zoé", last_name: "Müller", membership_end: "2030-12-31" });
    expect(await byEmail("francois@test.org")).toMatchObject({ first_name: "François", last_name: "Gärtner" });
  });

  it("reads a tab-separated file, and UTF-16 with its BOM (Excel's Unicode text)", async () => {
    const tab = await importBody("first name\tlast name\temail\tend date\nAgnès\tTab\ttab@test.org\t2030-12-31\n");
    expect(tab.body).toMatchObject({ created: 1, errors: [], file: { encoding: "utf-8", delimiter: "\t" } });
    expect(await byEmail("tab@test.org")).toMatchObject({ first_name: "Agnès", last_name: "Tab" });

    const text = "Vorname\tNachname\tE-Mail\tMitglied bis\r\nJürg\tŻółć\tutf16@test.org\t31.12.2030\r\n";
    const utf16 = new Uint8Array(2 + text.length * 2);
    utf16.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) new DataView(utf16.buffer).setUint16(2 + i * 2, text.charCodeAt(i), true);
    const res = await importBody(utf16);
    expect(res.body).toMatchObject({ created: 1, errors: [], file: { encoding: "utf-16le", delimiter: "\t" } });
    expect(await byEmail("utf16@test.org")).toMatchObject({ first_name: "Jürg", last_name: "Żółć" });
  });

  it("follows Excel's `sep=` first line and keeps the file's line numbers, also after a quoted cell over two lines", async () => {
    const csv =
      'sep=,\nfirst_name,last_name,email,membership_end,note\nAnne,"Favre, Jr",sep@test.org,2030-12-31,"two\nlines"\nBad,Line,not-an-email,2030-12-31,\n';
    const res = await importBody(csv, "?partial=true");
    expect(res.body).toMatchObject({ created: 1, file: { delimiter: "," } });
    expect(res.body.errors).toEqual([{ line: 5, detail: expect.stringContaining("not-an-email") }]);
    expect(await byEmail("sep@test.org")).toMatchObject({ last_name: "Favre, Jr", custom_fields: { note: "two\nlines" } });
  });
});

describe("headings", () => {
  it("recognises the end of membership as Mitglied bis, Enddatum, End date or Échéance (case and accents ignored)", async () => {
    const headings = ["Mitglied bis", "Enddatum", "End date", "Échéance", "ECHEANCE", "Fin d’adhésion"];
    for (const [i, heading] of headings.entries()) {
      const res = await importBody(`Vorname;Nachname;E-Mail;${heading}\nH${i};Heading;heading${i}@test.org;3${i % 2}.12.2030\n`);
      expect(res.body).toMatchObject({ created: 1, errors: [] });
      expect(res.body.file.columns[3]).toEqual({ heading, field: "membership_end" });
      expect((await byEmail(`heading${i}@test.org`))?.membership_end).toBe(`2030-12-3${i % 2}`);
    }
  });

  it("takes a spreadsheet's date-time as its date, and refuses a date followed by anything else", async () => {
    const res = await importBody(
      "first_name,last_name,email,membership_end\nDa,Time,datetime@test.org,2030-06-30 00:00:00\nGa,Rbage,garbage@test.org,2030-06-30Tgarbage\n",
    );
    expect(res.body.errors.map((e: { line: number }) => e.line)).toEqual([3]);
    expect(await byEmail("garbage@test.org")).toBeUndefined();
  });

  it("updates from a two-column file (email and end) in update mode", async () => {
    const m = await seedMember(env, { email: "two@test.org", membership_end: "2030-01-31" });
    const res = await importBody(cp1252("E-Mail;Mitglied bis\r\ntwo@test.org;31.01.2031\r\n"), "?mode=update");
    expect(res.body).toMatchObject({ updated: 1, errors: [] });
    expect(await memberRow(env, m.id)).toMatchObject({ membership_end: "2031-01-31", first_name: m.first_name, last_name: m.last_name });
  });

  it("names a missing column, the file's headings and those recognised for it, in the club's language", async () => {
    const csv = "Name;Vorname;E-Mail;Telefon\nMeier;Hans;hans@test.org;079\n";
    const fr = await importBody(csv);
    expect(fr.body).toMatchObject({ created: 0, written: false });
    expect(fr.body.errors).toHaveLength(1);
    expect(fr.body.errors[0].line).toBe(1);
    const detail: string = fr.body.errors[0].detail;
    expect(detail).toStartWith("Colonne introuvable : membership_end (en-têtes reconnus : « fin abonnement », « fin d'abonnement »");
    expect(detail).toContain("« Mitglied bis »");
    expect(detail).toContain("« Enddatum »");
    expect(detail).toContain("« end date »");
    expect(detail).toContain("« scadenza »");
    expect(detail).toEndWith("En-têtes du fichier : « Name », « Vorname », « E-Mail », « Telefon ».");
    expect(await byEmail("hans@test.org")).toBeUndefined();

    expect((await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { locale: "de" } })).status).toBe(200);
    try {
      const de = await importBody("Vorname;E-Mail\nHans;hans@test.org\n");
      expect(de.body.errors[0].detail).toStartWith("Spalte nicht gefunden: last_name (erkannte Überschriften: „Nachname“, „Familienname“, „Name“, „nom“");
      expect(de.body.errors[0].detail).toContain("Spalte nicht gefunden: membership_end (erkannte Überschriften: „Mitgliedschaftsende“, „Mitglied bis“");
      expect(de.body.errors[0].detail).toEndWith("Überschriften der Datei: „Vorname“, „E-Mail“.");
      // Update mode needs the email column alone.
      expect((await importBody("Vorname;Telefon\nHans;079\n", "?mode=update")).body.errors[0].detail).toStartWith("Spalte nicht gefunden: email");
    } finally {
      await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { locale: "fr" } });
    }
  });
});

describe("a file with no member in it", () => {
  it("is refused as an empty file is: a header line alone (or with blank lines under it) is an error naming the line, nothing written", async () => {
    const empty = await importBody("");
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ created: 0, written: false, errors: [{ line: 1, detail: "Le fichier est vide ou n'a pas de ligne d'en-tête." }] });
    for (const csv of ["first_name,last_name,email,membership_end\n", "sep=;\nfirst_name;last_name;email;membership_end\n;;;\n\n"]) {
      const res = await importBody(csv);
      expect({ csv, status: res.status, body: res.body }).toMatchObject({
        csv,
        status: 200,
        body: {
          created: 0,
          updated: 0,
          written: false,
          errors: [{ line: csv.startsWith("sep=") ? 2 : 1, detail: "Le fichier n'a aucune ligne de membre sous son en-tête." }],
        },
      });
    }
    const dry = await importBody("email,membership_end\n", "?mode=update&dry_run=true");
    expect(dry.body.errors).toEqual([{ line: 1, detail: "Le fichier n'a aucune ligne de membre sous son en-tête." }]);
  });
});

describe("the export's formula guard", () => {
  it("imports '=1+1 as =1+1, so an exported member re-imports unchanged", async () => {
    const res = await importBody("first_name,last_name,email,membership_end,note\n'=1+1,'-Dupont,formula@test.org,2030-12-31,'@home\n");
    expect(res.body).toMatchObject({ created: 1, errors: [] });
    const m = await byEmail("formula@test.org");
    expect(m).toMatchObject({ first_name: "=1+1", last_name: "-Dupont", custom_fields: { note: "@home" } });
    // A quote before anything else is the name's own.
    await importBody("first_name,last_name,email,membership_end\n'Ohana,O'Brien,quote@test.org,2030-12-31\n");
    expect(await byEmail("quote@test.org")).toMatchObject({ first_name: "'Ohana", last_name: "O'Brien" });

    const exported = await env.call("GET", `/api/clubs/${env.clubId}/members/export?member_ids=${m?.id}`);
    expect(exported.text).toContain(`"'=1+1","'-Dupont"`);
    const again = await importBody(exported.text, "?mode=update");
    expect(again.body).toMatchObject({ updated: 0, skipped: 1, errors: [] });
    expect(await byEmail("formula@test.org")).toEqual(m);
  });
});
