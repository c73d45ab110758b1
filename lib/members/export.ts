// The member export (SPEC rules 1-3): CSV (UTF-8 with a BOM, SPEC columns then the club's
// custom fields, spreadsheet formulas neutralised) or the A4 PDF roster (./roster.ts). Both are
// streams for the whole club, so that a large club never sits whole in memory as a file.
import { and, asc, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import Papa from "papaparse";
import { members } from "../../db/schema";
import { verb } from "../auth/guard";
import type { Ctx } from "../context";
import { ValidationFailed } from "../errors";
import { asLocale } from "../i18n";
import { clubSettings } from "./index";
import type { MemberRow } from "./internal";
import { type RosterRow, rosterPdf } from "./roster";
import type { MemberExportQuery } from "./schemas";
import { todayUtc } from "./status";

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
  created_at: members.created_at,
};
const OLDEST_FIRST = [asc(members.created_at), asc(members.id)];

/** Members read at a time when a whole club is exported. */
export const EXPORT_PAGE = 1000;

function csvRows(ctx: Ctx, ids: string[]) {
  return ctx.db.read
    .select(CSV_SELECTION)
    .from(members)
    .where(memberCondition(ctx, ids))
    .orderBy(...OLDEST_FIRST);
}

const SELECTIONS = { csv: CSV_SELECTION, pdf: PDF_SELECTION };
type ExportRow<K extends keyof typeof SELECTIONS> = {
  [C in keyof (typeof SELECTIONS)[K]]: (typeof SELECTIONS)[K][C] extends { _: { data: infer D; notNull: infer N } } ? (N extends true ? D : D | null) : never;
};

/**
 * The page of members after (created_at, id) in the export's order (keyset: neither changes),
 * with the columns of the `kind` of file; a prepared query (Db.prepareRead).
 */
function pageAfter<K extends keyof typeof SELECTIONS>(ctx: Ctx, kind: K, after: { created_at: string; id: string }): Promise<ExportRow<K>[]> {
  const p = (name: string) => sql.placeholder(name);
  return ctx.db
    .prepareRead(`members.export.${kind}Page`, (q) =>
      q
        .select(SELECTIONS[kind] as typeof CSV_SELECTION)
        .from(members)
        .where(and(eq(members.club_id, p("club")), sql`(${members.created_at}, ${members.id}) > (${p("created_at")}, ${p("id")})`))
        .orderBy(...OLDEST_FIRST)
        .limit(EXPORT_PAGE),
    )
    .execute({ club: ctx.clubId, created_at: after.created_at, id: after.id }) as Promise<ExportRow<K>[]>;
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
      const rows = await pageAfter(ctx, "csv", after);
      if (first) {
        first = false;
        controller.enqueue(encoder.encode(toCsv(rows, custom)));
      } else if (rows.length) {
        controller.enqueue(encoder.encode(`\r\n${toCsv(rows, custom, { header: false })}`));
      }
      if (rows.length < EXPORT_PAGE) controller.close();
      else after = rows[rows.length - 1];
    },
  });
}

/**
 * The roster's rows: those of `member_ids` (bounded by the URL) in one read, a whole club a page
 * at a time, so that only the rows themselves are held and never a second copy of them all.
 */
async function rosterRows(ctx: Ctx, ids: string[] | undefined): Promise<RosterRow[]> {
  if (ids) return ctx.db.read.select(PDF_SELECTION).from(members).where(memberCondition(ctx, ids));
  const rows: ExportRow<"pdf">[] = [];
  for (;;) {
    const page = await pageAfter(ctx, "pdf", rows[rows.length - 1] ?? { created_at: "", id: "" });
    for (const r of page) rows.push(r);
    if (page.length < EXPORT_PAGE) return rows;
  }
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
    const rows = await rosterRows(ctx, ids);
    return { filename: `${base}.pdf`, contentType: "application/pdf", body: rosterPdf(rows, club, asLocale(club.locale), today), count: rows.length };
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
