// Background jobs: written in the same transaction as the change that causes them, run after
// commit by one worker per process, retried with back-off, and resumed after a restart (a job
// is only marked done once its handler has returned). Several processes share one queue: a
// worker claims the jobs it runs with a lease in the job's row (claimJobs), renewed while it
// runs them, so no two processes run a job at once, and a job whose process died is taken by
// another once its lease lapses. What each kind of job does comes in a table
// (JobKinds) that the caller hands to the run: no module registers anything by being imported, so
// the server's table (server/jobs) is the whole list of what its worker can run. The worker runs
// up to JOB_CONCURRENCY jobs at once, but the jobs of one concurrency key (a delivery's device or
// wallet object, a club's fan-outs) one after the other, in order, and at most a quarter of the
// slots for the jobs of one share (one club's webhooks), so one club's slow far ends cannot take
// every slot.
import { and, asc, eq, inArray, isNull, lt, lte, or, type Placeholder, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { hostname } from "node:os";
import type { Db, Queryable } from "../../db";
import { skipLocked } from "../../db/locks";
import { jobs } from "../../db/schema";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Config } from "../config";
import { newId, nowIso } from "../ids";

export type JobRow = typeof jobs.$inferSelect;
/** What a handler may need besides the database: the settings (wallet, mail) and the clock. */
export type JobEnv = { config: Config; now: Date };
/**
 * What a handler returns when it has recorded its job's outcome itself, in the transaction of
 * its own work (completeJobIn, failJobIn): the run then writes nothing more (one commit, one disk
 * sync, per job instead of two).
 */
export const RECORDED: unique symbol = Symbol("job recorded by its handler");
/** Returns the far end's answer to store as the job's outcome (or RECORDED); throws to be retried. */
export type JobHandler = (db: Db, job: JobRow, env: JobEnv) => Promise<string | undefined | void | typeof RECORDED>;

/**
 * One kind of job: what runs it, and which of its jobs must not run at once (`orderKey`): jobs
 * with the same key run one after the other, in `run_after` order; jobs with different keys may
 * run at the same time. A delivery names its target (the device, the wallet object). A kind that
 * says nothing gets `<kind>:<club_id>`: its jobs of one club keep their order, as when jobs ran
 * one at a time.
 */
export type JobKind = {
  run: JobHandler;
  orderKey?: (job: JobRow) => string;
  /**
   * The wait before each retry (ms), in order: a kind whose far end expects a published schedule
   * (webhooks: 5 s, 5 min ... 10 h) gives it here; the job fails for good once the list is used
   * up. Without it: 2 s, 4 s, 8 s ... for MAX_ATTEMPTS attempts.
   */
  retryDelaysMs?: readonly number[];
  /**
   * The share of the slots its jobs draw on: the jobs of one share hold at most shareCap(limit)
   * slots at once, whatever their keys. A kind whose far end a club chooses (its webhook
   * endpoints) names the club here, so that endpoints which hang hold a quarter of the workers
   * for their timeout, not all of them, and another club's jobs still start at once.
   */
  share?: (job: JobRow) => string;
  /**
   * Its handler reads the job's status itself, in the read of its own work (one statement instead
   * of two: a webhook delivery joins it to the delivery and its endpoint), and writes nothing,
   * returning RECORDED, when the job is no longer pending. runJob then reads no status first.
   */
  readsOwnStatus?: true;
};
/** The kinds a run knows, by the `kind` of their rows. A row of another kind fails (and is retried). */
export type JobKinds = Readonly<Record<string, JobKind>>;

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

const MAX_ATTEMPTS = 8;
/** Due jobs read per query. */
const BATCH = 50;
/** Jobs the worker holds (running or queued behind their key) before it stops reading more. */
const MAX_IN_HAND = 500;

/**
 * While the process has requests in hand, a run starts a job at most every BUSY_GAP_MS (50 a
 * second), and as many as it has slots once none is. The worker shares the one JavaScript thread
 * with the requests: a webhook delivery costs more than half the CPU of the add that caused it,
 * and a club adding members one after the other (an import by hand, a form, an automation) with
 * three endpoints paid for each add three deliveries in its own wait. Jobs are durable and
 * asynchronous (a webhook, a wallet push, a mail of a mailing): they go a little later and
 * together; the gap keeps them going under sustained load (docs/decisions.md "Session 21").
 */
