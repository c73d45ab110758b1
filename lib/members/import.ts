// Member import from a spreadsheet (reading the file itself: ./import-file.ts). Members are
// matched by email. Two modes: `create` (the default) adds the emails the club does not know and
// reports, untouched, each line whose email it knows (MEMBER_EXISTS); `update` also writes the
// known members, only in the columns the file has, and never moves a membership end earlier
// unless `allow_shorten` (END_NOT_SHORTENED). A member's tier comes from the file's tier column
// (the tier's name, accents and case ignored), else from `tier_id`, the import's default: a new
// member gets it, a known one only when it has no tier yet. Every faulty line is reported as
// {line, detail}; all or nothing unless `partial`. A dry run answers, line by line, what would change.
// Used by POST .../members/import, the MCP tool and the CLI.
//
// Three steps: `checkLine` (the file alone, no database; every line is checked before anything is
// written), `planBatch` (a batch of lines against the club's members), `writeBatch` (prepared
// statements). Only one batch is held at a time: the file is read again rather than kept as rows.
// The writing never holds the single writer for long (issue 18): each batch is its own short
// transaction, behind the club's import lock, journalled so that an import stopped half-way
// (an error, a crash) is undone (./import-journal.ts).
import { and, type Column, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, inPieces, type Queryable, rowSlot, slotRows, slotValues } from "../../db";
import { typedParam } from "../../db/dialect";
import { lockRows } from "../../db/locks";
import { memberHistory, members, tiers as tierTable } from "../../db/schema";
import { type Progress, verb } from "../context";
import { ValidationFailed } from "../errors";
import { memberPassChanged, queueMarkedPassUpdate } from "../passes";
import type { Ctx } from "../context";
import { type Locale, t as translate } from "../i18n";
import type { MessageCode } from "../i18n/messages";
import { nowIso } from "../ids";
import { stepwiseDb } from "../idempotency";
import { isOneLine, isPlainText } from "../schema-types";
import { customFieldsOf } from "./export";
import { clubSettings } from "../clubs/internal";
import { foldTierName } from "../tiers/internal";
import { newMemberRow } from "./index";
import { type Field, foldHeading, isBlank, type Row, readSheet, recognisedHeadings, type SheetFile } from "./import-file";
import {
  addDays,
  addMonths,
  emitMemberChange,
  freeReferralCodes,
  historyRow,
  loadItems,
  lockMemberEmails,
  type MemberRow,
  normalizeEmail,
  paymentStatusChange,
  searchTextOf,
  sortNameOf,
} from "./internal";
import { emitter } from "../webhooks/emit";
import { type ImportChange, type ImportMode, ImportModeField, type ImportResult, type MemberAdminItem, PAYMENT_STATUSES, type PaymentStatus } from "./schemas";
import { todayUtc } from "./status";
import { journal, pace, type UndoEntry, withImportLock } from "./import-journal";

/**
 * Told how far an import has gone: `done` of the file's `total` data lines are handled (checked,
 * and written when they are to be). `done` only grows, and the last call has `done === total`.
 */
export type ImportProgress = Progress;

export type ImportInput = {
  /** The file's bytes (any encoding ./import-file.ts reads), or its text. */
  csv: string | Uint8Array;
  mode?: ImportMode;
  allow_shorten?: boolean;
  dry_run?: boolean;
  partial?: boolean;
  /** The tier of the lines whose tier cell is empty (or of every line, without a tier column). */
  tier_id?: string | null;
  onProgress?: ImportProgress;
};

type Msg = (code: MessageCode, params?: Record<string, string | number>) => string;
type Warning = ImportResult["warnings"][number];
type FieldChange = ImportChange["fields"][number];

/** What a line gives, checked: only the cells that are filled. */
type Values = {
  first_name?: string;
  last_name?: string;
  membership_start?: string;
  membership_end?: string;
  payment_status?: PaymentStatus;
  payment_method?: string;
  /** The tier the line's tier cell names. */
  tier_id?: string;
  custom?: Record<string, string>;
};
type Checked = { line: number; email: string; values: Values };

/** The columns of a member an import reads and may write (all forty of 100,000 members held hundreds of MB). */
const STORED = {
  id: members.id,
  email: members.email,
  first_name: members.first_name,
  last_name: members.last_name,
  membership_start: members.membership_start,
  membership_end: members.membership_end,
  payment_status: members.payment_status,
  status_before_suspension: members.status_before_suspension,
  payment_method: members.payment_method,
  tier_id: members.tier_id,
  custom_fields: members.custom_fields,
  referral_code: members.referral_code,
  pass_updated_at: members.pass_updated_at,
};
type Stored = Pick<MemberRow, keyof typeof STORED>;

type Planned =
  | { kind: "create"; line: number; email: string; values: Values & { membership_start: string; membership_end: string }; joined: string | null }
  | { kind: "update"; line: number; before: Stored; set: Partial<Stored>; fields: FieldChange[] };

/** zod's own email rule (that of the API's email fields), as a bare test: no result object per line. */
const EMAIL = z.regexes.email;
/**
 * Lines looked up, and written, at a time while others wait (lib/members/import-journal `pace`);
 * a transaction takes batches until its time slice is over. Each batch is one multi-row
 * statement per table: LONE_BATCH times the member row's columns must stay under SQLite's 32,766
 * bound parameters (about 650 rows at today's 50 columns).
 */
const BATCH = 50;
/**
 * The same while nobody waits: every statement that writes members pays for itself (its
 * statement journal, the version triggers, FTS5's flush of a new segment at the next one). 5,000
 * new members: 50 statements instead of 200, 27-36 MB written instead of 34-40 MB, and in
 * alternated runs 0.76-1.63 s against 1.21-1.53 s (docs/benchmarks.md, import14); 400 was slower
 * again. Under contention batches stay small, so a slice still ends within about SLICE_MS.
 */
