// Background jobs: written in the same transaction as the change that causes them, run after
// commit by one worker per process, retried with back-off, and resumed after a restart (a job
// is only marked done once its handler has returned). Handlers register by kind.
import { and, asc, eq, lte } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { jobs } from "../../db/schema";
import { type Config, loadConfig } from "../config";
import { newId, nowIso } from "../ids";

export type JobRow = typeof jobs.$inferSelect;
/** What a handler may need besides the database: the settings (wallet, mail) and the clock. */
export type JobEnv = { config: Config; now: Date };
/** Returns the far end's answer to store as the job's outcome; throws to be retried. */
export type JobHandler = (db: Db, job: JobRow, env: JobEnv) => Promise<string | undefined | void>;

/** A failure that retrying cannot fix (the far end refused the request itself): no retry. */
export class PermanentFailure extends Error {
  constructor(readonly outcome: string) {
    super(outcome);
  }
}

/** A failure worth retrying, with the far end's answer kept as the outcome. */
export class TemporaryFailure extends Error {
  constructor(readonly outcome: string) {
    super(outcome);
  }
}

const handlers = new Map<string, JobHandler>();
const MAX_ATTEMPTS = 8;

export function registerJobHandler(kind: string, handler: JobHandler): void {
  handlers.set(kind, handler);
}

/** Queues a job inside the caller's transaction `t`: it exists if and only if the change does. */
export async function enqueueJob(t: Queryable, job: { clubId: string; kind: string; payload: Record<string, unknown> }) {
  const now = nowIso();
  await t.insert(jobs).values({ id: newId(), club_id: job.clubId, kind: job.kind, payload: job.payload, status: "pending", run_after: now, created_at: now });
}

/**
 * Marks `job` done inside `t`, for a handler whose work is itself a write: the work and the
 * job's completion commit together, so a crash between them cannot make the work run twice.
 */
export async function completeJobIn(t: Queryable, job: JobRow, outcome: string): Promise<void> {
  await t
    .update(jobs)
    .set({ status: "done", attempts: job.attempts + 1, finished_at: nowIso(), last_error: null, outcome })
    .where(eq(jobs.id, job.id));
}

/** Runs every due job once; returns how many ran. Exposed for tests and the worker loop. */
export async function runDueJobs(db: Db, options: { now?: Date; config?: Config; stopped?: () => boolean } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const env: JobEnv = { now, config: options.config ?? loadConfig() };
  const due = await db.read
    .select()
    .from(jobs)
    .where(and(eq(jobs.status, "pending"), lte(jobs.run_after, now.toISOString())))
    .orderBy(asc(jobs.run_after))
    .limit(50);
  let ran = 0;
  for (const job of due) {
    // A stopping worker finishes the job in hand, not the rest of the batch.
    if (options.stopped?.()) break;
    ran++;
    const handler = handlers.get(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const outcome = await handler(db, job, env);
      await db.tx((t) =>
        t
          .update(jobs)
          .set({ status: "done", attempts: job.attempts + 1, finished_at: nowIso(), last_error: null, outcome: outcome ?? null })
          .where(eq(jobs.id, job.id)),
      );
    } catch (err) {
      const attempts = job.attempts + 1;
      // Exponential back-off: 2 s, 4 s, 8 s ... then the job is left as failed for a person to see.
      const retryAt = new Date(now.getTime() + 1000 * 2 ** attempts).toISOString();
      const giveUp = attempts >= MAX_ATTEMPTS || err instanceof PermanentFailure;
      const outcome = err instanceof PermanentFailure || err instanceof TemporaryFailure ? err.outcome : null;
      await db.tx((t) =>
        t
          .update(jobs)
          .set({
            attempts,
            last_error: String(err).slice(0, 1000),
            outcome,
            status: giveUp ? "failed" : "pending",
            run_after: retryAt,
            finished_at: giveUp ? nowIso() : null,
          })
          .where(eq(jobs.id, job.id)),
      );
    }
  }
  return ran;
}

/**
 * Runs due jobs until stopped: at once on start (jobs a crash or a restart left pending go out
 * without waiting), then every `intervalMs`; each run goes on while jobs are due, so a backlog
 * (or the deliveries a fan-out has just queued) drains without waiting a tick per batch.
 * `stop()` resolves once the job in hand (if any) has been recorded, so a graceful shutdown
 * can close the database without cutting a delivery between its answer and its `done`.
 */
export function startJobWorker(db: Db, config: Config, intervalMs = 1000): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> | null = null;
  const run = async () => {
    try {
      // Jobs that fail are pushed into the future (back-off), so this ends once nothing is due.
      while (!stopped && (await runDueJobs(db, { config, stopped: () => stopped })) > 0);
    } catch (err) {
      console.error("job worker:", err);
    } finally {
      running = null;
    }
  };
  const tick = () => {
    if (running || stopped) return;
    running = run();
  };
  const timer = setInterval(tick, intervalMs);
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