export const BUSY_GAP_MS = 20;

/**
 * How long after its last answer a server still counts as busy. Under load the answers are written
 * out in bursts and the next requests arrive a moment later: in between nothing is in hand, and a
 * worker that looked only at the requests in hand started jobs as if idle (981 deliveries during a
 * 5 s run of 1,705 adds, docs/decisions.md "Session 21").
 */
export const BUSY_LOOK_BACK_MS = 50;

/**
 * The requests a server has in hand: how many (a stop waits for them), and whether it is busy for
 * its job worker (`busy`: one in hand, or one answered less than BUSY_LOOK_BACK_MS ago).
 */
export class RequestsInHand {
  count = 0;
  private lastAnswer = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  started(): void {
    this.count++;
  }

  answered(): void {
    this.count--;
    this.lastAnswer = this.now();
  }

  readonly busy = (): boolean => this.count > 0 || this.now() - this.lastAnswer < BUSY_LOOK_BACK_MS;
}

/** The kind of `job` in `kinds`; own entries only, so a row's kind never reaches Object's prototype. */
const kindOf = (kinds: JobKinds, job: JobRow): JobKind | undefined => (Object.hasOwn(kinds, job.kind) ? kinds[job.kind] : undefined);

/** The slots the jobs of one share may hold at once, of a run's `limit`: a quarter, at least one. */
export const shareCap = (limit: number): number => Math.max(1, Math.floor(limit / 4));

/** The key that orders `job` among the others (JobKind's `orderKey`). */
export function concurrencyKey(kinds: JobKinds, job: JobRow): string {
  const key = kindOf(kinds, job)?.orderKey;
  return key ? key(job) : `${job.kind}:${job.club_id}`;
}

/** Queues a job inside the caller's transaction `t`: it exists if and only if the change does. Due at once, or at `runAfter`. Returns its id. */
export async function enqueueJob(t: Queryable, job: { clubId: string; kind: string; payload: Record<string, unknown>; runAfter?: string }): Promise<string> {
  const now = nowIso();
  const id = newId();
  await t
    .insert(jobs)
    .values({ id, club_id: job.clubId, kind: job.kind, payload: job.payload, status: "pending", run_after: job.runAfter ?? now, created_at: now });
  return id;
}

/** Who claims jobs here: this process, as long as it runs (a restart is another owner). */
export const JOB_OWNER = `${hostname()}:${process.pid}:${newId().slice(-12)}`;
/**
 * How long a claim holds without being renewed: a worker renews its jobs' leases every third of
 * it while they run, so only a process that died (or hangs) lets one lapse, and then another
 * process runs the job after at most this long.
 */
export const JOB_LEASE_MS = 30_000;
/** What a job's row loses when its outcome is recorded: nobody holds it any more. */
const RELEASED = { lease_owner: null, lease_until: null };

/** A job nobody holds, or whose holder's lease has lapsed at `now`. */
const unclaimed = (now: SQL | Placeholder | string) => or(isNull(jobs.lease_until), lt(jobs.lease_until, now));

/**
 * Claims, of `candidates` (jobs read as due), those still pending, due and unclaimed at `now`,
 * for this process (JOB_OWNER) until `now` + JOB_LEASE_MS; returns them, oldest first. Several
 * processes claiming at once get different jobs (row locks, skipping locked rows; SQLite's
 * write lock serializes the claims).
 */
