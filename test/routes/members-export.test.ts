// GET /api/clubs/:club_id/members/export (CSV and PDF)
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { asc, eq } from "drizzle-orm";
import { clubs, members } from "../../db/schema";
import { newMemberRow } from "../../lib/members";
import { EXPORT_PAGE, toCsv } from "../../lib/members/export";
import { ROWS_PER_PAGE } from "../../lib/members/roster";
import { authCases } from "../auth-cases";
import { setup, type TestEnv } from "../helpers";
import { addDays, seedMember, todayUtc } from "../members-fixtures";

let env: TestEnv;
const today = todayUtc();
const ids: Record<string, string> = {};
beforeAll(async () => {
  env = await setup();
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({ custom_fields_schema: [{ key: "licence", label: "N° de licence" }, { key: "size", label: "Taille" }, { label: "no key" }] })
      .where(eq(clubs.id, env.clubId)),
  );
  const mk = async (name: string, over: Parameters<typeof seedMember>[1]) => {
    ids[name] = (await seedMember(env, over)).id;
  };
  await mk("comma", {
    first_name: "Jean, Jr.",
    last_name: "Dupont",
    email: "jean@test.org",
    custom_fields: { licence: "L-1", size: "M" },
    created_at: "2024-01-01T00:00:00.000Z",
  });
  await mk("quote", { first_name: 'Marie "Mimi"', last_name: "Zbinden", email: "marie@test.org", created_at: "2024-01-02T00:00:00.000Z" });
  await mk("formula", { first_name: "=HYPERLINK(1)", last_name: "Aebischer", email: "formula@test.org", created_at: "2024-01-03T00:00:00.000Z" });
  await mk("accent", {
    first_name: "Łukasz",
    last_name: "Żółć",
    email: "lukasz@test.org",
    payment_status: "suspended",
    created_at: "2024-01-04T00:00:00.000Z",
  });
  await mk("french", {
    first_name: "Hélène",
    last_name: "Böhm",
    email: "helene@test.org",
    membership_end: addDays(today, -3),
    created_at: "2024-01-05T00:00:00.000Z",
  });
  await mk("czech", { first_name: "Jiří", last_name: "Čapek", email: "jiri@test.org", created_at: "2024-01-06T00:00:00.000Z" });
});
afterAll(() => env.close());

const path = () => `/api/clubs/${env.clubId}/members/export`;
const slug = async () => (await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId)))[0].slug;

