// The club: creation (CLI, first start), the admin's view of it (ClubAdmin) and its update
// (ClubUpdate: only writable fields change; card and finance fields need their own scopes; a
// change that shows on the wallet card, such as a new `card_custom_link_url`, queues a pass update).
import { and, eq, like, type SQL } from "drizzle-orm";
import type { AnyColumn, AnyTable, Db, Queryable } from "../../db";
import { clubs } from "../../db/schema";
import { foldText } from "../../db/text";
import { type Caller, hasScope, requireScope, type Scope, scopeList } from "../access";
import { queuePassUpdate } from "../passes";
import { clubFieldShowsOnPass } from "./internal";
import { type AuditChange, type Ctx, verb } from "../context";
import { NotFound } from "../errors";
import { newId, nowIso } from "../ids";
import { CLUB_FIELDS, type ClubField, defaultOf, type FieldArea, UPDATE_ONLY_FIELDS } from "./fields";
import { type ClubRow, getClubRow } from "./internal";
import { paymentState } from "./payments";
import { type ClubAdmin, type ClubUpdate, readCardBackFields } from "./schemas";

export type { ClubRow };

const FIELD_BY_NAME = new Map<string, ClubField>([...CLUB_FIELDS, ...UPDATE_ONLY_FIELDS].map((f) => [f.name, f]));

/** `text` as a URL slug (a-z, 0-9, hyphens; at most 60 characters); `fallback` when nothing of it is left ("!!!"). */
export function slugify(text: string, fallback = "club"): string {
  // foldText also spells out the letters NFKD keeps whole: "Łódź" is lodz, not odz.
  const slug = foldText(text)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return slug || fallback;
}

/**
 * The slug of `text` (or `fallback` when it has none) that is free in `column` of `table` among
 * the rows `scope` keeps (all rows without it): the slug itself, else `-2`, `-3`, ... Club slugs
 * are free across the installation, event slugs within their club.
 */
