// The member export (SPEC rules 1-3): CSV (UTF-8 with a BOM, SPEC columns then the club's
// custom fields, spreadsheet formulas neutralised) or the A4 PDF roster (./roster.ts). Both are
// streams for the whole club, so that a large club never sits whole in memory as a file.
import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import { clubMembersIn } from "../../db";
import { members } from "../../db/schema";
import { verb } from "../context";
import type { Ctx } from "../context";
import { csvLines } from "../csv";
import { ValidationFailed } from "../errors";
import { asLocale } from "../i18n";
import { lazy } from "../lazy";
import { clubSettings } from "../clubs/internal";
import { logoForPdf } from "../clubs/logo";
import type { FileReply } from "../reply";
import type { MemberRow } from "./internal";
import type { RosterRow, RosterSource } from "./roster";
import type { MemberExportQuery } from "./schemas";
import { todayUtc } from "./status";

/** The PDF writer and its font load with the first PDF export. */
const roster = lazy(() => import("./roster"));

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
  return ids ? clubMembersIn(ctx.clubId, ids) : eq(members.club_id, ctx.clubId);
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
  return header ? `\uFEFF${csvLines(data, fields)}` : csvLines(data);
}

/** The file (a download: lib/reply) and the number of members it holds. */
export type ExportFile = FileReply & { filename: string; contentType: string; body: string | Uint8Array | ReadableStream<Uint8Array>; count: number };

/** Only the columns a file shows: reading all forty of 10,000 members cost more than writing the CSV. */
const CSV_SELECTION = {
  ...(Object.fromEntries(CSV_COLUMNS.map((c) => [c, members[c]])) as { [K in (typeof CSV_COLUMNS)[number]]: (typeof members)[K] }),
  custom_fields: members.custom_fields,
};
const ROSTER_SELECTION = {
  id: members.id,
  first_name: members.first_name,
  last_name: members.last_name,
  email: members.email,
  membership_end: members.membership_end,
  payment_status: members.payment_status,
  sort_name: members.sort_name,
};
const OLDEST_FIRST = [asc(members.created_at), asc(members.id)];
const BY_NAME = [asc(members.sort_name), asc(members.id)];

/** Members read at a time when a whole club is exported. */
export const EXPORT_PAGE = 1000;

type CsvExportRow = Awaited<ReturnType<typeof csvRows>>[number];
type RosterExportRow = RosterRow & { sort_name: string };
/** Where the previous page ended: the order's column, then the id (which breaks ties). */
type Keyset = { key: string; id: string };

/** The CSV rows of `ids` (undefined: the whole club), oldest first. */
function csvRows(ctx: Ctx, ids: string[] | undefined) {
  return ctx.db.read
    .select(CSV_SELECTION)
    .from(members)
    .where(memberCondition(ctx, ids))
    .orderBy(...OLDEST_FIRST);
}

/**
 * The page of the club's members after `after` in the order of `key` then id, with `selection`'s
 * columns; a prepared query (Db.prepareRead) per name.
 */
function pageAfter<R>(
  ctx: Ctx,
  name: string,
  selection: typeof CSV_SELECTION | typeof ROSTER_SELECTION,
  key: typeof members.created_at | typeof members.sort_name,
  after: Keyset,
): Promise<R[]> {
  const p = (placeholder: string) => sql.placeholder(placeholder);
  return ctx.db
    .prepareRead(name, (q) =>
      q
        .select(selection as typeof ROSTER_SELECTION)
        .from(members)
        .where(and(eq(members.club_id, p("club")), sql`(${key}, ${members.id}) > (${p("key")}, ${p("id")})`))
        .orderBy(asc(key), asc(members.id))
        .limit(EXPORT_PAGE),
    )
    .execute({ club: ctx.clubId, key: after.key, id: after.id }) as Promise<R[]>;
}

/**
 * Every member of the club as a CSV stream, read and written a page at a time (keyset on
 * created_at, id: neither changes), so that a large club never sits whole in memory. The bytes
 * are those of `toCsv` on all the rows. Pages are separate reads: a member added meanwhile may
 * or may not appear, none appears twice.
 */