export async function claimJobs(db: Db, candidates: readonly JobRow[], now: Date, owner = JOB_OWNER): Promise<JobRow[]> {
  if (!candidates.length) return [];
  const at = now.toISOString();
  const until = new Date(now.getTime() + JOB_LEASE_MS).toISOString();
  // By their ids (the primary key). SQLite, which knows nothing of how many jobs are pending,
  // took the (status, run_after) index for `status = 'pending'` and passed every pending due job
  // (a backlog's thousands: 1.3-2 ms a claim) to find the candidates; `+status` leaves it out.
  const pending = db.engine === "postgres" ? eq(jobs.status, "pending") : sql`+${jobs.status} = 'pending'`;
  const claimed = await db.tx(async (t) => {
    const free = await skipLocked(
      t
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            inArray(
              jobs.id,
              candidates.map((j) => j.id),
            ),
            pending,
            lte(jobs.run_after, at),
            unclaimed(at),
          ),
        ),
    );
    if (!free.length) return [];
    return t
      .update(jobs)
      .set({ lease_owner: owner, lease_until: until })
      .where(
        inArray(
          jobs.id,
          free.map((r) => r.id),
        ),
      )
      .returning();
  });
  // In the order they were made: by run_after, then by id (time-ordered), as a fan-out's deliveries
  // of one millisecond share their run_after and PostgreSQL's RETURNING has no order; the jobs of
  // one key then run in that order (an import's member.created events reach an endpoint in the file's order).
  return claimed.sort((a, b) => (a.run_after < b.run_after ? -1 : a.run_after > b.run_after ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Extends this process's leases on `ids` (jobs it still holds) from `now`. */
export async function renewJobLeases(db: Db, ids: readonly string[], now = new Date(), owner = JOB_OWNER): Promise<void> {
  if (!ids.length) return;
  const until = new Date(now.getTime() + JOB_LEASE_MS).toISOString();
  await db.tx((t) =>
    t
      .update(jobs)
      .set({ lease_until: until })
      .where(and(inArray(jobs.id, [...ids]), eq(jobs.lease_owner, owner))),
  );
}

/** Gives back this process's claims on `ids`, jobs it will not run (a stop): another process may take them at once. */
export async function releaseJobs(db: Db, ids: readonly string[], owner = JOB_OWNER): Promise<void> {
  if (!ids.length) return;
  await db.tx((t) =>
    t
      .update(jobs)
      .set(RELEASED)
      .where(and(inArray(jobs.id, [...ids]), eq(jobs.lease_owner, owner), eq(jobs.status, "pending"))),
  );
}

/** Whether a job of `kind` is pending (due or not). */
export async function hasPendingJob(q: Queryable, kind: string): Promise<boolean> {
  const [row] = await q
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.status, "pending"), eq(jobs.kind, kind)))
    .limit(1);
  return !!row;
}

/** The statements of every job's run, prepared once per database (Db.prepareRead / prepareTx): a backlog runs them per job. */
function statements(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return {
    status: db.prepareRead("jobs.status", (q) =>
      q
        .select({ status: jobs.status })
        .from(jobs)
        .where(eq(jobs.id, p("id"))),
    ),
    done: db.prepareTx("jobs.done", (q) =>
      q
        .update(jobs)
        .set({
          status: "done",
          attempts: sql`${p("attempts")}`,
          finished_at: sql`${p("now")}`,
          last_error: null,
          outcome: sql`${p("outcome")}`,
          ...RELEASED,
        })
        .where(eq(jobs.id, p("id"))),
    ),
  };
}

/**
 * Marks `job` done inside `t`, for a handler whose work is itself a write: the work and the
 * job's completion commit together, so a crash between them cannot make the work run twice.
 * With `db` (the database `t` belongs to), the statement prepared once for it: a handler run
 * for each of a backlog's jobs (a webhook delivery) gives it.
 */
export async function completeJobIn(t: Queryable, job: JobRow, outcome: string | null, db?: Db): Promise<void> {
  if (db) {
    await statements(db)
      .done(t)
      .execute({ id: job.id, attempts: job.attempts + 1, now: nowIso(), outcome });
    return;
  }
  await t
    .update(jobs)
    .set({ status: "done", attempts: job.attempts + 1, finished_at: nowIso(), last_error: null, outcome, ...RELEASED })
    .where(eq(jobs.id, job.id));
}

/**
 * Puts `job` off until `runAfter` inside `t`, without counting an attempt (its far end is known
 * to be down for now: a webhook endpoint paused after timeouts). `outcome` says why.
 */
