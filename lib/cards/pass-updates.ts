// Keeping wallet passes up to date (issue "cards", SPEC: a change of `card_custom_link_url` pushes
// an update to the active wallet passes). A change that shows on a pass calls `queuePassUpdate`
// (lib/passes, below the areas that change what a card shows) inside its own transaction: the passes concerned get a new `pass_updated_at` (their
// Last-Modified) and one `wallet_pass_update` job is queued. That job fans out, in one transaction
// that also completes it, into one delivery job per device or wallet object (each wallet channel
// says which); the job worker sends the deliveries with retries and back-off and keeps each one's
// outcome. So a restart neither loses a delivery (it is a job row) nor fans out twice. A fan-out
// also takes over the club's other pending updates (`mergePending`).
import { and, eq, ne } from "drizzle-orm";
import type { Queryable } from "../../db";
import { clubs, jobs } from "../../db/schema";
import { completeJobIn, type JobKind, type JobRow } from "../jobs";
import { chunks, WALLET_PASS_UPDATE } from "../passes";
import { WALLET_CHANNELS } from "./channels";

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