const LONE_BATCH = 200;
/**
 * The numbers of rows a statement of the import writes: a batch's rows go in pieces of these
 * sizes, the largest first. Each statement is prepared once per size and kept for the process's
 * life (Db.prepareRows), and one of 200 members costs SQLite about 1.8 MB: a statement for every
 * count from 1 to 200 (a file mixing new and known members makes many) would keep hundreds of MB.
 */
export const PIECES = [LONE_BATCH, BATCH, 32, 16, 8, 4, 2, 1];

const TEXT_FIELDS = ["first_name", "last_name", "payment_method"] as const;
const DATE_FIELDS = ["membership_start", "membership_end"] as const;
/** What a new member needs besides its email. */
const NEW_MEMBER_NEEDS = ["first_name", "last_name", "membership_end"] as const;
/** The columns a file must have: a new member's fields in `create` mode, the email alone in `update`. */
const REQUIRED: Record<ImportMode, Field[]> = { create: ["email", ...NEW_MEMBER_NEEDS], update: ["email"] };

function dateOf(value: string): string | null {
  // A date, or the date of a spreadsheet's date-time (a time, seconds, fraction, zone): nothing else may follow it.
  let m = value.match(/^(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/);
  let ymd = m ? [m[1], m[2], m[3]] : null;
  if (!ymd) {
    m = value.match(/^(\d{1,2})[./](\d{1,2})[./](\d{4})$/);
    if (m) ymd = [m[3], m[2].padStart(2, "0"), m[1].padStart(2, "0")];
  }
  if (!ymd) return null;
  // A day of the Gregorian calendar, as Date reads one: counted, not parsed back (a Date and its
  // ISO text for every date of every line of each pass were some 3 % of an import's JavaScript).
  const [year, month, day] = ymd.map(Number);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return month >= 1 && month <= 12 && day >= 1 && day <= days ? `${ymd[0]}-${ymd[1]}-${ymd[2]}` : null;
}

const QUOTES: Record<Locale, [string, string]> = { fr: ["« ", " »"], en: ["“", "”"], de: ["„", "“"], it: ["«", "»"] };
const quoted = (locale: Locale, items: string[]) => items.map((h) => `${QUOTES[locale][0]}${h}${QUOTES[locale][1]}`).join(", ");

/** A stored value as the answer shows it (custom fields may hold numbers or objects). */
const shown = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === "string" ? v : JSON.stringify(v));

/** The file's required columns that are missing, as one message (empty when none is). */
function missingColumns(sheet: SheetFile, mode: ImportMode, locale: Locale, msg: Msg): string {
  const missing = REQUIRED[mode].filter((f) => sheet.index[f] === undefined);
  if (!missing.length) return "";
  return [
    ...missing.map((field) => msg("IMPORT_MISSING_COLUMN", { field, recognised: quoted(locale, recognisedHeadings(field, locale)) })),
    msg("IMPORT_FOUND_HEADINGS", { found: quoted(locale, sheet.columns.map((c) => c.heading).filter(Boolean)) }),
  ].join(" ");
}

type CustomColumn = { key: string; index: number };

/**
 * The club's tiers a file may name: their folded names (the first tier in the club's order wins a
 * shared name), their names for a message, and each tier's period in months (`months`, by id).
 */
type TierNames = { byName: Map<string, string>; names: string[]; months: Map<string, number> };

/**
 * The club's active tiers for the tier column, and the import's default tier checked: 422 on
 * `tier_id` when it is no tier of the club (TIER_NOT_IN_CLUB) or a soft-deleted one
 * (TIER_NOT_OFFERED): members would be put in a tier nobody can renew.
 */
async function clubTierNames(q: Queryable, clubId: string, defaultTier: string | null | undefined): Promise<TierNames> {
  const rows = await q
    .select({ id: tierTable.id, name: tierTable.name, is_active: tierTable.is_active, months: tierTable.duration_months })
    .from(tierTable)
    .where(eq(tierTable.club_id, clubId))
    .orderBy(tierTable.sort_order, tierTable.created_at);
  if (defaultTier) {
    const chosen = rows.find((r) => r.id === defaultTier.toLowerCase());
    if (!chosen) throw new ValidationFailed([{ loc: ["query", "tier_id"], code: "TIER_NOT_IN_CLUB", params: { id: defaultTier } }]);
    if (!chosen.is_active) throw new ValidationFailed([{ loc: ["query", "tier_id"], code: "TIER_NOT_OFFERED" }]);
  }
  const active = rows.filter((r) => r.is_active);
  const byName = new Map<string, string>();
  for (const r of active) if (!byName.has(foldTierName(r.name))) byName.set(foldTierName(r.name), r.id);
  return { byName, names: active.map((r) => r.name), months: new Map(rows.map((r) => [r.id, r.months])) };
}

/**
 * Step 1, one line and the file alone: its email, dates, status and lengths, and a start after
 * the end when the line gives both. Answers the line's values, or its problems.
 */
