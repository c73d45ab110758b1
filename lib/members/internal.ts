// Helpers of the members area: club-scoped lookups ("get in club or throw"), item shaping, the
// search text, dates, codes, and the history row every transition writes.
import { and, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Queryable } from "../../db";
import { memberHistory, members, tiers } from "../../db/schema";
import type { Ctx } from "../context";
import { NotFound } from "../errors";
import { newId, nowIso, randomBase62, readableCode } from "../ids";
import type { MemberAdminItem } from "./schemas";
import { foldText } from "../text";
import { derivedStatus, todayUtc } from "./status";

export { foldText, sortNameOf } from "../text";

export type MemberRow = typeof members.$inferSelect;

export function searchTextOf(m: { first_name: string; last_name: string; email: string; referral_code: string }): string {
  return foldText(`${m.first_name} ${m.last_name} ${m.email} ${m.referral_code}`);
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

// ---- dates (YYYY-MM-DD, UTC) ----

export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Same day n months later, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number);
  const total = y * 12 + (m - 1) + n;
  const ny = Math.floor(total / 12);
  const nm = total % 12;
  const last = new Date(Date.UTC(ny, nm + 1, 0)).getUTCDate();
  return `${String(ny).padStart(4, "0")}-${String(nm + 1).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/** The last day a `YYYY-MM-DD` date can name: date arithmetic past it leaves the format (five-digit years). */
export const LAST_DAY = "9999-12-31";
export const isStorableDay = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day) && day <= LAST_DAY;

/** Last day of a period of `months` starting on `start` (the end is inclusive). */
export const periodEnd = (start: string, months: number) => addDays(addMonths(start, months), -1);

// ---- codes ----

export const newReferralCode = () => readableCode(8);
export const newPassSerial = () => randomBase62(24);
export const newManageToken = () => randomBase62(32);

// ---- lookups and shaping ----

const pendingTier = alias(tiers, "pending_tier");
const referrer = alias(members, "referrer");

/** Members of the club with their tier, pending tier and referrer names, shaped as items. */
export async function loadItems(q: Queryable, clubId: string, ids: string[]): Promise<MemberAdminItem[]> {
  if (!ids.length) return [];
  const rows = await selectItems(q).where(and(eq(members.club_id, clubId), inArray(members.id, ids)));
  const byId = new Map(rows.map((r) => [r.m.id, toItem(r)]));
  return ids.map((id) => byId.get(id)).filter(Boolean) as MemberAdminItem[];
}

export function selectItems(q: Queryable) {
  return q
    .select({
      m: members,
      tier_name: tiers.name,
      pending_tier_name: pendingTier.name,
      ref_first: referrer.first_name,
      ref_last: referrer.last_name,
    })
    .from(members)
    .leftJoin(tiers, eq(tiers.id, members.tier_id))
    .leftJoin(pendingTier, eq(pendingTier.id, members.pending_tier_id))
    .leftJoin(referrer, eq(referrer.id, members.referred_by_member_id));
}

type ItemRow = { m: MemberRow; tier_name: string | null; pending_tier_name: string | null; ref_first: string | null; ref_last: string | null };

export function toItem(r: ItemRow, today = todayUtc()): MemberAdminItem {
  const { club_id: _c, search_text: _s, status_before_suspension: _b, referred_by_member_id: _r, updated_at: _u, ...m } = r.m;
  return {
    ...m,
    payment_status: m.payment_status as MemberAdminItem["payment_status"],
    status: derivedStatus(m, today),
    tier_name: r.tier_name,
    pending_tier_name: r.pending_tier_name,
    referred_by_name: r.ref_first !== null ? `${r.ref_first} ${r.ref_last ?? ""}`.trim() : null,
  };
}

/** The member of the club, or 404 (another club's id is unknown here: nothing leaks). */
export async function getMemberRow(q: Queryable, clubId: string, memberId: string): Promise<MemberRow> {
  const [row] = await q
    .select()
    .from(members)
    .where(and(eq(members.club_id, clubId), eq(members.id, memberId)))
    .limit(1);
  if (!row) throw new NotFound("MEMBER_NOT_FOUND");
  return row;
}

export async function getMemberItem(q: Queryable, clubId: string, memberId: string): Promise<MemberAdminItem> {
  const [item] = await loadItems(q, clubId, [memberId]);
  if (!item) throw new NotFound("MEMBER_NOT_FOUND");
  return item;
}

export async function getTierRow(q: Queryable, clubId: string, tierId: string) {
  const [row] = await q
    .select()
    .from(tiers)
    .where(and(eq(tiers.club_id, clubId), eq(tiers.id, tierId)))
    .limit(1);
  if (!row) throw new NotFound("TIER_NOT_FOUND");
  return row;
}

/** The history row of a transition, written in the transition's own transaction. */
export async function writeHistory(
  t: Queryable,
  ctx: Ctx,
  entry: {
    memberId: string;
    action: string;
    from?: Pick<MemberRow, "payment_status" | "membership_end"> | null;
    to: Pick<MemberRow, "payment_status" | "membership_end">;
    reason?: string | null;
    details?: Record<string, unknown>;
  },
) {
  await t.insert(memberHistory).values({
    id: newId(),
    club_id: ctx.clubId,
    member_id: entry.memberId,
    action: entry.action,
    from_status: entry.from?.payment_status ?? null,
    to_status: entry.to.payment_status,
    from_end: entry.from?.membership_end ?? null,
    to_end: entry.to.membership_end,
    reason: entry.reason ?? null,
    admin_id: ctx.actor.adminId,
    key_prefix: ctx.actor.keyPrefix,
    details: entry.details ?? null,
    created_at: nowIso(),
  });
}
