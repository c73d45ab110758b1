// Keeping wallet passes up to date (issue "cards", SPEC: a change of `card_custom_link_url` pushes
// an update to the active wallet passes). A change that shows on a pass calls `queuePassUpdate`
// inside its own transaction: the passes concerned get a new `pass_updated_at` (their
// Last-Modified) and one `wallet_pass_update` job is queued. That job fans out, in one transaction
// that also completes it, into one delivery job per device or wallet object (each wallet channel
// says which); the job worker sends the deliveries with retries and back-off and keeps each one's
// outcome. So a restart neither loses a delivery (it is a job row) nor fans out twice. A fan-out
// also takes over the club's other pending updates (`mergePending`).
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Queryable } from "../../db";
import { clubs, jobs, members } from "../../db/schema";
import type { Ctx } from "../context";
import { nowIso } from "../ids";
import { completeJobIn, enqueueJob, type JobKind, type JobRow } from "../jobs";
import { WALLET_CHANNELS } from "./channels";
import { CARD_CLUB_FIELDS } from "./view";

export const WALLET_PASS_UPDATE = "wallet_pass_update";

/** Club fields that show on a pass: exactly those the cards read (lib/cards/view). */
const CLUB_FIELDS_ON_PASS: ReadonlySet<string> = new Set(CARD_CLUB_FIELDS);
export const clubFieldShowsOnPass = (name: string) => CLUB_FIELDS_ON_PASS.has(name);

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
    await t
      .update(members)
      .set({ pass_updated_at: now })
      .where(and(eq(members.club_id, clubId), inArray(members.id, ids)));
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
const chunks = (ids: string[]) =>
  Array.from({ length: Math.ceil(ids.length / IDS_PER_STATEMENT) }, (_, i) => ids.slice(i * IDS_PER_STATEMENT, (i + 1) * IDS_PER_STATEMENT));

/**
 * The club's other pending pass updates, taken over by the fan-out of `job`: a fan-out sends the
 * passes as they are now, so one fan-out for the union of their members does the work of all of
 * them. Under a stream of changes (an import, many check-ins...) this keeps the queue from
 * growing one fan-out per change. Answers the members to fan out to (null: all).
 */
async function mergePending(t: Queryable, job: JobRow): Promise<{ memberIds: string[] | null; merged: number }> {
  const others = await t
    .select()
    .from(jobs)
    .where(and(eq(jobs.status, "pending"), eq(jobs.club_id, job.club_id), eq(jobs.kind, WALLET_PASS_UPDATE), ne(jobs.id, job.id)))
    .limit(MERGE_AT_MOST);
  let memberIds = (job.payload.member_ids as string[] | null) ?? null;
  for (const other of others) {
    const theirs = (other.payload.member_ids as string[] | null) ?? null;
    memberIds = memberIds === null || theirs === null ? null : [...new Set([...memberIds, ...theirs])];
    await completeJobIn(t, other, `merged into ${job.id}`);
  }
  return { memberIds, merged: others.length };
}

/** Pending updates one fan-out takes over at most (the rest wait for the next one). */
const MERGE_AT_MOST = 500;

/** The fan-out of a pass update (lib/cards/jobs lists it): one delivery job per device or wallet object. */
export const passUpdateJob: JobKind = {
  run: (db, job, env) =>
    db.tx(async (t) => {
      const { memberIds, merged } = await mergePending(t, job);
      // Only the configured wallets fan out, and only they are named in the outcome.
      const counts: string[] = [];
      for (const channel of WALLET_CHANNELS.filter((c) => c.configured(env.config.wallets))) {
        // In slices that fit in one statement (a device holding passes of two slices gets two pushes).
        let n = 0;
        if (memberIds === null) n = await channel.fanOut(t, job.club_id, null, env);
        for (const ids of chunks(memberIds ?? [])) n += await channel.fanOut(t, job.club_id, ids, env);
        counts.push(`${channel.name}: ${n}`);
      }
      await t.update(clubs).set({ last_wallet_push_at: env.now.toISOString() }).where(eq(clubs.id, job.club_id));
      const outcome = `${counts.length ? `deliveries queued (${counts.join(", ")})` : "no wallet configured"}${merged ? `; ${merged} later updates merged` : ""}`;
      await completeJobIn(t, job, outcome);
      return outcome;
    }),
  // A club's fan-outs one after the other, in the order of its changes; other clubs' at once.
  orderKey: (job) => `${WALLET_PASS_UPDATE}:${job.club_id}`,
};

/** The member's web card (routes/c): the serial is its only secret. */
export const webCardUrl = (ctx: Pick<Ctx, "baseUrl">, serial: string) => `${ctx.baseUrl}/c/${serial}`;

/** The member's "add to wallet" addresses: null for a platform that is not configured. */
export function walletUrls(ctx: Pick<Ctx, "baseUrl" | "wallets">, serial: string): { apple: string | null; google: string | null; web: string } {
  const urls: { apple: string | null; google: string | null; web: string } = { apple: null, google: null, web: webCardUrl(ctx, serial) };
  for (const channel of WALLET_CHANNELS) urls[channel.name] = channel.addUrl(ctx.wallets, ctx.baseUrl, serial);
  return urls;
}