export async function freeSlug(q: Queryable, where: { table: AnyTable; column: AnyColumn; scope?: SQL }, text: string, fallback: string): Promise<string> {
  const base = slugify(text, fallback);
  // Slugs hold only a-z, 0-9 and hyphens: `base` carries no LIKE wildcard.
  const rows = await q
    .select({ slug: where.column })
    .from(where.table)
    .where(and(where.scope, like(where.column, `${base}%`)));
  const taken = new Set(rows.map((r) => String(r.slug)));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/** Creates a club with every SPEC default; `t` is the caller's transaction. */
export async function createClub(t: Queryable, input: { name: string; locale?: string; currency?: string }): Promise<ClubRow> {
  const now = nowIso();
  const defaults = Object.fromEntries(CLUB_FIELDS.map((field) => [field.name, defaultOf(field)])) as Omit<typeof clubs.$inferInsert, "id">;
  const [created] = await t
    .insert(clubs)
    .values({
      ...defaults,
      id: newId(),
      slug: await freeSlug(t, { table: clubs, column: clubs.slug }, input.name, "club"),
      name: input.name,
      locale: input.locale || defaults.locale,
      currency: input.currency || defaults.currency,
      created_at: now,
      updated_at: now,
    })
    .returning();
  return created;
}

/**
 * The Club as `actor` may see it: payout, fee and accounting fields (`readScope`) are left out for
 * a caller without `finances:view` (absent rather than null: null would read as "not set", and a
 * Club read and sent back by PUT would then need finances:edit). docs/decisions.md, issue 18.
 */
export function toClubAdmin(row: ClubRow, actor: Pick<Caller, "scopes">, stripeOn: boolean): ClubAdmin {
  const out: Record<string, unknown> = { id: row.id };
  const state: Record<string, unknown> = paymentState(row, stripeOn);
  for (const field of CLUB_FIELDS) {
    if (field.readScope && !hasScope(actor.scopes, field.readScope)) continue;
    // The payment state is not stored: it is what this installation and the club's details allow (lib/clubs/payments).
    out[field.name] = field.name in state ? state[field.name] : (row[field.name] ?? (field.nullable ? null : defaultOf(field)));
  }
  out.card_back_fields = readCardBackFields(row.card_back_fields);
  out.created_at = row.created_at;
  out.updated_at = row.updated_at;
  return out as ClubAdmin;
}

/** The caller's club (any valid key may read it: it comes with GET /api/auth/me), finance fields only with finances:view. */
export async function getClub(ctx: Ctx): Promise<ClubAdmin> {
  return toClubAdmin(await getClubRow(ctx.db, ctx.clubId), ctx.actor, !!ctx.stripe);
}

const writableFields = (names: readonly string[]): ClubField[] =>
  names.map((name) => FIELD_BY_NAME.get(name)).filter((f): f is ClubField => f?.writable === true);

/** The areas whose edit scope a write needs, in the order the 403 names them. */
const WRITE_AREAS: FieldArea[] = ["page", "card", "finances"];

/** Each area of `fields` at edit: `card:edit` for a card field, `finances:edit` for a fee, payout or accounting one. */
const writeScopes = (fields: ClubField[]): Scope[] => WRITE_AREAS.filter((area) => fields.some((f) => f.area === area)).map((area) => `${area}:edit` as const);

/**
 * What the fields `names` need: `write`, a ClubUpdate of them (updateClub's scope and each field's
 * area); `read`, seeing them in the Club (ClubAdmin leaves a field out without its `readScope`).
 * The dashboard's settings forms are shown and saved by these, so they agree with the API.
 */
export function clubFieldScopes(names: readonly string[]): { write: Scope[]; read: Scope[] } {
  const write = [...new Set([...scopeList(updateClub.scope), ...writeScopes(writableFields(names))])];
  const read = [...new Set(names.flatMap((name) => FIELD_BY_NAME.get(name)?.readScope ?? []))];
  return { write, read };
}

/** "auto" formats follow the SPEC defaults of the effective fields. */
const EFFECTIVE = { date_format: ["date_format_effective", "iso"], number_format: ["number_format_effective", "space_dot"] } as const;

/**
 * Applies a ClubUpdate. Only fields present in `input` change; null clears a nullable field and
 * leaves a non-nullable one unchanged. Needs `page:edit`, plus `card:edit` for a `card_*` field
 * and `finances:edit` for a fee, payout or accounting field (403 before anything changes).
 */
export const updateClub = verb("page:edit", async function updateClub(ctx: Ctx, input: ClubUpdate): Promise<ClubAdmin> {
  const fields = writableFields(Object.keys(input));
  requireScope(ctx.actor, ...writeScopes(fields));

  let changes: AuditChange[] = [];
  const answer = await ctx.db.tx(async (t) => {
    const [current] = await t.select().from(clubs).where(eq(clubs.id, ctx.clubId)).limit(1);
    if (!current) throw new NotFound("CLUB_NOT_FOUND");
    const now = nowIso();
    const set: Partial<Record<keyof ClubRow, unknown>> = {};
    for (const field of fields) {
      const value = input[field.name];
      if (value === undefined || (value === null && !field.nullable)) continue;
      set[field.name] = value;
      if (field.name in EFFECTIVE) {
        const [target, fallback] = EFFECTIVE[field.name as keyof typeof EFFECTIVE];
        set[target] = value === "auto" ? fallback : value;
      }
    }
    for (const name of Object.keys(set) as (keyof ClubRow)[]) if (JSON.stringify(set[name]) === JSON.stringify(current[name] ?? null)) delete set[name];
    const onPass = Object.keys(set).filter(clubFieldShowsOnPass);
    if ("card_custom_link_url" in set) set.card_custom_link_updated_at = now;
    if (onPass.length) await queuePassUpdate(t, ctx.clubId, null, onPass.join(","));
    if (Object.keys(set).length === 0) return toClubAdmin(current, ctx.actor, !!ctx.stripe);
    changes = (Object.keys(set) as (keyof ClubRow)[]).filter(auditedByValue).map((field) => ({ field, old: current[field] ?? null, new: set[field] }));
    set.updated_at = now;
    const [updated] = await t
      .update(clubs)
      .set(set as Partial<typeof clubs.$inferInsert>)
      .where(eq(clubs.id, ctx.clubId))
      .returning();
    return toClubAdmin(updated, ctx.actor, !!ctx.stripe);
  });
  // Noted once committed: the request's audit row says what changed from what (issue 28).
  if (changes.length && ctx.notes) ctx.notes.changes = [...(ctx.notes.changes ?? []), ...changes];
  return answer;
});

/**
 * The settings whose every change the audit row keeps with its old and new value: the chart of
 * accounts the books are written with. Only those: the log is read with access_control:view,
 * which may not read the payout account or the fees (finances:view).
 */
const auditedByValue = (field: string) => field.startsWith("accounting_");

/** Every club on this installation, for a superadmin's session (GET /api/superadmin/clubs). */
export async function listAllClubs(db: Db) {
  return db.read.select({ id: clubs.id, name: clubs.name, slug: clubs.slug, created_at: clubs.created_at }).from(clubs);
}