function checkLine(sheet: SheetFile, custom: CustomColumn[], tiers: TierNames, row: Row, msg: Msg, locale: Locale): Checked | { problems: string[] } {
  const { index } = sheet;
  const get = (f: Field) => (index[f] === undefined ? "" : (row.cells[index[f] as number] ?? ""));
  // A problem names the column as the file heads it ("Échéance"): what the person fixing the file sees.
  const column = (at: number | undefined, f: string) => (at === undefined ? f : sheet.columns[at]?.heading || f);
  const problems: string[] = [];
  const email = normalizeEmail(get("email"));
  if (!email) problems.push(msg("IMPORT_MISSING_FIELD", { field: "email" }));
  else if (email.length > 320 || !EMAIL.test(email)) problems.push(msg("IMPORT_INVALID_EMAIL", { value: get("email") }));
  const values: Values = {};
  for (const f of TEXT_FIELDS) {
    const v = get(f);
    if (v.length > 200) problems.push(msg("IMPORT_TOO_LONG", { field: column(index[f], f) }));
    else if (!isOneLine(v)) problems.push(msg("IMPORT_CONTROL_CHARACTER", { field: column(index[f], f) }));
    else if (v) values[f] = v;
  }
  for (const f of DATE_FIELDS) {
    const v = get(f);
    if (!v) continue;
    const d = dateOf(v);
    if (d) values[f] = d;
    else problems.push(msg("IMPORT_INVALID_DATE", { field: column(index[f], f), value: v }));
  }
  const status = get("payment_status").toLowerCase();
  if (status) {
    if ((PAYMENT_STATUSES as readonly string[]).includes(status)) values.payment_status = status as PaymentStatus;
    else problems.push(msg("IMPORT_INVALID_STATUS", { value: status }));
  }
  const tier = get("tier");
  if (tier) {
    const id = tiers.byName.get(foldTierName(tier));
    if (id) values.tier_id = id;
    else if (tiers.names.length) problems.push(msg("IMPORT_UNKNOWN_TIER", { value: tier, tiers: quoted(locale, tiers.names) }));
    else problems.push(msg("IMPORT_NO_TIERS", { value: tier }));
  }
  for (const c of custom) {
    const v = row.cells[c.index] ?? "";
    if (!v) continue;
    if (!isPlainText(v)) {
      problems.push(msg("IMPORT_CONTROL_CHARACTER", { field: column(c.index, c.key) }));
      continue;
    }
    values.custom ??= {};
    values.custom[c.key] = v;
  }
  const { membership_start: start, membership_end: end } = values;
  if (start && end && start > end) problems.push(msg("MEMBERSHIP_END_BEFORE_START", { start, end }));
  return problems.length ? { problems } : { line: row.line, email, values };
}

/**
 * `months`: the club's period, and `tierMonths` each tier's, from which a member's start is told
 * when the file gives only the end; `defaultTier`: the import's `tier_id`.
 */
type PlanOptions = {
  mode: ImportMode;
  allowShorten: boolean;
  withChanges: boolean;
  today: string;
  months: number;
  tierMonths: Map<string, number>;
  defaultTier: string | null;
};
/** What the whole file comes to, summed batch by batch (`changes` only for a dry run). */
type Totals = { created: number; updated: number; skipped: number; warnings: Warning[]; changes: ImportChange[] };

/**
 * A new member's start: the file's, else that of the period that ends on the file's end (one
 * period of the member's tier before it, the club's without a tier: last season's member paid for
 * the season, not from the day of the import), else today when that period would start later.
 */
function startOf(v: Values, o: Pick<PlanOptions, "today" | "months" | "tierMonths" | "defaultTier">): string {
  if (v.membership_start) return v.membership_start;
  const tier = v.tier_id ?? o.defaultTier;
  const months = (tier && o.tierMonths.get(tier)) || o.months;
  const periodStart = v.membership_end ? addDays(addMonths(v.membership_end, -months), 1) : o.today;
  // Days as text (YYYY-MM-DD) compare as dates.
  if (periodStart >= o.today) return o.today;
  return periodStart;
}

/**
 * When an imported member joined: their `created_at`, the date SPEC's member carries and "new this
 * month" counts (lib/stats). The member's own dates, not the import's: their start (startOf). A
 * start before today is kept (last season's members are not new this month); null: the import's
 * instant (a member whose period starts today or later).
 */
function joinedOf(v: Values, o: PlanOptions): string | null {
  const start = startOf(v, o);
  return start < o.today ? `${start}T00:00:00.000Z` : null;
}

/** The fields a new member gets, as the dry run shows them. */
function createFields(email: string, v: Values & { membership_start: string }): FieldChange[] {
  const fields: FieldChange[] = [
    { field: "first_name", from: null, to: v.first_name ?? null },
    { field: "last_name", from: null, to: v.last_name ?? null },
    { field: "email", from: null, to: email },
    { field: "membership_start", from: null, to: v.membership_start },
    { field: "membership_end", from: null, to: v.membership_end ?? null },
    { field: "payment_status", from: null, to: v.payment_status ?? "paid" },
  ];
  if (v.payment_method) fields.push({ field: "payment_method", from: null, to: v.payment_method });
  if (v.tier_id) fields.push({ field: "tier_id", from: null, to: v.tier_id });
  for (const [key, value] of Object.entries(v.custom ?? {})) fields.push({ field: `custom_fields.${key}`, from: null, to: value });
  return fields;
}

/** Whether a line's end replaces the stored one: a later end, an earlier one only with `allow_shorten`. */
const takesEnd = (before: Period, end: string, allowShorten: boolean) => end > before.membership_end || allowShorten;

/** A member's period as stored. */
type Period = Pick<Stored, "membership_start" | "membership_end">;

/**
 * Why a good line fails against what the club holds (null: it does not): a new email whose line
 * lacks a new member's field, or, in `update` mode, a known member's period that the line's dates
 * would leave ending before it starts (the stored dates complete the line's).
 */
function storedLineError(email: string, values: Values, before: Period | undefined, o: Pick<PlanOptions, "mode" | "allowShorten">, msg: Msg): string | null {
  if (!before) {
    const missing = NEW_MEMBER_NEEDS.filter((f) => !values[f]);
    if (!missing.length) return null;
    return o.mode === "update"
      ? msg("IMPORT_NEW_MEMBER_INCOMPLETE", { email, fields: missing.join(", ") })
      : missing.map((field) => msg("IMPORT_MISSING_FIELD", { field })).join(" ");
  }
  if (o.mode === "create") return null;
  const start = values.membership_start ?? before.membership_start;
  const end = values.membership_end !== undefined && takesEnd(before, values.membership_end, o.allowShorten) ? values.membership_end : before.membership_end;
  return start > end ? msg("MEMBERSHIP_END_BEFORE_START", { start, end }) : null;
}