export async function deferJobIn(t: Queryable, job: JobRow, runAfter: string, outcome: string): Promise<void> {
  await t
    .update(jobs)
    .set({ status: "pending", run_after: runAfter, outcome, ...RELEASED })
    .where(eq(jobs.id, job.id));
}

/** What a failed attempt of `job` writes: pushed back on its kind's schedule (else 2 s, 4 s, 8 s ...), or failed for good. */
function failure(schedule: readonly number[] | undefined, job: JobRow, env: JobEnv, err: unknown) {
  const attempts = job.attempts + 1;
  const delay = schedule ? (schedule[attempts - 1] ?? 0) : 1000 * 2 ** attempts;
  const giveUp = (schedule ? attempts > schedule.length : attempts >= MAX_ATTEMPTS) || err instanceof PermanentFailure;
  return {
    attempts,
    last_error: String(err).slice(0, 1000),
    outcome: err instanceof PermanentFailure || err instanceof TemporaryFailure ? err.outcome : null,
    status: giveUp ? "failed" : "pending",
    run_after: new Date(env.now.getTime() + delay).toISOString(),
    finished_at: giveUp ? nowIso() : null,
    ...RELEASED,
  };
}

/**
 * Records inside `t` a failed attempt of `job` (of a kind whose retries follow `schedule`), for a
 * handler that records its work's outcome in the same transaction (then it returns RECORDED).
 */
export async function failJobIn(t: Queryable, job: JobRow, env: JobEnv, err: unknown, schedule?: readonly number[]): Promise<{ gaveUp: boolean }> {
  const set = failure(schedule, job, env, err);
  await t.update(jobs).set(set).where(eq(jobs.id, job.id));
  return { gaveUp: set.status === "failed" };
}

/**
 * The pending jobs due and unclaimed at `now`, oldest first: candidates to claim (a read, so
 * that an idle worker writes nothing). The jobs in hand are claimed, so their leases leave them
 * out; a job whose lease lapsed while in hand (its renewal failed) may come back, is claimed
 * again and not admitted twice (JobPool.admit). The query is one prepared statement: with the
 * jobs in hand listed as `NOT IN (...)`, each read while a backlog drained built a statement of
 * up to 500 parameters anew and compiled it (its text changes with the list's length), and the
 * reads, one per job recorded, cost more than the deliveries themselves (docs/benchmarks.md
 * "hooks16").
 */
function dueJobs(db: Db, now: Date): Promise<JobRow[]> {
  // The idle worker asks every second with nothing in hand: prepared once, such a tick runs
  // almost no JavaScript. Built anew each second, the query got hot enough for the JIT, and the
  // idle process grew by a few MB within a minute.
  return db
    .prepareRead("jobs.due", (q) =>
      q
        .select()
        .from(jobs)
        .where(and(eq(jobs.status, "pending"), lte(jobs.run_after, sql.placeholder("now")), unclaimed(sql.placeholder("now"))))
        .orderBy(asc(jobs.run_after))
        .limit(BATCH),
    )
    .execute({ now: now.toISOString() });
}

/**
 * Runs `job`'s handler and records how it went, in its own transaction: done with the far end's
 * answer, or pushed back (2 s, 4 s, 8 s ...) with the attempt counted, or failed for good after
 * MAX_ATTEMPTS or at once on a PermanentFailure. Throws only when the record itself fails.
 */
async function runJob(db: Db, kinds: JobKinds, job: JobRow, env: JobEnv): Promise<void> {
  const kind = kindOf(kinds, job);
  const handler = kind?.run;
  // A job read as due may have been completed since by another one's handler (a club's pass
  // updates merged into one fan-out, lib/cards/pass-updates): then there is nothing left to do.
  if (!kind?.readsOwnStatus) {
    const [current] = await statements(db).status.execute({ id: job.id });
    if (current?.status !== "pending") return;
  }
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    const outcome = await handler(db, job, env);
    if (outcome === RECORDED) return;
    await db.tx((t) => completeJobIn(t, job, outcome ?? null, db));
  } catch (err) {
    // Exponential back-off: 2 s, 4 s, 8 s ... (or the kind's schedule), then the job is left as failed for a person to see.
    await db.tx((t) => failJobIn(t, job, env, err, kind?.retryDelaysMs));
  }
}