function csvStream(ctx: Ctx, custom: CustomField[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: Keyset = { key: "", id: "" };
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const rows = await pageAfter<CsvExportRow>(ctx, "members.export.csvPage", CSV_SELECTION, members.created_at, after);
      if (first) {
        first = false;
        controller.enqueue(encoder.encode(toCsv(rows, custom)));
      } else if (rows.length) {
        controller.enqueue(encoder.encode(`\r\n${toCsv(rows, custom, { header: false })}`));
      }
      const last = rows[rows.length - 1];
      if (rows.length < EXPORT_PAGE) controller.close();
      else after = { key: last.created_at, id: last.id };
    },
  });
}

/**
 * The roster's rows in its order (last then first name: `sort_name`, then id), for `rosterPdf`
 * to read as it writes. The whole club is read a page at a time by keyset, so that only the
 * pages being printed are held; a member renamed by an import during the download may be
 * printed under either name. `member_ids` (bounded by the URL) are read at once.
 */
async function rosterSource(ctx: Ctx, ids: string[] | undefined): Promise<RosterSource> {
  if (ids) {
    let rows: RosterRow[] = await ctx.db.read
      .select(ROSTER_SELECTION)
      .from(members)
      .where(memberCondition(ctx, ids))
      .orderBy(...BY_NAME);
    return {
      total: rows.length,
      async next() {
        const out = rows;
        rows = [];
        return out;
      },
    };
  }
  let after: Keyset = { key: "", id: "" };
  return {
    total: await memberCount(ctx, undefined),
    async next() {
      const rows = await pageAfter<RosterExportRow>(ctx, "members.export.rosterPage", ROSTER_SELECTION, members.sort_name, after);
      const last = rows[rows.length - 1];
      if (last) after = { key: last.sort_name, id: last.id };
      return rows;
    },
  };
}

/**
 * The club's members (or those of `member_ids`) as a CSV or PDF file. Both files of the whole
 * club are streams (`csvStream`, `rosterPdf`); `count` is the number of members when the export
 * began.
 */
export const exportMembers = verb("members:view", async function exportMembers(ctx: Ctx, input: MemberExportQuery): Promise<ExportFile> {
  const ids = parseMemberIds(input.member_ids);
  const club = await clubSettings(ctx.db.read, ctx.clubId);
  const today = todayUtc();
  const base = `members-${club.slug}-${today}`;
  if (input.format === "pdf") {
    const source = await rosterSource(ctx, ids);
    const { rosterPdf } = await roster();
    const logo = await logoForPdf(ctx.db.read, ctx.clubId);
    return {
      filename: `${base}.pdf`,
      contentType: "application/pdf",
      body: rosterPdf(source, { name: club.name, logo }, asLocale(club.locale), today),
      count: source.total,
    };
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

export const ASSISTANT_EXPORT_LIMIT = 500;

/**
 * The CSV for an assistant: the text itself up to 500 members, else the count and the export
 * URL (a download for the key's holder) so that a conversation is not flooded.
 */
export const exportMembersForAssistant = verb("members:view", async function exportMembersForAssistant(ctx: Ctx, input: { member_ids?: string | null }) {
  const ids = parseMemberIds(input.member_ids ?? undefined);
  const n = await memberCount(ctx, ids);
  if (n > ASSISTANT_EXPORT_LIMIT) {
    const qs = input.member_ids ? `?member_ids=${encodeURIComponent(input.member_ids)}` : "";
    return { count: n, csv: null, url: `${ctx.baseUrl}/api/clubs/${ctx.clubId}/members/export${qs}` };
  }
  const club = await clubSettings(ctx.db.read, ctx.clubId);
  const rows = await csvRows(ctx, ids);
  return { count: n, csv: toCsv(rows, customFieldsOf(club.custom_fields_schema)).replace(/^\uFEFF/, ""), url: null };
});