/**
 * What an existing member's line changes: the columns the file fills that differ from what is
 * stored; a membership end earlier than the stored one only with `allowShorten` (else it is kept);
 * the default tier only for a member without one (a tier chosen for them is never replaced by it).
 */
function updateOf(
  before: Stored,
  v: Values,
  allowShorten: boolean,
  defaultTier: string | null,
): { set: Partial<Stored>; fields: FieldChange[]; keptEnd: boolean } {
  const set: Partial<Stored> = {};
  const fields: FieldChange[] = [];
  const change = <K extends keyof Stored>(field: K, to: Stored[K] & string) => {
    set[field] = to;
    fields.push({ field, from: shown(before[field]), to });
  };
  if (v.first_name !== undefined && v.first_name !== before.first_name) change("first_name", v.first_name);
  if (v.last_name !== undefined && v.last_name !== before.last_name) change("last_name", v.last_name);
  if (v.membership_start !== undefined && v.membership_start !== before.membership_start) change("membership_start", v.membership_start);
  let keptEnd = false;
  if (v.membership_end !== undefined && v.membership_end !== before.membership_end) {
    if (takesEnd(before, v.membership_end, allowShorten)) change("membership_end", v.membership_end);
    else keptEnd = true;
  }
  if (v.payment_status !== undefined && v.payment_status !== before.payment_status) change("payment_status", v.payment_status);
  if (v.payment_method !== undefined && v.payment_method !== before.payment_method) change("payment_method", v.payment_method);
  const tier = v.tier_id ?? (before.tier_id === null ? defaultTier : null);
  if (tier && tier !== before.tier_id) change("tier_id", tier);
  if (v.custom) {
    const stored = before.custom_fields ?? {};
    const merged: Record<string, unknown> = { ...stored };
    let changed = false;
    for (const [key, value] of Object.entries(v.custom)) {
      if (shown(stored[key]) === value) continue;
      merged[key] = value;
      changed = true;
      fields.push({ field: `custom_fields.${key}`, from: shown(stored[key]), to: value });
    }
    if (changed) set.custom_fields = merged;
  }
  return { set, fields, keptEnd };
}

/**
 * The club's members of `emails` as `q` (the read connection, or the writing's transaction) sees
 * them, their columns `columns`: a select of PIECES' sizes of emails, each prepared once per
 * database and `name` (Db.prepareRead, prepareTx). Drizzle built the batch's select anew for each
 * batch, twice a batch for an update's lines (planned before the writing, then in it): 7 % of the
 * CPU of 20,000 updates in a profile, two thirds of what SQLite spent on the lookups
 * (docs/benchmarks.md, "import19").
 */
async function byEmail<T>(q: Queryable, ctx: Ctx, emails: string[], columns: typeof STORED | typeof PERIOD, name: string): Promise<T[]> {
  const found: T[] = [];
  for (const piece of inPieces(emails, PIECES)) {
    const build = (b: Queryable) =>
      b
        .select(columns)
        .from(members)
        .where(
          and(
            eq(members.club_id, p("club")),
            inArray(
              members.email,
              piece.map((_, i) => p(String(i))),
            ),
          ),
        );
    const key = `${name}:${piece.length}`;
    const query = q === ctx.db.read ? ctx.db.prepareRead(key, build) : ctx.db.prepareTx(key, build)(q);
    const values: Record<string, string> = { club: ctx.clubId };
    piece.forEach((email, i) => {
      values[i] = email;
    });
    for (const m of (await query.execute(values)) as T[]) found.push(m);
  }
  return found;
}

/** The members a batch's lines name, with every column the import reads and may write (STORED). */
const storedByEmail = (q: Queryable, ctx: Ctx, batch: Checked[]) =>
  byEmail<Stored>(
    q,
    ctx,
    batch.map((c) => c.email),
    STORED,
    "members.import.byEmail",
  );

const PERIOD = { email: members.email, membership_start: members.membership_start, membership_end: members.membership_end };

/**
 * The check pass's look at the club for lines whose fate its members decide (mayFail), on the read
 * connection: their errors (storedLineError) into `errors`, so that a file the club's members make
 * faulty is refused before anything is written, as a planning pass over the file did. That pass
 * read the file a second time, looked up every column of each member, planned every line and
 * collected every 5,000 lines; this reads the email and the period of the open lines alone, as the
 * check meets them (docs/benchmarks.md, "upd21").
 */
async function checkAgainstClub(ctx: Ctx, lines: Checked[], o: PlanOptions, msg: Msg, errors: Map<number, string>): Promise<void> {
  const periods = new Map<string, Period>();
  for (const m of await byEmail<Period & { email: string }>(
    ctx.db.read,
    ctx,
    lines.map((c) => c.email),
    PERIOD,
    "members.import.periodByEmail",
  ))
    periods.set(m.email, m);
  for (const { line, email, values } of lines) {
    const error = storedLineError(email, values, periods.get(email), o, msg);
    if (error) errors.set(line, error);
  }
}

/**
 * Step 2, one batch of checked lines against the club's members as `q` sees them (looked up by
 * their emails): each line becomes a create, an update, or nothing (unchanged, or an existing
 * member in `create` mode). Counts, warnings and changes go to `totals`, errors to `errors`.
 */