/**
 * The jobs in hand of one run: at most `limit` handlers at once, at most shareCap(limit) of one
 * share (JobKind's `share`), and the jobs of one key (concurrencyKey) one after the other in the
 * order they were admitted (`run_after` order, as read). A job stays "in hand" from its admission
 * until its outcome is recorded, so a query made meanwhile leaves it out and no job runs twice at
 * once. After `stop()` (or a failed record) no job starts; the ones running finish and are
 * recorded, the ones queued stay pending. This is the one place that decides which job may start.
 */
class JobPool {
  /** Job ids admitted and not yet recorded (queued or running). */
  readonly inHand = new Set<string>();
  /** Jobs claimed that this pool will not run (admitted after a stop, or left queued by one). */
  readonly dropped: string[] = [];
  /** Per key with a chain at work: the jobs queued behind the one running. */
  private readonly chains = new Map<string, JobRow[]>();
  private readonly chainsAtWork = new Set<Promise<void>>();
  /** Chains waiting for a slot, first come first served among those whose share has room. */
  private readonly waiting: { share: string | null; go: () => void }[] = [];
  private running = 0;
  /** Slots held per share. */
  private readonly held = new Map<string, number>();
  private readonly perShare: number;
  private halted = false;
  private progressed!: Promise<void>;
  private signal!: () => void;
  /** When this run last started a job (performance.now()), for the gap while busy. */
  private lastStart = Number.NEGATIVE_INFINITY;
  /** Jobs whose handler was started. */
  ran = 0;
  /** Failures to record an outcome (the database refused): they stop the run. */
  readonly errors: unknown[] = [];

  constructor(
    private readonly db: Db,
    private readonly kinds: JobKinds,
    private readonly limit: number,
    private readonly envFor: () => JobEnv,
    private readonly stopped: () => boolean = () => false,
    /** Whether the process has requests in hand (BUSY_GAP_MS); never, for a run outside the server. */
    private readonly busy: () => boolean = () => false,
  ) {
    this.perShare = shareCap(limit);
    this.rearm();
  }

  private rearm() {
    this.progressed = new Promise((resolve) => {
      this.signal = resolve;
    });
  }

  /** Resolves at the next job recorded (or stop): capture it before looking, await it after. */
  progress(): Promise<void> {
    return this.progressed;
  }

  private notify() {
    const signal = this.signal;
    this.rearm();
    signal();
  }

  get closed(): boolean {
    return this.halted || this.stopped();
  }

  /** Nothing in hand. */
  get idle(): boolean {
    return this.inHand.size === 0;
  }

  /**
   * Whether reading more due jobs could give a free slot work: few chains wait for a slot, and
   * the hand is not full. Chains held back by their share's cap do not count: a free slot cannot
   * go to them, so the jobs of other shares must still be read.
   */
  get wantsMore(): boolean {
    if (this.closed || this.inHand.size >= MAX_IN_HAND) return false;
    let ready = 0;
    for (const w of this.waiting) if (this.shareHasRoom(w.share)) ready++;
    return ready < this.limit;
  }

  stop() {
    this.halted = true;
    this.notify();
  }

  /** Makes the run look for due jobs now, though none of its own was recorded (its jobs may all be waiting on slow far ends). */
  wake() {
    this.notify();
  }

  admit(job: JobRow): void {
    if (this.inHand.has(job.id)) return;
    if (this.closed) {
      this.dropped.push(job.id);
      return;
    }
    this.inHand.add(job.id);
    const key = concurrencyKey(this.kinds, job);
    const queued = this.chains.get(key);
    if (queued) {
      queued.push(job);
      return;
    }
    const queue = [job];
    this.chains.set(key, queue);
    const chain = this.chain(key, queue).finally(() => this.chainsAtWork.delete(chain));
    this.chainsAtWork.add(chain);
  }