async function raw(qs: string) {
  const res = await env.app.handle(new Request(`http://localhost${path()}${qs}`, { headers: { authorization: `Bearer ${env.key}` } }));
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("GET /api/clubs/:club_id/members/export", () => {
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/members/export`, scope: "members:view" });

  it("CSV: BOM, SPEC columns then custom fields, escaped commas, quotes, formulas and accents", async () => {
    const { res, bytes } = await raw("");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="members-${await slug()}-${today}.csv"`);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const lines = text.split("\r\n");
    expect(lines[0]).toBe(
      "id,referral_code,pass_serial_number,first_name,last_name,email,membership_start,membership_end,payment_status,payment_method,created_at,licence,size",
    );
    expect(lines).toHaveLength(7);
    expect(lines[1]).toContain(`${ids.comma},`);
    expect(lines[1]).toContain(',"Jean, Jr.",Dupont,jean@test.org,');
    expect(lines[1]).toEndWith(",2024-01-01T00:00:00.000Z,L-1,M");
    expect(lines[2]).toContain(',"Marie ""Mimi""",Zbinden,');
    expect(lines[2]).toEndWith(",,");
    expect(lines[3]).toContain(',"\'=HYPERLINK(1)",Aebischer,');
    expect(lines[4]).toContain(",Łukasz,Żółć,lukasz@test.org,");
    expect(lines[4]).toContain(",suspended,");
    expect(lines[5]).toContain(",Hélène,Böhm,");
    const parsed = Papa.parse<Record<string, string>>(text, { header: true }).data;
    expect(parsed[0].first_name).toBe("Jean, Jr.");
    expect(parsed[1].first_name).toBe('Marie "Mimi"');
  });

  it("member_ids keeps only those members; an invalid list is a 422", async () => {
    const { res, bytes } = await raw(`?member_ids=${ids.quote},${ids.czech}`);
    expect(res.status).toBe(200);
    const lines = new TextDecoder().decode(bytes).split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toStartWith(ids.quote);
    expect(lines[2]).toStartWith(ids.czech);
    for (const bad of ["nope", `${ids.quote},123`, ",", ""]) {
      const r = await env.call("GET", `${path()}?member_ids=${bad}`);
      expect(r.status).toBe(422);
      expect(r.body.detail[0].loc).toEqual(["query", "member_ids"]);
    }
    expect((await env.call("GET", `${path()}?format=xls`)).status).toBe(422);
  });

  it("never exports another club's members, even by id", async () => {
    const other = await env.otherClub();
    const theirs = await seedMember(env, { first_name: "Intrus" }, other.club_id);
    const { bytes } = await raw(`?member_ids=${theirs.id}`);
    const only = new TextDecoder().decode(bytes);
    expect(only.split("\r\n").filter(Boolean)).toHaveLength(1);
    expect(only).not.toContain(theirs.id);
    const all = new TextDecoder().decode((await raw("")).bytes);
    expect(all).not.toContain("Intrus");
  });

  it("PDF: an A4 roster sorted by last then first name, with headers, club name, date, statuses and Polish names", async () => {
    const { res, bytes } = await raw("?format=pdf");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="members-${await slug()}-${today}.pdf"`);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    const file = join(env.dir, "roster.pdf");
    writeFileSync(file, bytes);
    const proc = Bun.spawnSync(["pdftotext", "-layout", file, "-"]);
    expect(proc.exitCode).toBe(0);
    const text = proc.stdout.toString();
    expect(text).toContain("Club de test");
    expect(text).toContain(today);
    expect(text).toMatch(/nom\s+prénom\s+email\s+fin abonnement\s+statut/);
    expect(text).toContain("Łukasz");
    expect(text).toContain("Żółć");
    expect(text).toContain("Čapek");
    expect(text).toContain("Jiří");
    expect(text).toContain("Hélène");
    expect(text).toContain("page 1 / 1");
    const order = ["Aebischer", "Böhm", "Čapek", "Dupont", "Zbinden", "Żółć"].map((n) => text.indexOf(n));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const line = (name: string) => text.split("\n").find((l) => l.includes(name)) ?? "";
    expect(line("Żółć")).toContain("suspendu");
    expect(line("Böhm")).toContain("expiré");
    expect(line("Dupont")).toContain("actif");
    const proc2 = Bun.spawnSync(["pdfinfo", file]);
    expect(proc2.stdout.toString()).toMatch(/Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);
  });

  it("PDF: in every language each heading stands clear of the next, at least 3 mm apart (word boxes from pdftotext -bbox)", async () => {
    const headings = {
      fr: ["nom", "prénom", "email", "fin abonnement", "statut"],
      en: ["last name", "first name", "email", "membership end", "status"],
      de: ["Nachname", "Vorname", "E-Mail", "Mitgliedschaftsende", "Status"],
      it: ["cognome", "nome", "email", "fine abbonamento", "stato"],
    };
    const MM = 72 / 25.4;
    try {
      for (const [locale, expected] of Object.entries(headings)) {
        await env.db.tx((t) => t.update(clubs).set({ locale }).where(eq(clubs.id, env.clubId)));
        const file = join(env.dir, `roster-${locale}.pdf`);
        writeFileSync(file, (await raw("?format=pdf")).bytes);
        const html = Bun.spawnSync(["pdftotext", "-bbox", "-f", "1", "-l", "1", file, "-"]).stdout.toString();
        const words = Array.from(html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g), (m) => ({
          x0: Number(m[1]),
          y: Number(m[2]),
          x1: Number(m[3]),
          text: m[4],
        }));
        // The heading line is the one that starts with the first heading.
        const y = words.find((w) => w.text === expected[0].split(" ")[0])?.y;
        const line = words.filter((w) => w.y === y).sort((a, b) => a.x0 - b.x0);
        expect(line.map((w) => w.text).join(" ")).toBe(expected.join(" "));
        let i = 0;
        const cells = expected.map((h) => {
          const own = line.slice(i, i + h.split(" ").length);
          i += own.length;
          return { x0: own[0].x0, x1: own[own.length - 1].x1 };
        });
        for (let c = 1; c < cells.length; c++) expect((cells[c].x0 - cells[c - 1].x1) / MM).toBeGreaterThanOrEqual(3);
      }
    } finally {
      await env.db.tx((t) => t.update(clubs).set({ locale: "fr" }).where(eq(clubs.id, env.clubId)));
    }
  });

  it("CSV of more members than a streamed page: every member once, in order, one header, the bytes of toCsv", async () => {
    const big = await setup();
    const n = EXPORT_PAGE * 2 + 37;
    await seedMany(big, n, (i) => ({ first_name: i === 5 ? "=cmd" : "Anna", last_name: `Nom${i}` }));
    const res = await exportOf(big, "");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe(String(n));
    const text = await res.text();
    const all = await big.db.read.select().from(members).where(eq(members.club_id, big.clubId)).orderBy(asc(members.created_at), asc(members.id));
    expect(text).toBe(toCsv(all, []).replace(/^\uFEFF/, ""));
    const parsed = Papa.parse<Record<string, string>>(text, { header: true }).data;
    expect(parsed).toHaveLength(n);
    expect(new Set(parsed.map((r) => r.id)).size).toBe(n);
    expect(parsed.filter((r) => r.id === "id")).toHaveLength(0);
    expect(parsed.find((r) => r.email === "m5@test.org")?.first_name).toBe("'=cmd");
    await big.close();
  });

  it("PDF of member_ids: only those members, still in roster order", async () => {
    const { res, bytes } = await raw(`?format=pdf&member_ids=${ids.quote},${ids.formula}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe("2");
    const file = join(env.dir, "some.pdf");
    writeFileSync(file, bytes);
    const text = Bun.spawnSync(["pdftotext", "-layout", file, "-"]).stdout.toString();
    expect(text).not.toContain("Dupont");
    expect(text.indexOf("Aebischer")).toBeGreaterThan(0);
    expect(text.indexOf("Aebischer")).toBeLessThan(text.indexOf("Zbinden"));
  });

  it("PDF of a club larger than a read page: streamed in chunks, every member once, sorted, pages numbered", async () => {
    const big = await setup();
    const n = EXPORT_PAGE + 50;
    // Reverse of the creation order, so that the roster's order is not the order read.
    await seedMany(big, n, (i) => ({ first_name: "Anna", last_name: `Nom${String(n - i).padStart(5, "0")}` }));
    const res = await exportOf(big, "?format=pdf");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-total-count")).toBe(String(n));
    const chunks: Uint8Array[] = [];
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.length).toBeGreaterThan(10);
    const file = join(big.dir, "large.pdf");
    writeFileSync(file, Buffer.concat(chunks));
    const info = Bun.spawnSync(["pdfinfo", file]);
    expect(info.stderr.toString()).toBe("");
    const pages = Math.ceil(n / ROWS_PER_PAGE);
    expect(info.stdout.toString()).toMatch(new RegExp(`Pages:\\s+${pages}\\n`));
    const text = Bun.spawnSync(["pdftotext", "-layout", file, "-"]).stdout.toString();
    const names = Array.from(text.matchAll(/Nom\d{5}/g), (m) => m[0]);
    expect(names).toHaveLength(n);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(n);
    expect(text).toContain(`page ${pages} / ${pages}`);
    await big.close();
  });

  it("PDF: more members than a page holds get numbered pages", async () => {
    const big = await setup();
    for (let i = 0; i < 60; i++) await seedMember(big, { last_name: `Nom${String(i).padStart(2, "0")}` });
    const res = await exportOf(big, "?format=pdf");
    const file = join(big.dir, "big.pdf");
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    const text = Bun.spawnSync(["pdftotext", file, "-"]).stdout.toString();
    expect(text).toContain("page 1 / 2");
    expect(text).toContain("page 2 / 2");
    expect(text.indexOf("Nom00")).toBeLessThan(text.indexOf("Nom59"));
    await big.close();
  });
});

/**
 * `n` members of `club`'s own with the names `names(i)` gives. Groups of three share a creation
 * time, so that a page boundary of the export's reads falls inside ties.
 */
async function seedMany(club: TestEnv, n: number, names: (i: number) => { first_name: string; last_name: string }) {
  const start = Date.parse("2024-01-01T00:00:00.000Z");
  const rows = Array.from({ length: n }, (_, i) =>
    newMemberRow(club.clubId, {
      ...names(i),
      email: `m${i}@test.org`,
      membership_start: today,
      membership_end: addDays(today, 30),
      payment_status: "paid",
      created_at: new Date(start + Math.floor(i / 3) * 1000).toISOString(),
    }),
  );
  await club.db.tx(async (t) => {
    for (let i = 0; i < rows.length; i += 500) await t.insert(members).values(rows.slice(i, i + 500));
  });
}

function exportOf(club: TestEnv, query: string) {
  return club.app.handle(new Request(`http://localhost/api/clubs/${club.clubId}/members/export${query}`, { headers: { authorization: `Bearer ${club.key}` } }));
}