async function planBatch(q: Queryable, ctx: Ctx, batch: Checked[], o: PlanOptions, msg: Msg, errors: Map<number, string>, totals: Totals): Promise<Planned[]> {
  const planned: Planned[] = [];
  const existing = new Map<string, Stored>();
  for (const m of await storedByEmail(q, ctx, batch)) existing.set(m.email, m);
  for (const { line, email, values } of batch) {
    const before = existing.get(email);
    const error = storedLineError(email, values, before, o, msg);
    if (error) {
      errors.set(line, error);
      continue;
    }
    if (!before) {
      const v = {
        ...values,
        membership_start: startOf(values, o),
        membership_end: values.membership_end as string,
        tier_id: values.tier_id ?? o.defaultTier ?? undefined,
      };
      planned.push({ kind: "create", line, email, values: v, joined: joinedOf(values, o) });
      totals.created++;
      if (o.withChanges) totals.changes.push({ line, member_id: null, email, action: "create", fields: createFields(email, v) });
      continue;
    }
    if (o.mode === "create") {
      totals.skipped++;
      totals.warnings.push({ line, email, member_id: before.id, code: "MEMBER_EXISTS", detail: msg("MEMBER_EXISTS", { email }) });
      if (o.withChanges) totals.changes.push({ line, member_id: before.id, email, action: "skip", fields: [] });
      continue;
    }
    const { set, fields, keptEnd } = updateOf(before, values, o.allowShorten, o.defaultTier);
    if (keptEnd) {
      const detail = msg("END_NOT_SHORTENED", { current: before.membership_end, file: values.membership_end as string });
      totals.warnings.push({ line, email, member_id: before.id, code: "END_NOT_SHORTENED", detail });
    }
    if (fields.length) {
      planned.push({ kind: "update", line, before, set, fields });
      totals.updated++;
    } else totals.skipped++;
    if (o.withChanges) totals.changes.push({ line, member_id: before.id, email, action: fields.length ? "update" : "unchanged", fields });
  }
  return planned;
}

const p = (name: string) => sql.placeholder(name);
/** What an update writes: every stored column the import may change, and the keys made from them. */
const UPDATE_COLUMNS = [...Object.keys(STORED).filter((c) => !["id", "email", "referral_code"].includes(c)), "search_text", "sort_name", "updated_at"];
/**
 * The columns an update writes only when its line changes them, in families by the indexes that
 * hold them: SQLite rewrites a member's entries in every index with a column the UPDATE assigns,
 * even to the value it already holds (20,000 members of 200,000, two indexed columns assigned
 * their own values: 37 MB of WAL against 17 MB, 2.6 times the time). The registration and name
 * orders carry the search text, the end and status indexes the end and the status: a file of new
 * ends alone left every member's search text and sort name assigned, so both of those indexes
 * were rewritten at random places for nothing. The other columns (no index holds them) are
 * always written. A statement per set of families and size (8 at most of each size).
 */
const UPDATE_FAMILIES: { changes: (keyof Stored)[]; columns: string[] }[] = [
  { changes: ["first_name", "last_name"], columns: ["first_name", "last_name", "search_text", "sort_name"] },
  { changes: ["membership_end"], columns: ["membership_end"] },
  { changes: ["payment_status"], columns: ["payment_status", "status_before_suspension"] },
];
const UPDATE_ALWAYS = UPDATE_COLUMNS.filter((c) => !UPDATE_FAMILIES.some((f) => f.columns.includes(c)));
/** The families a line's changes `set` writes, as bits of UPDATE_FAMILIES. */
const familiesOf = (set: Partial<Stored>) => UPDATE_FAMILIES.reduce((bits, f, i) => (f.changes.some((c) => set[c] !== undefined) ? bits | (1 << i) : bits), 0);
/** The columns an update of the families `bits` writes. */
const updateColumns = (bits: number) => [...UPDATE_FAMILIES.flatMap((f, i) => (bits & (1 << i) ? f.columns : [])), ...UPDATE_ALWAYS];
const HISTORY_COLUMNS = Object.keys(getTableColumns(memberHistory));
const MEMBER_COLUMNS: Record<string, Column> = getTableColumns(members);

/**
 * The import's statements, one per number of rows, built once per database (Db.prepareRows:
 * on SQLite from Drizzle's statement of one row, see there): building a query of the 50-column
 * members table costs more than running it. Each writes a
 * whole batch in one statement (a batch of a size PIECES lacks in a few, `inPieces`): the
 * members version's triggers (db/index.ts) make every statement that writes a member keep a statement journal of the pages it touches, which cost
 * more than the row itself when paid per member (5,000 updates: 1.2 s with one statement a
 * member, against 0.3 s without the triggers). An insert has the columns of the batch's first
 * new member (every row comes from newMemberRow: the same columns); an update writes the columns
 * of the families its members' lines change (UPDATE_FAMILIES) and those no index holds, each
 * member's values read from a list of rows joined by id.
 */
function statements(db: Db) {
  return {
    insert: (t: Queryable, rows: MemberRow[]) => {
      const columns = Object.keys(rows[0]);
      return db
        .prepareRows("members.import.insert", rows.length, columns.length, (q, n) => q.insert(members).values(slotRows(columns, n)))(t)
        .run(slotValues(columns, rows));
    },
    history: (t: Queryable, rows: Record<string, unknown>[]) =>
      db
        .prepareRows("members.import.history", rows.length, HISTORY_COLUMNS.length, (q, n) => q.insert(memberHistory).values(slotRows(HISTORY_COLUMNS, n)))(t)
        .run(slotValues(HISTORY_COLUMNS, rows)),
    update: (t: Queryable, clubId: string, rows: Record<string, unknown>[], families: number) => {
      const written = updateColumns(families);
      const columns = ["id", ...written];
      return (
        db
          .prepareRows(`members.import.update.${families}`, rows.length, columns.length, (q, n) => {
            // The new values as a list of rows `v` (a SELECT per row, UNION ALL: SQLite and PostgreSQL alike).
            const selects = Array.from(
              { length: n },
              (_, i) =>
                sql`select ${sql.join(
                  columns.map((c, j) => sql`${typedParam(rowSlot(i, j, columns.length), MEMBER_COLUMNS[c])} as ${sql.identifier(c)}`),
                  sql`, `,
                )}`,
            );
            return q
              .update(members)
              .set(Object.fromEntries(written.map((c) => [c, sql`${sql.identifier("v")}.${sql.identifier(c)}`])) as never)
              .from(sql`(${sql.join(selects, sql` union all `)}) as ${sql.identifier("v")}`)
              .where(and(eq(members.club_id, rowSlot(n, 0, columns.length)), sql`${members.id} = ${sql.identifier("v")}.${sql.identifier("id")}`));
          })(t)
          // The club's id after the rows' values: the placeholder that follows theirs.
          .run([...slotValues(columns, rows), clubId])
      );
    },
  };
}