  private shareOf(job: JobRow): string | null {
    return kindOf(this.kinds, job)?.share?.(job) ?? null;
  }

  /** Runs the jobs of one key in turn, each once a slot is free (and its share has room). */
  private async chain(key: string, queue: JobRow[]): Promise<void> {
    try {
      while (queue.length && !this.closed) {
        const share = this.shareOf(queue[0]);
        await this.acquire(share);
        await this.paced();
        const job = queue.shift() as JobRow;
        if (this.closed) {
          this.inHand.delete(job.id);
          this.dropped.push(job.id);
          this.release(share);
          break;
        }
        this.ran++;
        try {
          await runJob(this.db, this.kinds, job, this.envFor());
        } catch (err) {
          this.errors.push(err);
          this.halted = true;
        } finally {
          this.inHand.delete(job.id);
          this.release(share);
        }
      }
    } finally {
      // No await between the loop's last look at `queue` and here: admit() cannot add to a dropped queue.
      for (const job of queue) {
        this.inHand.delete(job.id);
        this.dropped.push(job.id);
      }
      this.chains.delete(key);
      this.notify();
    }
  }

  /**
   * Waits, while the process is busy, until BUSY_GAP_MS has passed since this run last started a
   * job. Chains woken together start one by one: the first takes the moment, the others see it.
   */
  private async paced(): Promise<void> {
    for (;;) {
      const wait = this.lastStart + BUSY_GAP_MS - performance.now();
      if (wait <= 0 || this.closed || !this.busy()) break;
      await Bun.sleep(wait);
    }
    this.lastStart = performance.now();
  }

  private shareHasRoom(share: string | null): boolean {
    return share === null || (this.held.get(share) ?? 0) < this.perShare;
  }

  private take(share: string | null) {
    this.running++;
    if (share !== null) this.held.set(share, (this.held.get(share) ?? 0) + 1);
  }

  private acquire(share: string | null): Promise<void> {
    if (this.running < this.limit && this.shareHasRoom(share)) {
      this.take(share);
      return Promise.resolve();
    }
    return new Promise((go) => this.waiting.push({ share, go }));
  }

