// What every area that changes what a card shows calls, and the card's addresses: the pass
// update queue (`queuePassUpdate`, in the caller's transaction; lib/cards/pass-updates fans it
// out to the wallets), which member fields show on a pass, and the web card, Apple pass and
// Google save-link addresses. Below clubs, members, tiers and cards, so that they can all call
// it without importing each other.
import { eq } from "drizzle-orm";
import { clubMembersIn, type Queryable } from "../../db";
import { members } from "../../db/schema";
import type { Ctx } from "../context";
import { nowIso } from "../ids";
import { enqueueJob } from "../jobs";

export const WALLET_PASS_UPDATE = "wallet_pass_update";
/** A push to one phone's Apple Wallet (lib/cards/apple/apns runs it). */
export const APPLE_PUSH = "apple_push";
/** A write of one member's Google Wallet object (lib/cards/google runs it). */
export const GOOGLE_OBJECT_UPDATE = "google_object_update";

/** Member fields that show on a pass (or decide whether it is valid). */
const MEMBER_FIELDS_ON_PASS = [
  "first_name",
  "last_name",
  "membership_start",
  "membership_end",
  "payment_status",
  "tier_id",
  "referral_code",
  "custom_fields",
] as const;
type MemberRow = typeof members.$inferSelect;

/** Whether a change of the member shows on its pass (fields absent from both sides: unchanged). */
export function memberPassChanged(before: Partial<MemberRow>, after: Partial<MemberRow>): boolean {
  return MEMBER_FIELDS_ON_PASS.some((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null));
}

/**
 * Marks the passes of `memberIds` (null: every member of the club) as changed and queues their
 * update, inside the caller's transaction `t`.
 */
export async function queuePassUpdate(t: Queryable, clubId: string, memberIds: string[] | null, reason: string): Promise<void> {
  if (memberIds && memberIds.length === 0) return;
  const now = nowIso();
  if (!memberIds) await t.update(members).set({ pass_updated_at: now }).where(eq(members.club_id, clubId));
  for (const ids of chunks(memberIds ?? [])) {
    await t.update(members).set({ pass_updated_at: now }).where(clubMembersIn(clubId, ids));
  }
  await enqueueJob(t, { clubId, kind: WALLET_PASS_UPDATE, payload: { member_ids: memberIds, reason, at: now } });
}

/**
 * Queues the update of passes the caller has already marked as changed at `at` (their
 * `pass_updated_at`), in its own statements: an import marks each member in the row it writes,
 * as marking 500 of them by `id IN (...)` read the whole club (the planner, without statistics,
 * took the club's index over the ids').
 */
export async function queueMarkedPassUpdate(t: Queryable, clubId: string, memberIds: string[], reason: string, at: string): Promise<void> {
  if (memberIds.length === 0) return;
  await enqueueJob(t, { clubId, kind: WALLET_PASS_UPDATE, payload: { member_ids: memberIds, reason, at } });
}

/**
 * Member ids per statement: an import can change 100,000 members or more at once, and one
 * statement takes at most 65,535 parameters on PostgreSQL (250,000 in Bun's SQLite).
 */
export const IDS_PER_STATEMENT = 10_000;
export const chunks = (ids: string[]) =>
  Array.from({ length: Math.ceil(ids.length / IDS_PER_STATEMENT) }, (_, i) => ids.slice(i * IDS_PER_STATEMENT, (i + 1) * IDS_PER_STATEMENT));

/** The member's web card (routes/c): the serial is its only secret. */
export const webCardUrl = (ctx: Pick<Ctx, "baseUrl">, serial: string) => `${ctx.baseUrl}/c/${serial}`;

/** The member's "add to wallet" addresses: null for a platform that is not configured. */
export function walletUrls(ctx: Pick<Ctx, "baseUrl" | "wallets">, serial: string): { apple: string | null; google: string | null; web: string } {
  return {
    apple: ctx.wallets.apple ? applePassUrl(ctx.baseUrl, serial) : null,
    google: ctx.wallets.google ? googleSaveLinkUrl(ctx.baseUrl, serial) : null,
    web: webCardUrl(ctx, serial),
  };
}

/** The signed Apple Wallet pass (routes/c/[serial]/pass.pkpass). */
export const applePassUrl = (baseUrl: string, serial: string) => `${baseUrl}/c/${serial}/pass.pkpass`;

/** The redirect to Google Wallet's save link (routes/c/[serial]/google). */
export const googleSaveLinkUrl = (baseUrl: string, serial: string) => `${baseUrl}/c/${serial}/google`;