/**
 * Step 3, one planned batch written in the caller's transaction `t`: each member with its history
 * row, its search and sort keys and, for a new one, a referral code drawn with the batch's; the
 * passes of the members whose pass shows a change are marked (`pass_updated_at`) and their update
 * queued. Answers the batch's undo entries and the instant they were written.
 */
async function writeBatch(t: Queryable, ctx: Ctx, planned: Planned[]): Promise<{ undo: UndoEntry[]; now: string }> {
  const run = statements(ctx.db);
  const codes = await freeReferralCodes(t, ctx.clubId, planned.filter((x) => x.kind === "create").length);
  let drawn = 0;
  const now = nowIso();
  const passesChanged: string[] = [];
  const undo: UndoEntry[] = [];
  const changed: { before: Stored | null; after: Stored }[] = [];
  const inserts: MemberRow[] = [];
  /** The updated members' rows, by the families of columns their lines change (familiesOf). */
  const updates = new Map<number, Record<string, unknown>[]>();
  const histories: Record<string, unknown>[] = [];
  for (const x of planned) {
    if (x.kind === "create") {
      const v = x.values;
      const row = newMemberRow(ctx.clubId, {
        referral_code: codes[drawn++],
        first_name: v.first_name as string,
        last_name: v.last_name as string,
        email: x.email,
        membership_start: v.membership_start,
        membership_end: v.membership_end,
        payment_status: "paid",
        payment_method: v.payment_method ?? null,
        tier_id: v.tier_id ?? null,
        custom_fields: v.custom ?? null,
        created_at: x.joined ?? now,
      });
      // A new member is `paid` unless the file says otherwise, by the rule of every status change.
      const status = v.payment_status ? paymentStatusChange({ payment_status: "paid", status_before_suspension: null }, v.payment_status) : {};
      // `updated_at` is the batch's instant: what an undo compares to see the member untouched since.
      const created = { status_before_suspension: null, ...row, ...status, updated_at: now } as MemberRow;
      inserts.push(created);
      const history = historyRow(ctx, { memberId: created.id, action: "import_create", to: created, details: { line: x.line } }, now);
      histories.push(history);
      undo.push([created.id, history.id, null]);
      changed.push({ before: null, after: created });
    } else {
      const { before, set } = x;
      // A status change follows the rule of suspend and reactivate (the status before a suspension is kept).
      const status = set.payment_status ? paymentStatusChange(before, set.payment_status as PaymentStatus) : {};
      const after = { ...before, ...set, ...status };
      // The pass is marked in the member's own row (its Last-Modified for the wallets).
      const passChanged = memberPassChanged(before, after);
      if (passChanged) passesChanged.push(before.id);
      const families = familiesOf(set);
      if (!updates.has(families)) updates.set(families, []);
      updates.get(families)?.push({
        ...after,
        search_text: searchTextOf(after),
        sort_name: sortNameOf(after),
        pass_updated_at: passChanged ? now : before.pass_updated_at,
        updated_at: now,
      });
      changed.push({ before, after });
      const details = { line: x.line, fields: x.fields.map((f) => f.field), changes: x.fields };
      const history = historyRow(ctx, { memberId: before.id, action: "import_update", from: before, to: after, details }, now);
      histories.push(history);
      undo.push([before.id, history.id, { ...before }]);
    }
  }
  for (const rows of inPieces(inserts, PIECES)) await run.insert(t, rows);
  for (const [families, group] of updates) for (const rows of inPieces(group, PIECES)) await run.update(t, ctx.clubId, rows, families);
  for (const rows of inPieces(histories, PIECES)) await run.history(t, rows);
  // One pass update per batch: the fan-out merges those still pending into one.
  await queueMarkedPassUpdate(t, ctx.clubId, passesChanged, "import_update", now);
  // Webhooks: the endpoints read once per batch, the members' items only when one is wanted.
  const out = await emitter(ctx.db, t, ctx.clubId);
  if (!(["member.created", "member.updated", "member.status_changed"] as const).some((type) => out.wants(type))) return { undo, now };
  const items = new Map(
    (
      await loadItems(
        t,
        ctx.clubId,
        changed.map((c) => c.after.id),
      )
    ).map((i) => [i.id, i]),
  );
  for (const c of changed) await emitMemberChange(out, c.before, c.after, async () => items.get(c.after.id) as MemberAdminItem);
  return { undo, now };
}

/** Lines between two garbage collections of a large import. */
const SWEEP_EVERY = 5_000;

/**
 * A full garbage collection every SWEEP_EVERY lines of each pass, once the next line is there. A
 * large import makes short-lived garbage (cells, rows, statement parameters) faster than
 * JavaScriptCore collects it on its own: updating 100,000 members grew the process by 125 MB;
 * with a collection every 5,000 lines by about 75 MB, for some 16 ms a collection (0.6 s in all).
 * Files of up to SWEEP_EVERY lines never pay for it (a file of exactly 5,000 lines paid two
 * collections, 85-190 ms, for garbage about to go with the request).
 */
const sweep = (lines: number) => {
  if (lines > SWEEP_EVERY && lines % CHECK_SWEEP_EVERY === 1) Bun.gc(true);
};

/**
 * The check pass (one line's cells and checks at a time, nothing kept but the file's emails)
 * collects every 20,000 lines, and once at its end: the process's high-water mark is reached in
 * the writing, not there (100,000 lines: 15 collections of 30-60 ms fewer, the growth the same,
 * docs/benchmarks.md "import20").
 */