  /** Frees a slot of `share`, then hands free slots to the waiting chains whose share has room, in their order. */
  private release(share: string | null) {
    this.running--;
    if (share !== null) {
      const left = (this.held.get(share) ?? 1) - 1;
      if (left) this.held.set(share, left);
      else this.held.delete(share);
    }
    for (let i = 0; i < this.waiting.length && this.running < this.limit; ) {
      const next = this.waiting[i];
      if (!this.shareHasRoom(next.share)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.take(next.share);
      next.go();
    }
    this.notify();
  }

  /** Resolves once every chain has ended: each job started has been recorded. */
  async settled(): Promise<void> {
    while (this.chainsAtWork.size) await Promise.all([...this.chainsAtWork]);
  }
}

/**
 * Runs the jobs due at `now` (one read, up to 50) with the handlers of `kinds` and returns how
 * many ran: up to `config.jobConcurrency` at once, the jobs of one key (concurrencyKey) one after
 * the other. Jobs that these queue (a fan-out's deliveries) wait for the next call. For tests; the
 * server runs startJobWorker.
 */
export async function runDueJobs(db: Db, options: { kinds: JobKinds; config: Config; now?: Date; stopped?: () => boolean }): Promise<number> {
  const now = options.now ?? new Date();
  const env: JobEnv = { now, config: options.config };
  const pool = new JobPool(db, options.kinds, env.config.jobConcurrency, () => env, options.stopped);
  for (const job of await claimJobs(db, await dueJobs(db, now), now)) pool.admit(job);
  await pool.settled();
  await releaseJobs(db, pool.dropped.splice(0));
  if (pool.errors.length) throw pool.errors[0];
  return pool.ran;
}

/**
 * Runs due jobs, with the handlers of `kinds`, until stopped: at once on start (jobs a crash or a restart left pending go out
 * without waiting), then every `intervalMs`. A run keeps up to `config.jobConcurrency` jobs
 * running (the jobs of one key one after the other) and reads more due jobs as slots free up,
 * so a backlog (or the deliveries a fan-out has just queued) drains without waiting a tick per
 * batch; it ends once nothing is due and nothing is in hand. While `busy()` (the server: requests
 * in hand), its jobs start BUSY_GAP_MS apart.
 * `stop()` takes no new job and resolves once every job in hand has been recorded, so a graceful
 * shutdown can close the database without cutting a delivery between its answer and its `done`.
 */
export function startJobWorker(
  db: Db,
  config: Config,
  kinds: JobKinds,
  intervalMs = 1000,
  busy: () => boolean = () => false,
): { stop(): Promise<void>; firstPass: Promise<void> } {
  let stopped = false;
  let pool: JobPool | null = null;
  let running: Promise<void> | null = null;
  const run = async () => {
    const current = new JobPool(db, kinds, config.jobConcurrency, () => ({ config, now: new Date() }), undefined, busy);
    pool = current;
    try {
      while (!stopped && !current.closed) {
        // Captured before reading: a job recorded during the read wakes the loop at once.
        const progressed = current.progress();
        let admitted = 0;
        if (current.wantsMore) {
          const now = new Date();
          const due = await claimJobs(db, await dueJobs(db, now), now);
          for (const job of due) current.admit(job);
          admitted = due.length;
        }
        // Jobs that fail are pushed into the future (back-off), so this ends once nothing is due.
        if (current.idle && !admitted) break;
        await progressed;
      }
    } catch (err) {
      console.error("job worker:", err);
      current.stop();
    } finally {
      await current.settled();
      if (current.errors.length) console.error("job worker:", current.errors[0]);
      // Claimed but not run (a stop): free at once for another process, not after the lease.
      await releaseJobs(db, current.dropped.splice(0)).catch(() => {});
      pool = null;
      running = null;
    }
  };
  const tick = () => {
    if (stopped) return;
    // A run in progress reads due jobs each time one of its own is recorded; when every job in
    // hand waits on a far end that does not answer, the tick makes it read the new ones anyway.
    if (running) (pool as JobPool | null)?.wake();
    else running = run();
  };
  const timer = setInterval(tick, intervalMs);
  // The leases of the jobs in hand, renewed well before they lapse while they are worked on.
  const renewal = setInterval(() => {
    const held = (pool as JobPool | null)?.inHand;
    if (held?.size) renewJobLeases(db, [...held]).catch((err) => console.error("job worker: lease renewal:", err));
  }, JOB_LEASE_MS / 3);
  tick();
  return {
    // The jobs due at start, run: what a start finds waiting (a first start's reminders) is done.
    firstPass: running ?? Promise.resolve(),
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(renewal);
      (pool as JobPool | null)?.stop();
      await running;
    },
  };
}

/**
 * Deletes, inside `t`, the club's jobs whose payload, error or outcome contains `text` (an
 * erased member's email: a queued mail to them is not sent, and no finished job keeps their
 * address). Matched as text, whatever the job kind, so kinds added later are covered too.
 */
export async function forgetJobsMentioning(t: Queryable, clubId: string, text: string): Promise<number> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const mentions = (column: SQLWrapper) => sql`lower(${column}) like ${pattern} escape '\\'`;
  const gone = await t
    .delete(jobs)
    .where(and(eq(jobs.club_id, clubId), or(mentions(jobs.payload), mentions(jobs.last_error), mentions(jobs.outcome))))
    .returning({ id: jobs.id });
  return gone.length;
}

// ---- recurring jobs ---------------------------------------------------------------------------

/** A job that runs every so often for as long as a server runs (a purge, the reminders). */
export type Recurring = {
  /** Its entry for the server's table of kinds (server/jobs). */
  kinds: JobKinds;
  /** At start: queues a run now unless one is pending, so the chain survives restarts and a crash. */
  ensure(db: Db): Promise<void>;
};

/** What a recurring run says it did; with `againInMs`, it has work left and its next run comes that soon instead. */
export type RecurringOutcome = string | { outcome: string; againInMs: number };

