// The member export (SPEC rules 1-3): CSV (UTF-8 with a BOM, SPEC columns then the club's
// custom fields, spreadsheet formulas neutralised) or an A4 PDF roster sorted by last then first
// name, in an embedded DejaVu Sans font so that names outside Latin-1 (Polish, Czech) print.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import { jsPDF } from "jspdf";
import Papa from "papaparse";
import { members } from "../../db/schema";
import { verb } from "../auth/guard";
import type { Ctx } from "../context";
import { ValidationFailed } from "../errors";
import { asLocale, type Locale } from "../i18n";
import { clubSettings } from "./index";
import type { MemberRow } from "./internal";
import type { MemberExportQuery, MemberStatus } from "./schemas";
import { derivedStatus, todayUtc } from "./status";

export const CSV_COLUMNS = [
  "id",
  "referral_code",
  "pass_serial_number",
  "first_name",
  "last_name",
  "email",
  "membership_start",
  "membership_end",
  "payment_status",
  "payment_method",
  "created_at",
] as const;

export type CustomField = { key: string; label: string };

/** The club's custom field definitions that have a usable `key` (label defaults to the key). */
export function customFieldsOf(schema: unknown): CustomField[] {
  if (!Array.isArray(schema)) return [];
  const out: CustomField[] = [];
  for (const f of schema) {
    const key = f && typeof f === "object" ? (f as { key?: unknown }).key : undefined;
    if (typeof key !== "string" || !key || (CSV_COLUMNS as readonly string[]).includes(key) || out.some((o) => o.key === key)) continue;
    const label = (f as { label?: unknown }).label;
    out.push({ key, label: typeof label === "string" && label ? label : key });
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `member_ids` as a list of uuids (422 on anything else); undefined for all members. */
export function parseMemberIds(input: string | string[] | undefined): string[] | undefined {
  if (input === undefined) return undefined;
  const ids = (Array.isArray(input) ? input.join(",") : input)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!ids.length || ids.some((id) => !UUID.test(id))) throw new ValidationFailed([{ loc: ["query", "member_ids"], code: "INVALID_MEMBER_IDS" }]);
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

function memberCondition(ctx: Ctx, ids: string[] | undefined): SQL {
  const where: SQL[] = [eq(members.club_id, ctx.clubId)];
  if (ids) where.push(inArray(members.id, ids));
  return and(...where) as SQL;
}

function cell(value: unknown): string | number {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

type CsvRow = Pick<MemberRow, (typeof CSV_COLUMNS)[number]> & { custom_fields?: MemberRow["custom_fields"] };

/** The CSV text (with its BOM and header row; with `header: false`, the rows alone). */
export function toCsv(rows: CsvRow[], custom: CustomField[], options: { header?: boolean } = {}): string {
  const header = options.header ?? true;
  const fields = [...CSV_COLUMNS, ...custom.map((c) => c.key)];
  // SPEC columns are text or null, which papaparse writes as they are (null as an empty cell).
  const data = custom.length
    ? rows.map((m) => [...CSV_COLUMNS.map((c) => m[c]), ...custom.map((c) => cell(m.custom_fields?.[c.key]))])
    : rows.map((m) => CSV_COLUMNS.map((c) => m[c]));
  const text = Papa.unparse({ fields, data }, { escapeFormulae: true, header });
  return header ? `\uFEFF${text}` : text;
}

const PDF_TEXT: Record<Locale, { headers: string[]; status: Record<MemberStatus, string>; title: string; page: string }> = {
  fr: {
    headers: ["nom", "prénom", "email", "fin abonnement", "statut"],
    status: { active: "actif", expired: "expiré", pending: "en attente", suspended: "suspendu" },
    title: "Liste des membres",
    page: "page {n} / {total}",
  },
  en: {
    headers: ["last name", "first name", "email", "membership end", "status"],
    status: { active: "active", expired: "expired", pending: "pending", suspended: "suspended" },
    title: "Member list",
    page: "page {n} / {total}",
  },
  de: {
    headers: ["Nachname", "Vorname", "E-Mail", "Mitgliedschaftsende", "Status"],
    status: { active: "aktiv", expired: "abgelaufen", pending: "ausstehend", suspended: "gesperrt" },
    title: "Mitgliederliste",
    page: "Seite {n} / {total}",
  },
  it: {
    headers: ["cognome", "nome", "email", "fine abbonamento", "stato"],
    status: { active: "attivo", expired: "scaduto", pending: "in attesa", suspended: "sospeso" },
    title: "Elenco dei membri",
    page: "pagina {n} / {total}",
  },
};

let fontBase64: string | null = null;
/** DejaVu Sans from the `dejavu-fonts-ttf` npm package: installed with the project, no system font needed. */
function dejavu(): string {
  if (!fontBase64) {
    const path = createRequire(import.meta.url).resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf");
    fontBase64 = readFileSync(path).toString("base64");
  }
  return fontBase64;
}

/** Last name, then first name, in the club's language's alphabetical order. */
export function rosterOrder<R extends Pick<MemberRow, "id" | "first_name" | "last_name">>(rows: R[], locale: Locale): R[] {
  const collator = new Intl.Collator(locale, { sensitivity: "base" });
  return [...rows].sort((a, b) => collator.compare(a.last_name, b.last_name) || collator.compare(a.first_name, b.first_name) || a.id.localeCompare(b.id));
}

type PdfRow = Pick<MemberRow, "id" | "first_name" | "last_name" | "email" | "membership_end" | "payment_status">;

export function toPdf(rows: PdfRow[], club: { name: string }, locale: Locale, today: string): Uint8Array {
  const text = PDF_TEXT[locale];
  const doc = new jsPDF({ unit: "mm", format: "a4", orientation: "portrait" });
  doc.addFileToVFS("DejaVuSans.ttf", dejavu());
  doc.addFont("DejaVuSans.ttf", "DejaVu", "normal");
  doc.setFont("DejaVu", "normal");
  doc.setProperties({ title: `${club.name} — ${text.title}` });
  const left = 15;
  const widths = [34, 30, 60, 28, 28];
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const fit = (s: string, w: number) => {
    if (doc.getTextWidth(s) <= w - 2) return s;
    let out = s;
    while (out.length > 1 && doc.getTextWidth(`${out}…`) > w - 2) out = out.slice(0, -1);
    return `${out}…`;
  };
  const header = () => {
    doc.setFontSize(14);
    doc.text(club.name, left, 15);
    doc.setFontSize(9);
    doc.text(`${text.title} — ${today}`, left, 21);
    doc.setFontSize(9);
    text.headers.forEach((h, i) => {
      doc.text(h, xs[i], 30);
    });
    doc.line(left, 32, 195, 32);
    return 37;
  };
  let y = header();
  const sorted = rosterOrder(rows, locale);
  for (const m of sorted) {
    if (y > 280) {
      doc.addPage();
      y = header();
    }
    const cells = [m.last_name, m.first_name, m.email, m.membership_end, text.status[derivedStatus(m, today)]];
    cells.forEach((c, i) => {
      doc.text(fit(c, widths[i]), xs[i], y);
    });
    y += 6;
  }
  const total = doc.getNumberOfPages();
  for (let n = 1; n <= total; n++) {
    doc.setPage(n);
    doc.setFontSize(8);
    doc.text(text.page.replace("{n}", String(n)).replace("{total}", String(total)), 195, 290, { align: "right" });
  }
  return new Uint8Array(doc.output("arraybuffer"));
}

export type ExportFile = { filename: string; contentType: string; body: string | Uint8Array | ReadableStream<Uint8Array>; count: number };

/** Only the columns a file shows: reading all forty of 10,000 members cost more than writing the CSV. */
const CSV_SELECTION = {
  ...(Object.fromEntries(CSV_COLUMNS.map((c) => [c, members[c]])) as { [K in (typeof CSV_COLUMNS)[number]]: (typeof members)[K] }),
  custom_fields: members.custom_fields,
};
const PDF_SELECTION = {
  id: members.id,
  first_name: members.first_name,
  last_name: members.last_name,
  email: members.email,
  membership_end: members.membership_end,
  payment_status: members.payment_status,
};
const OLDEST_FIRST = [asc(members.created_at), asc(members.id)];

/** Members of a streamed CSV read at a time. */
export const CSV_PAGE = 1000;

function csvRows(ctx: Ctx, ids: string[]) {
  return ctx.db.read
    .select(CSV_SELECTION)
    .from(members)
    .where(memberCondition(ctx, ids))
    .orderBy(...OLDEST_FIRST);
}

/** The page of members after (created_at, id) in the export's order; a prepared query (Db.prepareRead). */
function csvPage(ctx: Ctx, after: { created_at: string; id: string }) {
  const p = (name: string) => sql.placeholder(name);
  return ctx.db
    .prepareRead("members.export.csvPage", (q) =>
      q
        .select(CSV_SELECTION)
        .from(members)
        .where(and(eq(members.club_id, p("club")), sql`(${members.created_at}, ${members.id}) > (${p("created_at")}, ${p("id")})`))
        .orderBy(...OLDEST_FIRST)
        .limit(CSV_PAGE),
    )
    .execute({ club: ctx.clubId, created_at: after.created_at, id: after.id });
}

/**
 * Every member of the club as a CSV stream, read and written a page at a time (keyset on
 * created_at, id: neither changes), so that a large club never sits whole in memory. The bytes
 * are those of `toCsv` on all the rows. Pages are separate reads: a member added meanwhile may
 * or may not appear, none appears twice.
 */
function csvStream(ctx: Ctx, custom: CustomField[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = { created_at: "", id: "" };
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const rows = await csvPage(ctx, after);
      if (first) {
        first = false;
        controller.enqueue(encoder.encode(toCsv(rows, custom)));
      } else if (rows.length) {
        controller.enqueue(encoder.encode(`\r\n${toCsv(rows, custom, { header: false })}`));
      }
      if (rows.length < CSV_PAGE) controller.close();
      else after = rows[rows.length - 1];
    },
  });
}

function pdfRows(ctx: Ctx, ids: string[] | undefined) {
  if (ids)
    return ctx.db.read
      .select(PDF_SELECTION)
      .from(members)
      .where(memberCondition(ctx, ids))
      .orderBy(...OLDEST_FIRST);
  return ctx.db
    .prepareRead("members.export.pdf", (q) =>
      q
        .select(PDF_SELECTION)
        .from(members)
        .where(eq(members.club_id, sql.placeholder("club")))
        .orderBy(...OLDEST_FIRST),
    )
    .execute({ club: ctx.clubId });
}

/**
 * The club's members (or those of `member_ids`) as a CSV or PDF file. The CSV of the whole club
 * is a stream (see `csvStream`); `count` is the number of members when the export began.
 */
export const exportMembers = verb("members:view", async (ctx: Ctx, input: MemberExportQuery): Promise<ExportFile> => {
  const ids = parseMemberIds(input.member_ids);
  const club = await clubSettings(ctx.db.read, ctx.clubId);
  const today = todayUtc();
  const base = `members-${club.slug}-${today}`;
  if (input.format === "pdf") {
    const rows = await pdfRows(ctx, ids);
    return { filename: `${base}.pdf`, contentType: "application/pdf", body: toPdf(rows, club, asLocale(club.locale), today), count: rows.length };
  }
  const file = { filename: `${base}.csv`, contentType: "text/csv; charset=utf-8" };
  const custom = customFieldsOf(club.custom_fields_schema);
  if (ids) {
    const rows = await csvRows(ctx, ids);
    return { ...file, body: toCsv(rows, custom), count: rows.length };
  }
  return { ...file, body: csvStream(ctx, custom), count: await memberCount(ctx, undefined) };
});

async function memberCount(ctx: Ctx, ids: string[] | undefined): Promise<number> {
  const [{ n }] = await ctx.db.read.select({ n: count() }).from(members).where(memberCondition(ctx, ids));
  return n;
}

/** The file as an HTTP download. */
export function fileResponse(file: ExportFile): Response {
  return new Response(file.body as BodyInit, {
    headers: { "content-type": file.contentType, "content-disposition": `attachment; filename="${file.filename}"`, "x-total-count": String(file.count) },
  });
}

export const ASSISTANT_EXPORT_LIMIT = 500;

/**
 * The CSV for an assistant: the text itself up to 500 members, else the count and the export
 * URL (a download for the key's holder) so that a conversation is not flooded.
 */
export const exportMembersForAssistant = verb("members:view", async (ctx: Ctx, input: { member_ids?: string | null }) => {
  const ids = parseMemberIds(input.member_ids ?? undefined);
  const n = await memberCount(ctx, ids);
  if (n > ASSISTANT_EXPORT_LIMIT) {
    const qs = input.member_ids ? `?member_ids=${encodeURIComponent(input.member_ids)}` : "";
    return { count: n, csv: null, url: `${ctx.baseUrl}/api/clubs/${ctx.clubId}/members/export${qs}` };
  }
  const club = await clubSettings(ctx.db.read, ctx.clubId);
  const rows = await ctx.db.read
    .select(CSV_SELECTION)
    .from(members)
    .where(memberCondition(ctx, ids))
    .orderBy(...OLDEST_FIRST);
  return { count: n, csv: toCsv(rows, customFieldsOf(club.custom_fields_schema)).replace(/^\uFEFF/, ""), url: null };
});