const CHECK_SWEEP_EVERY = 4 * SWEEP_EVERY;

/**
 * The same for a pass over the lines in batches (planned, or written), from `done` lines: a
 * collection once SWEEP_EVERY more are handled and more are to come. The planning pass (a dry
 * run's, a refused file's; an update of 100,000 members made one before writing until upd21) had
 * none: the process grew by 105-110 MB there, before a line was written (docs/benchmarks.md, import14).
 */
function batchSweep(done: number) {
  let swept = done;
  const collect = (now: number, total: number, least: number) => {
    if (total <= SWEEP_EVERY || now - swept < least || now >= total) return;
    Bun.gc(true);
    swept = now;
  };
  return {
    /** After a batch: a collection once `every` more lines are handled. */
    due: (now: number, total: number, every = SWEEP_EVERY) => collect(now, total, every),
    /** At the writing's gap (pace), where the import rests anyway: once GAP_SWEEP more lines are written. */
    atGap: (now: number, total: number) => collect(now, total, GAP_SWEEP),
  };
}

/**
 * The writing collects at its gaps (once a second of work, lib/members/import-journal `pace`),
 * whose 110 ms it spends idle anyway: 38 collections of 25-45 ms each beside the work were some
 * 1.5 s of a 100,000-line import. At most one every GAP_SWEEP lines (a slow writing, PostgreSQL's,
 * has a gap every few hundred lines); beside the work only when no gap came for WRITE_SWEEP_EVERY
 * lines (under contention there are no gaps), so garbage of at most that many lines is held.
 */
const GAP_SWEEP = SWEEP_EVERY / 2;
const WRITE_SWEEP_EVERY = 2 * SWEEP_EVERY;

/** Thrown inside a batch's transaction when an all-or-nothing import meets an error there. */
class Abandoned extends Error {}

/**
 * Imports members from a spreadsheet (see the module comment). Every line is checked first, from
 * the file alone, then, when a line's fate depends on the club's members (a new member without
 * every field, a date the stored one completes), against them on the read connection: a file
 * with errors is refused before anything is written. Then, behind the club's import lock, each
 * batch is planned again in its own short transaction against what it sees (a member created or
 * changed meanwhile, by a concurrent manual create of the same email, is matched, never inserted
 * twice) and written with its undo rows. An error that appears only there (a race), in an
 * all-or-nothing import, stops the writing and the batches before it are undone; the rest is
 * still planned, so that every error is reported. A dry run plans on the read connection and
 * writes nothing. Other requests go between any two batches, and between checks of the file.
 */