/**
 * A job of `kind` that does `work` every `everyMs`: each run queues the next in the transaction
 * that marks it done, so exactly one run stays scheduled (a run cut by a crash runs again: `work`
 * must be safe to repeat, as deleting what is expired is). A failing run is retried as any job;
 * once it fails for good, the next run is queued with that failure, so that a bad hour (disk
 * full, a bug one club's data trips) does not stop the chain until the next restart. Belongs to
 * no club.
 */
export function recurringJob(kind: string, everyMs: number, work: (db: Db, env: JobEnv) => Promise<RecurringOutcome>): Recurring {
  const next = (t: Queryable, env: JobEnv, inMs = everyMs) =>
    enqueueJob(t, { clubId: "", kind, payload: {}, runAfter: new Date(env.now.getTime() + inMs).toISOString() });
  const run: JobKind = {
    run: async (db, job, env) => {
      let outcome: string;
      let inMs = everyMs;
      try {
        const done = await work(db, env);
        if (typeof done === "string") outcome = done;
        else ({ outcome, againInMs: inMs } = done);
      } catch (err) {
        await db.tx(async (t) => {
          if ((await failJobIn(t, job, env, err)).gaveUp) await next(t, env);
        });
        return RECORDED;
      }
      await db.tx(async (t) => {
        await completeJobIn(t, job, outcome);
        await next(t, env, inMs);
      });
      return RECORDED;
    },
  };
  return {
    kinds: { [kind]: run },
    // Several processes starting at once: the unique key of pending recurring runs
    // (jobs_recurring_pending_unique) keeps one; the others' inserts do nothing.
    ensure: async (db) => {
      const now = nowIso();
      await db.tx((t) =>
        t.insert(jobs).values({ id: newId(), club_id: "", kind, payload: {}, status: "pending", run_after: now, created_at: now }).onConflictDoNothing(),
      );
    },
  };
}

export const JOBS_PURGE = "jobs.purge";
/** How long a finished job (done or failed for good) is kept for anyone looking into what happened. */
export const FINISHED_JOB_KEEP_DAYS = 30;

/**
 * Rows deleted per transaction by a purge: a day of a busy club's webhook log (18,750 of 300,000
 * deliveries) in one transaction held every other write back for 1.5 s; in slices, 0.11 s at most.
 */
export const PURGE_SLICE = 1000;

/** The ids of up to `slice` rows of `table` that `where` selects: what a purge deletes next. */
export const purgeSlice = (q: Queryable, table: SQLiteTable, id: SQLiteColumn, where: SQL | undefined, slice: number) =>
  q.select({ id }).from(table).where(where).limit(slice);

/**
 * Deletes the rows of `table` that `where` selects, `slice` per transaction, so that a purge never
 * holds the other writes back for long; answers how many. Fewer than a slice deleted: none was
 * left (or another process purges beside this one).
 */
export async function purgeInSlices(db: Db, table: SQLiteTable, id: SQLiteColumn, where: SQL | undefined, slice = PURGE_SLICE): Promise<number> {
  let purged = 0;
  for (;;) {
    const gone = await db.tx((t) =>
      t
        .delete(table)
        .where(inArray(id, purgeSlice(t, table, id, where, slice)))
        .returning({ id }),
    );
    purged += gone.length;
    if (gone.length < slice) return purged;
  }
}

/** Deletes the jobs finished more than FINISHED_JOB_KEEP_DAYS before `now`, in slices; answers how many. */
export async function purgeFinishedJobs(db: Db, now: Date, slice = PURGE_SLICE): Promise<number> {
  const before = new Date(now.getTime() - FINISHED_JOB_KEEP_DAYS * 86_400_000).toISOString();
  // run_after <= finished_at, so the (status, run_after) index narrows the scan to old rows.
  return purgeInSlices(db, jobs, jobs.id, and(inArray(jobs.status, ["done", "failed"]), lt(jobs.run_after, before), lt(jobs.finished_at, before)), slice);
}

/** Daily: the job table keeps a month of history, not every job since the club began. */
export const jobsPurge = recurringJob(JOBS_PURGE, 86_400_000, async (db, env) => `${await purgeFinishedJobs(db, env.now)} finished jobs purged`);
