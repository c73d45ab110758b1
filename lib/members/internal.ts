// Helpers of the members area: club-scoped lookups ("get in club or throw"), item shaping, the
// search text, dates, codes, and the history row every transition writes.
import { and, eq, inArray } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Queryable } from "../../db";
import { memberHistory, members, tiers } from "../../db/schema";
import type { Ctx } from "../context";
import { NotFound } from "../errors";
import { newId, nowIso, randomBase62, readableCode } from "../ids";
import type { MemberAdminItem, PaymentStatus } from "./schemas";
import { foldText } from "../../db/text";
import { derivedStatus, todayUtc } from "./status";
import type { Emitter } from "../webhooks/emit";

export { foldText, sortNameOf } from "../../db/text";

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

// ---- stored status ----

/**
 * The change that gives the member the stored status `to` (suspend, reactivate, mark-paid and
 * import all go through it): entering `suspended` records the status it leaves (what reactivate
 * returns to); leaving `suspended` clears that record. Without `to`: the status it had before
 * its suspension (reactivate). Same status: no change.
 */
export function paymentStatusChange(
  m: Pick<MemberRow, "payment_status" | "status_before_suspension">,
  to: PaymentStatus = (m.status_before_suspension as PaymentStatus | null) ?? "paid",
): Pick<MemberRow, "payment_status" | "status_before_suspension"> | Record<string, never> {
  if (to === m.payment_status) return {};
  if (to === "suspended") return { payment_status: to, status_before_suspension: m.payment_status };
  return { payment_status: to, status_before_suspension: null };
}

// ---- codes ----

/** Where referral codes are drawn: a test replaces `referral` to force a collision. */
export const codeSource = { referral: () => readableCode(8) };
export const newReferralCode = () => codeSource.referral();

/** Rounds of draws before giving up: 25^8 codes make even one collision rare. */
const REFERRAL_DRAWS = 10;

/**
 * `n` distinct referral codes no member of the club has (unique index (club_id, referral_code)):
 * drawn, checked in batches, and drawn again where taken. Read in the writing transaction `t`, so
 * no other writer takes a code before the insert. An import draws all its codes at once.
 */
export async function freeReferralCodes(t: Queryable, clubId: string, n: number): Promise<string[]> {
  const free: string[] = [];
  const seen = new Set<string>();
  for (let round = 0; free.length < n; round++) {
    if (round === REFERRAL_DRAWS) throw new Error(`no free referral code in ${REFERRAL_DRAWS} rounds of draws`);
    const drawn: string[] = [];
    for (let i = free.length; i < n; i++) {
      const code = newReferralCode();
      if (!seen.has(code)) drawn.push(code);
      seen.add(code);
    }
    const taken = new Set<string>();
    for (let i = 0; i < drawn.length; i += 500) {
      const rows = await t
        .select({ code: members.referral_code })
        .from(members)
        .where(and(eq(members.club_id, clubId), inArray(members.referral_code, drawn.slice(i, i + 500))));
      for (const r of rows) taken.add(r.code);
    }
    free.push(...drawn.filter((c) => !taken.has(c)));
  }
  return free;
}

export const freeReferralCode = async (t: Queryable, clubId: string): Promise<string> => (await freeReferralCodes(t, clubId, 1))[0];

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

/**
 * The item of a member: built field by field from MemberAdminItem's own fields (an allow list), so
 * that no internal column (club_id, search_text, sort_name, pass_auth_token, pass_updated_at...)
 * ever leaves lib/, whatever the caller (HTTP strips by its response schema; MCP does not).
 */
export function toItem(r: ItemRow, today = todayUtc()): MemberAdminItem {
  const m = r.m;
  return {
    id: m.id,
    first_name: m.first_name,
    last_name: m.last_name,
    email: m.email,
    membership_start: m.membership_start,
    membership_end: m.membership_end,
    payment_status: m.payment_status as MemberAdminItem["payment_status"],
    status: derivedStatus(m, today),
    referral_code: m.referral_code,
    pass_serial_number: m.pass_serial_number,
    has_wallet_a: m.has_wallet_a,
    has_wallet_b: m.has_wallet_b,
    has_web: m.has_web,
    payment_method: m.payment_method,
    tier_id: m.tier_id,
    tier_name: r.tier_name,
    pending_tier_id: m.pending_tier_id,
    pending_tier_name: r.pending_tier_name,
    pending_tier_change_at: m.pending_tier_change_at,
    is_manual: m.is_manual,
    payment_mode: m.payment_mode,
    invoice_company_name: m.invoice_company_name,
    referral_count: m.referral_count,
    referral_credit_cents: m.referral_credit_cents,
    acquisition_source: m.acquisition_source,
    referred_by_name: r.ref_first !== null ? `${r.ref_first} ${r.ref_last ?? ""}`.trim() : null,
    custom_fields: m.custom_fields,
    profile_complete: m.profile_complete,
    card_email_sent_at: m.card_email_sent_at,
    card_email_reminder_sent_at: m.card_email_reminder_sent_at,
    card_installed_at: m.card_installed_at,
    renewal_opt_out_at: m.renewal_opt_out_at,
    manage_token: m.manage_token,
    created_at: m.created_at,
  } satisfies Record<keyof MemberAdminItem, unknown>;
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

export type HistoryEntry = {
  memberId: string;
  action: string;
  from?: Pick<MemberRow, "payment_status" | "membership_end"> | null;
  to: Pick<MemberRow, "payment_status" | "membership_end">;
  reason?: string | null;
  details?: Record<string, unknown>;
};

/** The member_history row of a transition (an import writes them in batches). */
export function historyRow(ctx: Ctx, entry: HistoryEntry, now = nowIso()): typeof memberHistory.$inferInsert {
  return {
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
    created_at: now,
  };
}

/** The history row of a transition, written in the transition's own transaction. */
export async function writeHistory(t: Queryable, ctx: Ctx, entry: HistoryEntry) {
  await t.insert(memberHistory).values(historyRow(ctx, entry));
}

type StatusOf = Pick<MemberRow, "id" | "payment_status" | "membership_end">;

/**
 * The webhooks of a member's change (DESIGN.md section 15), inside its transaction:
 * `member.created` (no `before`), else `member.updated` and, when the derived status moved,
 * `member.status_changed` with `previous_status`. `item` (the member as the API shows it) is
 * read only when an endpoint wants it.
 */
export async function emitMemberChange(out: Emitter, before: StatusOf | null, after: StatusOf, item: () => Promise<MemberAdminItem>): Promise<void> {
  let read: Promise<MemberAdminItem> | undefined;
  const once = () => {
    read ??= item();
    return read;
  };
  if (!before) return out.emit("member.created", once);
  await out.emit("member.updated", once);
  const today = todayUtc();
  const previous = derivedStatus(before, today);
  if (previous !== derivedStatus(after, today)) await out.emit("member.status_changed", async () => ({ ...(await once()), previous_status: previous }));
}