export const importMembers = verb("members:edit", async function importMembers(ctx: Ctx, input: ImportInput): Promise<ImportResult> {
  const mode = ImportModeField.parse(input.mode);
  const dryRun = !!input.dry_run;
  const msg: Msg = (code, params) => translate(ctx.locale, code, params);
  const report = input.onProgress ?? (() => {});
  // The default tier first: a wrong one is the request's fault, whatever the file holds.
  const tiers = await clubTierNames(ctx.db.read, ctx.clubId, input.tier_id);
  const sheet = readSheet(input.csv);
  const file = {
    encoding: sheet.encoding,
    delimiter: sheet.delimiter,
    columns: sheet.columns.map((c) => ({ heading: c.heading, field: c.field as string | null })),
  };
  const result: ImportResult = { created: 0, updated: 0, skipped: 0, errors: [], warnings: [], mode, file, dry_run: dryRun, written: false };
  if (!sheet.headerLine) return { ...result, errors: [{ line: 1, detail: msg("IMPORT_EMPTY") }] };
  const missing = missingColumns(sheet, mode, ctx.locale, msg);
  if (missing) return { ...result, errors: [{ line: sheet.headerLine, detail: missing }] };

  const club = await clubSettings(ctx.db.read, ctx.clubId);
  const custom: CustomColumn[] = [];
  const customFields = customFieldsOf(club.custom_fields_schema);
  // A club's own custom field named like a tier heading ("Catégorie") keeps its column, as before tiers were read.
  const tierColumn = sheet.index.tier;
  if (tierColumn !== undefined) {
    const heading = foldHeading(sheet.columns[tierColumn].heading);
    if (customFields.some((c) => foldHeading(c.key) === heading || foldHeading(c.label) === heading)) {
      sheet.index.tier = undefined;
      sheet.columns[tierColumn].field = null;
      file.columns[tierColumn].field = null;
    }
  }
  for (const c of customFields) {
    const names = [foldHeading(c.key), foldHeading(c.label)];
    const index = sheet.columns.findIndex((h) => !h.field && names.includes(foldHeading(h.heading)));
    if (index < 0) continue;
    custom.push({ key: c.key, index });
    file.columns[index].field = `custom_fields.${c.key}`;
  }

  const options: PlanOptions = {
    mode,
    allowShorten: !!input.allow_shorten,
    withChanges: dryRun,
    today: todayUtc(),
    months: club.membership_duration_months,
    tierMonths: tiers.months,
    defaultTier: input.tier_id ? input.tier_id.toLowerCase() : null,
  };
  // Step 1 over the whole file: errors, duplicates within it, and how many lines there are.
  const errors = new Map<number, string>();
  const firstLineOf = new Map<string, number>();
  let total = 0;
  let good = 0;
  /**
   * Good lines whose outcome the club's members decide (they may yet be errors), looked up as
   * LONE_BATCH of them gather. A dry run plans every line below instead.
   */
  const open: Checked[] = [];
  const rhythm = pace(ctx.db);
  for (const row of sheet.rows()) {
    total++;
    sweep(total);
    await rhythm.turn();
    if (isBlank(row.cells)) continue;
    const c = checkLine(sheet, custom, tiers, row, msg, ctx.locale);
    const email = "email" in c ? c.email : "";
    const problems = "problems" in c ? c.problems : [];
    const first = email ? firstLineOf.get(email) : undefined;
    if (first !== undefined) problems.push(msg("IMPORT_DUPLICATE_EMAIL", { email, line: first }));
    else if (email) firstLineOf.set(email, row.line);
    if (problems.length) errors.set(row.line, problems.join(" "));
    else {
      good++;
      if (!dryRun && "values" in c && mayFail(c.values, mode) && open.push(c) >= LONE_BATCH) await checkAgainstClub(ctx, open.splice(0), options, msg, errors);
    }
  }
  if (open.length) await checkAgainstClub(ctx, open.splice(0), options, msg, errors);
  firstLineOf.clear();
  // The file's emails (one Map entry a line) are garbage now, before the writing's first statements
  // and the 16 MB page cache fill: collected here, not at the writing's first sweep.
  if (total > SWEEP_EVERY) Bun.gc(true);
  // A header line with nothing under it is refused as an empty file is: an import of nothing is a wrong file.
  if (good === 0 && errors.size === 0) return { ...result, errors: [{ line: sheet.headerLine, detail: msg("IMPORT_NO_MEMBERS") }] };
  /** The good lines again, in batches (read from the file once more, checked the same way). */
  function* batches(): Generator<Checked[]> {
    let batch: Checked[] = [];
    for (const row of sheet.rows()) {
      if (isBlank(row.cells) || errors.has(row.line)) continue;
      batch.push(checkLine(sheet, custom, tiers, row, msg, ctx.locale) as Checked);
      // Checked at each line: whoever comes to wait meanwhile gets the small batches at once.
      if (batch.length >= (rhythm.alone() ? LONE_BATCH : BATCH)) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  const noTotals = (): Totals => ({ created: 0, updated: 0, skipped: 0, warnings: [], changes: [] });
  let totals = noTotals();
  const stopped = () => errors.size > 0 && !input.partial;
  const answer = (written: boolean): ImportResult => {
    const counted = written || dryRun || !stopped();
    return {
      ...result,
      created: counted ? totals.created : 0,
      updated: counted ? totals.updated : 0,
      skipped: totals.skipped,
      errors: [...errors].sort(([a], [b]) => a - b).map(([line, detail]) => ({ line, detail })),
      warnings: totals.warnings,
      ...(dryRun ? { changes: totals.changes } : {}),
      written,
    };
  };

  if (dryRun || stopped()) {
    // Every line planned, for the changes a dry run shows, or for the warnings and the counts of
    // a refused file. On the read connection: the writer is not held, other requests go between batches.
    const swept = batchSweep(0);
    let planned = 0;
    for (const batch of batches()) {
      await planBatch(ctx.db.read, ctx, batch, options, msg, errors, totals);
      planned += batch.length;
      swept.due(planned, good);
      await rhythm.turn();
    }
    report(total, total);
    return answer(false);
  }
  return withImportLock(ctx.db, ctx.clubId, async (importId) => {
    totals = noTotals();
    // Lines with nothing to look up (blank, faulty) are done once checked; the others as their batch is written.
    let done = total - good;
    report(done, total);
    const lines = batches();
    const swept = batchSweep(done);
    for (let next = lines.next(); !next.done; ) {
      const began = performance.now();
      if (stopped()) {
        await planBatch(ctx.db.read, ctx, next.value, options, msg, errors, totals);
        done += next.value.length;
        next = lines.next();
      } else {
        // One transaction takes batches until its slice of the writer is used up (a keyed import's
        // too: its journal, not one transaction, makes it whole, lib/members/import-journal `locked`).
        await stepwiseDb(ctx.db)
          .tx(
            async (t) => {
              const since = performance.now();
              // Emails read as free by planBatch stay free until this transaction commits.
              await lockMemberEmails(t, ctx.clubId);
              do {
                // The batch's members, locked before they are read: a change made meanwhile by
                // another request (a tier set, a payment) is read, never written over.
                await lockRows(
                  t,
                  members,
                  members.email,
                  (next.value as Checked[]).map((c) => c.email),
                  eq(members.club_id, ctx.clubId),
                );
                const planned = await planBatch(t, ctx, next.value as Checked[], options, msg, errors, totals);
                // An error only the database shows now (a change made since the check): nothing of this transaction.
                if (stopped()) throw new Abandoned();
                const written = await writeBatch(t, ctx, planned);
                await journal(t, importId, written.undo, written.now);
                done += (next.value as Checked[]).length;
                next = lines.next();
              } while (!next.done && !rhythm.sliceOver(since));
              // Once: this function advances the file's reader and the counts, so a run again
              // after a deadlock would skip the batches it had taken. The conflict undoes the import.
            },
            { once: true },
          )
          .catch((err) => {
            if (!(err instanceof Abandoned)) throw err;
          });
      }
      report(done, total);
      swept.due(done, total, WRITE_SWEEP_EVERY);
      await rhythm.pause(performance.now() - began, () => swept.atGap(done, total));
    }
    if (stopped()) return { keep: false, result: answer(false) };
    return { keep: true, result: answer(totals.created + totals.updated > 0) };
  });
});

/**
 * Whether a good line may still be an error once the club's members are known: a line lacking
 * a new member's field (an error if its email is new), or, in update mode, one date of the two
 * (the stored other one may put the start after the end).
 */
function mayFail(values: Values, mode: ImportMode): boolean {
  if (NEW_MEMBER_NEEDS.some((f) => !values[f])) return true;
  return mode === "update" && (values.membership_start === undefined) !== (values.membership_end === undefined);
}

/** The bytes of an import request: a text/csv body, or the `file` field of a multipart form. */
export async function csvFromBody(body: unknown): Promise<string | Uint8Array> {
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  const file = body && typeof body === "object" ? (body as { file?: unknown }).file : undefined;
  if (file instanceof Blob) return new Uint8Array(await file.arrayBuffer());
  if (typeof file === "string") return file;
  return "";
}
