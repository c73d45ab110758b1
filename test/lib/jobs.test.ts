// The job worker of the server (startJobWorker): jobs left pending (by a crash or a restart) run as
// soon as it starts, a backlog larger than one batch drains without waiting a tick per batch, and a
// failing job is pushed back (back-off) instead of keeping the worker busy, and stopping waits for
// the job in hand to be recorded (a graceful shutdown does not cut a delivery before its `done`).
// Up to JOB_CONCURRENCY jobs run at once, but never two of one concurrency key (one device, one
// wallet object), and those in run_after order.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { jobs } from "../../db/schema";
import { APPLE_PUSH } from "../../lib/cards/apple/apns";
import { GOOGLE_CLASS_UPDATE, GOOGLE_OBJECT_UPDATE } from "../../lib/cards/google";
import { WALLET_PASS_UPDATE } from "../../lib/passes";
import { loadConfig } from "../../lib/config";
import {
  BUSY_GAP_MS,
  BUSY_LOOK_BACK_MS,
  concurrencyKey,
  enqueueJob,
  type JobKind,
  type JobKinds,
  type JobRow,
  FINISHED_JOB_KEEP_DAYS,
  JOBS_PURGE,
  jobsPurge,
  PermanentFailure,
  recurringJob,
  RequestsInHand,
  runDueJobs,
  shareCap,
  startJobWorker,
  TemporaryFailure,
} from "../../lib/jobs";
import { JOB_KINDS } from "../../server/jobs";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());
beforeEach(() => env.db.tx((t) => t.delete(jobs)));

const runs = new Map<string, number>();
const workerOk: JobKind = {
  async run(_db, job) {
    runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
    return "ok";
  },
};
const slowRuns: string[] = [];
const workerSlow: JobKind = {
  async run(_db, job) {
    slowRuns.push(job.id);
    await Bun.sleep(40);
    return "sent";
  },
};
const workerDown: JobKind = {
  async run() {
    throw new TemporaryFailure("HTTP 503");
  },
};

const jobsOf = (kind: string) => env.db.read.select().from(jobs).where(eq(jobs.kind, kind));

async function waitFor(check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await Bun.sleep(20);
}

it("runs the pending jobs at start and drains a backlog of several batches without waiting for the next tick", async () => {
  await env.db.tx(async (t) => {
    for (let i = 0; i < 120; i++) await enqueueJob(t, { clubId: env.clubId, kind: "test_worker_ok", payload: { i } });
  });
  const started = Date.now();
  // A tick a minute away: only the run at start can do the work within the test.
  const worker = startJobWorker(env.db, env.config, KINDS, 60_000);
  try {
    await waitFor(async () => (await jobsOf("test_worker_ok")).every((j) => j.status === "done"), 5_000);
  } finally {
    worker.stop();
  }
  const rows = await jobsOf("test_worker_ok");
  expect(rows).toHaveLength(120);
  expect(rows.filter((j) => j.status !== "done")).toEqual([]);
  expect(rows.every((j) => j.attempts === 1 && runs.get(j.id) === 1)).toBe(true);
  expect(Date.now() - started).toBeLessThan(5_000);
});

it("says when the jobs found due at start are done (the server frees start-up's memory then)", async () => {
  await env.db.tx(async (t) => {
    for (let i = 0; i < 60; i++) await enqueueJob(t, { clubId: env.clubId, kind: "test_worker_ok", payload: { i } });
  });
  const worker = startJobWorker(env.db, env.config, KINDS, 60_000);
  try {
    await worker.firstPass;
    const rows = await jobsOf("test_worker_ok");
    expect(rows.filter((j) => j.status !== "done")).toEqual([]);
  } finally {
    await worker.stop();
  }
});

it("a failing job is retried later, not at once: the worker's run ends", async () => {
  await env.db.tx((t) => enqueueJob(t, { clubId: env.clubId, kind: "test_worker_down", payload: {} }));
  const worker = startJobWorker(env.db, env.config, KINDS, 60_000);
  try {
    await waitFor(async () => (await jobsOf("test_worker_down"))[0].attempts > 0, 2_000);
    await Bun.sleep(200);
  } finally {
    worker.stop();
  }
  const [job] = await jobsOf("test_worker_down");
  expect(job).toMatchObject({ status: "pending", attempts: 1, outcome: "HTTP 503" });
  expect(Date.parse(job.run_after)).toBeGreaterThan(Date.now());
});

it("while the server has requests in hand, jobs start BUSY_GAP_MS apart; once it has none, the rest at once", async () => {
  await env.db.tx(async (t) => {
    for (let i = 0; i < 60; i++) await enqueueJob(t, { clubId: env.clubId, kind: "test_worker_ok", payload: { i } });
  });
  const ids = (await jobsOf("test_worker_ok")).map((j) => j.id);
  const ran = () => ids.filter((id) => runs.has(id)).length;
  let busy = true;
  // Slots for every job of a read (50): without the gap they would all start at once.
  const worker = startJobWorker(env.db, { ...env.config, jobConcurrency: 64 }, KINDS, 60_000, () => busy);
  try {
    const started = performance.now();
    await Bun.sleep(300);
    // At most one start per gap in the time passed.
    const whileBusy = ran();
    expect(whileBusy).toBeGreaterThan(0);
    expect(whileBusy).toBeLessThanOrEqual(Math.floor((performance.now() - started) / BUSY_GAP_MS) + 1);
    busy = false;
    await waitFor(async () => (await jobsOf("test_worker_ok")).every((j) => j.status === "done"), 5_000);
  } finally {
    await worker.stop();
  }
  expect(ran()).toBe(60);
  expect((await jobsOf("test_worker_ok")).filter((j) => j.status !== "done")).toEqual([]);
});

it("the server counts as busy while a request is in hand and for BUSY_LOOK_BACK_MS after its last answer", () => {
  let now = 1_000;
  const inHand = new RequestsInHand(() => now);
  expect(inHand.busy()).toBe(false);
  inHand.started();
  inHand.started();
  expect(inHand.count).toBe(2);
  now += 5_000;
  // A long request keeps it busy however long ago it started.
  expect(inHand.busy()).toBe(true);
  inHand.answered();
  inHand.answered();
  expect(inHand.count).toBe(0);
  // Answered a moment ago: the next requests of a burst are on their way.
  now += BUSY_LOOK_BACK_MS - 1;
  expect(inHand.busy()).toBe(true);
  now += 1;
  expect(inHand.busy()).toBe(false);
});

it("stop() waits for the job in hand to be recorded and leaves the rest of the batch pending", async () => {
  await env.db.tx(async (t) => {
    for (let i = 0; i < 20; i++) await enqueueJob(t, { clubId: env.clubId, kind: "test_worker_slow", payload: { i } });
  });
  const worker = startJobWorker(env.db, env.config, KINDS, 60_000);
  await waitFor(async () => slowRuns.length >= 2, 2_000);
  await worker.stop();
  const ranAtStop = slowRuns.length;
  const rows = await jobsOf("test_worker_slow");
  // Every job the worker started is done (none cut between its work and its `done`), the others wait.
  expect(
    rows
      .filter((j) => j.status === "done")
      .map((j) => j.id)
      .sort(),
  ).toEqual([...slowRuns].sort());
  expect(rows.filter((j) => j.status === "pending")).toHaveLength(20 - ranAtStop);
  expect(ranAtStop).toBeLessThan(20);
  await Bun.sleep(100);
  expect(slowRuns).toHaveLength(ranAtStop);
});

// ---- Bounded concurrency (JOB_CONCURRENCY) and ordering by concurrency key ----------------------

/** A gate the handlers wait on until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Counts the handlers in flight at once, and the most seen. */
const flight = { now: 0, max: 0, started: [] as string[] };
const resetFlight = () => Object.assign(flight, { now: 0, max: 0, started: [] });
async function inFlight<T>(id: string, work: () => Promise<T>): Promise<T> {
  flight.started.push(id);
  flight.now++;
  flight.max = Math.max(flight.max, flight.now);
  try {
    return await work();
  } finally {
    flight.now--;
  }
}

let held = gate();
const gated: JobKind = {
  run: (_db, job) => inFlight(job.id, () => held.opened.then(() => "sent")),
  // Every gated job is its own target: nothing orders them.
  orderKey: (job) => `test_gated:${job.id}`,
};

const at4 = () => ({ ...env.config, jobConcurrency: 4 });
const queue = (kind: string, payloads: Record<string, unknown>[]) =>
  env.db.tx(async (t) => {
    for (const payload of payloads) await enqueueJob(t, { clubId: env.clubId, kind, payload });
  });

it("with JOB_CONCURRENCY=4, 8 due jobs run 4 at a time (never more) and all 8 end done", async () => {
  resetFlight();
  held = gate();
  await queue(
    "test_gated",
    Array.from({ length: 8 }, (_, i) => ({ i })),
  );
  const ran = runDueJobs(env.db, { kinds: KINDS, config: at4() });
  await waitFor(async () => flight.now === 4, 2_000);
  await Bun.sleep(50);
  // Four wait on the gate at once; the other four wait for a slot.
  expect(flight.now).toBe(4);
  expect(flight.started).toHaveLength(4);
  expect((await jobsOf("test_gated")).filter((j) => j.status === "done")).toHaveLength(0);
  held.open();
  expect(await ran).toBe(8);
  expect(flight.max).toBe(4);
  const rows = await jobsOf("test_gated");
  expect(rows.map((j) => [j.status, j.attempts, j.outcome])).toEqual(Array.from({ length: 8 }, () => ["done", 1, "sent"]));
});

it("the worker keeps JOB_CONCURRENCY jobs in flight over a backlog, reads more as slots free up, and runs each job once", async () => {
  resetFlight();
  held = gate();
  held.open();
  await queue(
    "test_paced",
    Array.from({ length: 120 }, (_, i) => ({ i })),
  );
  const worker = startJobWorker(env.db, at4(), KINDS, 60_000);
  try {
    await waitFor(async () => (await jobsOf("test_paced")).every((j) => j.status === "done"), 10_000);
  } finally {
    await worker.stop();
  }
  const rows = await jobsOf("test_paced");
  expect(rows.filter((j) => j.status !== "done" || j.attempts !== 1)).toEqual([]);
  // Each job started once (a query made while others ran left the ones in hand out), 4 at a time.
  expect(flight.started).toHaveLength(120);
  expect(new Set(flight.started).size).toBe(120);
  expect(flight.max).toBe(4);
});
const paced: JobKind = { run: (_db, job) => inFlight(job.id, () => Bun.sleep(5).then(() => "sent")), orderKey: (job) => `test_paced:${job.id}` };

/** What a keyed job did, in time order: `start a1`, `end a1`, ... */
const keyedLog: string[] = [];
const keyed: JobKind = {
  async run(_db, job) {
    const name = String(job.payload.name);
    keyedLog.push(`start ${name}`);
    await Bun.sleep(30);
    keyedLog.push(`end ${name}`);
    return "sent";
  },
  orderKey: (job) => `test_keyed:${String(job.payload.target)}`,
};

it("two jobs with the same target key never overlap and run in run_after order; jobs of different keys overlap", async () => {
  keyedLog.length = 0;
  // Interleaved in time: a1 b1 a2 b2 a3.
  const names = ["a1", "b1", "a2", "b2", "a3"];
  await queue(
    "test_keyed",
    names.map((name) => ({ name, target: name[0] })),
  );
  const base = Date.now() - 10_000;
  for (const row of await jobsOf("test_keyed")) {
    const runAfter = new Date(base + names.indexOf(String(row.payload.name)) * 1000).toISOString();
    await env.db.tx((t) => t.update(jobs).set({ run_after: runAfter }).where(eq(jobs.id, row.id)));
  }
  expect(await runDueJobs(env.db, { kinds: KINDS, config: at4() })).toBe(5);
  const of = (target: string) => keyedLog.filter((e) => e.endsWith(`${target}1`) || e.endsWith(`${target}2`) || e.endsWith(`${target}3`));
  // One key: each job ends before the next one starts, in order.
  expect(of("a")).toEqual(["start a1", "end a1", "start a2", "end a2", "start a3", "end a3"]);
  expect(of("b")).toEqual(["start b1", "end b1", "start b2", "end b2"]);
  // Different keys: a1 and b1 both started before either ended (which first is the database's
  // answer order: on PostgreSQL each job's status check is a query of its own, on any connection).
  expect(keyedLog.slice(0, 2).sort()).toEqual(["start a1", "start b1"]);
  expect((await jobsOf("test_keyed")).every((j) => j.status === "done")).toBe(true);
});

it("jobs of one key due at the same instant run in the order they were made (a fan-out's deliveries of one millisecond)", async () => {
  keyedLog.length = 0;
  const names = ["c1", "c2", "c3", "c4", "c5"];
  await queue(
    "test_keyed",
    names.map((name) => ({ name, target: "c" })),
  );
  // One run_after for all, written newest first: PostgreSQL's rows then lie (and come back from
  // the claim's UPDATE ... RETURNING) in the other order.
  const at = new Date(Date.now() - 10_000).toISOString();
  const rows = (await jobsOf("test_keyed")).filter((j) => String(j.payload.name).startsWith("c"));
  for (const row of [...rows].sort((a, b) => (a.id < b.id ? 1 : -1))) await env.db.tx((t) => t.update(jobs).set({ run_after: at }).where(eq(jobs.id, row.id)));
  expect(await runDueJobs(env.db, { kinds: KINDS, config: at4() })).toBe(5);
  expect(keyedLog.filter((e) => e.startsWith("start")).map((e) => e.slice(6))).toEqual(names);
});

it("stop() while jobs are in flight takes no new job and resolves only once every job in hand is recorded", async () => {
  resetFlight();
  held = gate();
  await queue(
    "test_gated",
    Array.from({ length: 8 }, (_, i) => ({ i })),
  );
  const worker = startJobWorker(env.db, at4(), KINDS, 60_000);
  await waitFor(async () => flight.now === 4, 2_000);
  expect(flight.now).toBe(4);
  let stopped = false;
  const stopping = worker.stop().then(() => {
    stopped = true;
  });
  await Bun.sleep(100);
  // Four answers are still awaited: stop() has not resolved, nothing is recorded yet.
  expect(stopped).toBe(false);
  expect((await jobsOf("test_gated")).filter((j) => j.status !== "pending")).toEqual([]);
  held.open();
  await stopping;
  // Re-read at once: the four in hand are done, the four never started are untouched.
  const rows = await jobsOf("test_gated");
  const inHand = new Set(flight.started);
  expect(inHand.size).toBe(4);
  expect(rows.filter((j) => inHand.has(j.id)).map((j) => [j.status, j.attempts, j.outcome])).toEqual(Array.from({ length: 4 }, () => ["done", 1, "sent"]));
  expect(rows.filter((j) => !inHand.has(j.id)).map((j) => [j.status, j.attempts])).toEqual(Array.from({ length: 4 }, () => ["pending", 0]));
  await Bun.sleep(100);
  expect(flight.started).toHaveLength(4);
});

const mixed: JobKind = {
  run: (_db, job) =>
    inFlight(job.id, async () => {
      await Bun.sleep(30);
      if (job.payload.fail === "temporary") throw new TemporaryFailure("HTTP 503");
      if (job.payload.fail === "permanent") throw new PermanentFailure("HTTP 400");
      return "HTTP 200";
    }),
  orderKey: (job) => `test_mixed:${job.id}`,
};

it("a handler that throws still records its back-off (or its failure) while the jobs running beside it succeed", async () => {
  resetFlight();
  await queue("test_mixed", [{ n: 1 }, { n: 2, fail: "temporary" }, { n: 3 }, { n: 4, fail: "permanent" }, { n: 5 }, { n: 6 }]);
  const now = new Date(Date.now() + 1);
  expect(await runDueJobs(env.db, { kinds: KINDS, config: at4(), now })).toBe(6);
  expect(flight.max).toBe(4);
  const rows = (await jobsOf("test_mixed")).sort((a, b) => Number(a.payload.n) - Number(b.payload.n));
  expect(rows.map((j) => [j.payload.n, j.status, j.attempts, j.outcome])).toEqual([
    [1, "done", 1, "HTTP 200"],
    [2, "pending", 1, "HTTP 503"],
    [3, "done", 1, "HTTP 200"],
    [4, "failed", 1, "HTTP 400"],
    [5, "done", 1, "HTTP 200"],
    [6, "done", 1, "HTTP 200"],
  ]);
  expect(rows[1].run_after).toBe(new Date(now.getTime() + 2000).toISOString());
  expect(rows[1].last_error).toContain("HTTP 503");
  expect(rows[3].finished_at).not.toBeNull();
  // The retry is due in 2 s, not before.
  expect(await runDueJobs(env.db, { kinds: KINDS, config: at4(), now: new Date(now.getTime() + 1000) })).toBe(0);
});

/** Per share: handlers of it in flight now, and the most seen at once. */
const shares = new Map<string, { now: number; max: number }>();
const sharedKind: JobKind = {
  run: async (db, job, env) => {
    const share = shares.get(String(job.payload.share)) ?? { now: 0, max: 0 };
    shares.set(String(job.payload.share), share);
    share.now++;
    share.max = Math.max(share.max, share.now);
    try {
      return await gated.run(db, job, env);
    } finally {
      share.now--;
    }
  },
  orderKey: (job) => `test_shared:${job.id}`,
  share: (job) => String(job.payload.share),
};

it("the jobs of one share hold at most a quarter of the slots: another share's job, and a job of no share, start at once beside them", async () => {
  resetFlight();
  shares.clear();
  held = gate();
  expect(shareCap(8)).toBe(2);
  expect([1, 3, 4, 64].map(shareCap)).toEqual([1, 1, 1, 16]);
  // Six jobs of club x's share are due first (its slow far ends), then one of y and one of no share.
  await queue(
    "test_shared",
    Array.from({ length: 6 }, (_, i) => ({ share: "x", i })),
  );
  await queue("test_shared", [{ share: "y" }]);
  await queue("test_gated", [{ i: 0 }]);
  const ran = runDueJobs(env.db, { kinds: KINDS, config: { ...env.config, jobConcurrency: 8 } });
  await waitFor(async () => flight.now === 4, 2_000);
  await Bun.sleep(50);
  // Two of x hold their quarter of the 8 slots; y's and the unshared job did not wait behind the four others of x.
  expect(flight.now).toBe(4);
  expect(shares.get("x")).toEqual({ now: 2, max: 2 });
  expect(shares.get("y")).toEqual({ now: 1, max: 1 });
  held.open();
  expect(await ran).toBe(8);
  expect(shares.get("x")?.max).toBe(2);
  expect((await jobsOf("test_shared")).map((j) => j.status)).toEqual(Array.from({ length: 7 }, () => "done"));
});

it("a running worker whose jobs all wait on far ends that do not answer still starts a job queued meanwhile (the tick wakes it)", async () => {
  resetFlight();
  shares.clear();
  held = gate();
  await queue(
    "test_shared",
    Array.from({ length: 4 }, (_, i) => ({ share: "x", i })),
  );
  const worker = startJobWorker(env.db, { ...env.config, jobConcurrency: 8 }, KINDS, 50);
  try {
    await waitFor(async () => flight.now === 2, 2_000);
    // Nothing is recorded while x's jobs hang: only the tick makes the run read y's job.
    await queue("test_shared", [{ share: "y" }]);
    await waitFor(async () => flight.now === 3, 1_000);
    expect(shares.get("y")?.now).toBe(1);
  } finally {
    held.open();
    await worker.stop();
  }
});

it("a job in hand whose lease lapsed (its renewal failed) is read as due again but not run a second time beside itself", async () => {
  resetFlight();
  held = gate();
  await queue("test_gated", [{ n: 1 }]);
  const worker = startJobWorker(env.db, { ...env.config, jobConcurrency: 4 }, KINDS, 20);
  try {
    await waitFor(async () => flight.now === 1, 2_000);
    // The worker's reads leave out the jobs in hand by their lease alone: a lapsed one comes back.
    await env.db.tx((t) => t.update(jobs).set({ lease_until: "2000-01-01T00:00:00.000Z" }));
    await waitFor(async () => (await jobsOf("test_gated"))[0].lease_until !== "2000-01-01T00:00:00.000Z", 2_000);
    await Bun.sleep(100);
    expect(flight.started).toHaveLength(1);
  } finally {
    held.open();
    await worker.stop();
  }
  expect((await jobsOf("test_gated")).map((j) => [j.status, j.attempts])).toEqual([["done", 1]]);
  expect(flight.started).toHaveLength(1);
});

/** The product's kinds and this file's probes: the table every run of this file is given. */
const KINDS: JobKinds = {
  ...JOB_KINDS,
  test_worker_ok: workerOk,
  test_worker_slow: workerSlow,
  test_worker_down: workerDown,
  test_gated: gated,
  test_paced: paced,
  test_keyed: keyed,
  test_mixed: mixed,
  test_shared: sharedKind,
};

it("a job of a kind the table does not name fails and is retried, as any failure", async () => {
  await queue("test_unknown", [{}]);
  await queue("constructor", [{}]);
  const now = new Date(Date.now() + 1);
  expect(await runDueJobs(env.db, { kinds: KINDS, config: env.config, now })).toBe(2);
  for (const kind of ["test_unknown", "constructor"]) {
    const [job] = await jobsOf(kind);
    expect(job).toMatchObject({ status: "pending", attempts: 1, outcome: null, run_after: new Date(now.getTime() + 2000).toISOString() });
    expect(job.last_error).toBe(`Error: no handler for job kind ${kind}`);
  }
});

describe("JOB_CONCURRENCY", () => {
  it("is 8 unless set, and takes a whole number from 1 to 64", () => {
    expect(loadConfig({}).jobConcurrency).toBe(8);
    expect(loadConfig({ JOB_CONCURRENCY: "" }).jobConcurrency).toBe(8);
    expect(loadConfig({ JOB_CONCURRENCY: "1" }).jobConcurrency).toBe(1);
    expect(loadConfig({ JOB_CONCURRENCY: "64" }).jobConcurrency).toBe(64);
    expect(loadConfig({ JOB_CONCURRENCY: "16" }).jobConcurrency).toBe(16);
  });

  it.each(["0", "65", "abc", "-1", "1.5", "8x", "1e1"])("refuses %p", (value) => {
    expect(() => loadConfig({ JOB_CONCURRENCY: value })).toThrow(`JOB_CONCURRENCY must be a whole number from 1 to 64 (got "${value}")`);
  });

  it("a server started with JOB_CONCURRENCY=0 refuses to start, saying why, and creates no database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "club-jobs-"));
    try {
      const proc = Bun.spawn(["bun", "app/main.ts"], {
        cwd: join(import.meta.dir, "../.."),
        env: { ...process.env, JOB_CONCURRENCY: "0", PORT: "1", DATABASE_URL: join(dir, "club.db") },
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(await proc.exited).toBe(1);
      expect(await new Response(proc.stderr).text()).toContain('Cannot start: JOB_CONCURRENCY must be a whole number from 1 to 64 (got "0")');
      expect(existsSync(join(dir, "club.db"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

it("wallet jobs are keyed by their target: the device, the wallet object, the club's class and fan-outs; other kinds by kind and club", () => {
  const row = (kind: string, payload: Record<string, unknown>, club_id = "c1") =>
    ({
      id: crypto.randomUUID(),
      club_id,
      kind,
      payload,
      status: "pending",
      attempts: 0,
      run_after: "",
      last_error: null,
      outcome: null,
      created_at: "",
      finished_at: null,
    }) as JobRow;
  const push = (token: string, club = "c1") => concurrencyKey(KINDS, row(APPLE_PUSH, { push_token: token, pass_type_id: "pass.org.club" }, club));
  expect(push("t1")).toBe(push("t1", "c2"));
  expect(push("t1")).not.toBe(push("t2"));
  const object = (member: string) => concurrencyKey(KINDS, row(GOOGLE_OBJECT_UPDATE, { member_id: member }));
  expect(object("m1")).toBe(object("m1"));
  expect(object("m1")).not.toBe(object("m2"));
  expect(concurrencyKey(KINDS, row(GOOGLE_CLASS_UPDATE, {}))).not.toBe(concurrencyKey(KINDS, row(GOOGLE_CLASS_UPDATE, {}, "c2")));
  const fanOut = (club: string) => concurrencyKey(KINDS, row(WALLET_PASS_UPDATE, { member_ids: [crypto.randomUUID()], reason: "x" }, club));
  expect(fanOut("c1")).toBe(fanOut("c1"));
  expect(fanOut("c1")).not.toBe(fanOut("c2"));
  expect(concurrencyKey(KINDS, row("test_worker_ok", { i: 1 }))).toBe(concurrencyKey(KINDS, row("test_worker_ok", { i: 2 })));
  expect(concurrencyKey(KINDS, row("test_worker_ok", { i: 1 }))).not.toBe(concurrencyKey(KINDS, row("test_worker_ok", { i: 1 }, "c2")));
});

describe("recurring jobs", () => {
  it("ensure keeps exactly one run scheduled; each run queues the next one its interval later, in the transaction that marks it done", async () => {
    let ran = 0;
    const tick = recurringJob("test.tick", 5 * 60_000, async () => `tick ${++ran}`);
    await tick.ensure(env.db);
    await tick.ensure(env.db);
    const rows = () => env.db.read.select().from(jobs).where(eq(jobs.kind, "test.tick"));
    expect((await rows()).filter((j) => j.status === "pending")).toHaveLength(1);
    const now = new Date();
    await runDueJobs(env.db, { kinds: tick.kinds, config: env.config, now });
    const after = await rows();
    expect(after.filter((j) => j.status === "done").map((j) => j.outcome)).toEqual(["tick 1"]);
    const pending = after.filter((j) => j.status === "pending");
    expect(pending).toHaveLength(1);
    expect(Date.parse(pending[0].run_after) - now.getTime()).toBe(5 * 60_000);
    await tick.ensure(env.db);
    expect((await rows()).filter((j) => j.status === "pending")).toHaveLength(1);
  });

  it("a run that fails for good still queues the next one (the chain does not wait for a restart)", async () => {
    let calls = 0;
    const broken = recurringJob("test.broken", 60 * 60_000, async () => {
      calls++;
      throw new PermanentFailure("disk full");
    });
    await broken.ensure(env.db);
    const now = new Date();
    await runDueJobs(env.db, { kinds: broken.kinds, config: env.config, now });
    expect(calls).toBe(1);
    const rows = await env.db.read.select().from(jobs).where(eq(jobs.kind, "test.broken"));
    expect(rows.filter((j) => j.status === "failed").map((j) => j.last_error)).toEqual([expect.stringContaining("disk full")]);
    const pending = rows.filter((j) => j.status === "pending");
    expect(pending).toHaveLength(1);
    expect(Date.parse(pending[0].run_after) - now.getTime()).toBe(60 * 60_000);
  });

  it("a run that fails and will be retried queues nothing more (one run stays scheduled)", async () => {
    const flaky = recurringJob("test.flaky", 60 * 60_000, async () => {
      throw new Error("busy");
    });
    await flaky.ensure(env.db);
    await runDueJobs(env.db, { kinds: flaky.kinds, config: env.config, now: new Date() });
    const rows = await env.db.read.select().from(jobs).where(eq(jobs.kind, "test.flaky"));
    expect(rows.map((j) => [j.status, j.attempts])).toEqual([["pending", 1]]);
  });

  it("the daily jobs purge deletes jobs finished (done or failed) more than a month ago, never a pending one", async () => {
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    const old = ago(FINISHED_JOB_KEEP_DAYS + 1);
    const recent = ago(FINISHED_JOB_KEEP_DAYS - 1);
    const row = (id: string, status: string, at: string) => ({
      id,
      club_id: "c",
      kind: "k",
      payload: {},
      status,
      attempts: 1,
      run_after: at,
      created_at: at,
      finished_at: status === "pending" ? null : at,
    });
    await env.db.tx((t) =>
      t
        .insert(jobs)
        .values([row("old-done", "done", old), row("old-failed", "failed", old), row("old-pending", "pending", old), row("recent-done", "done", recent)]),
    );
    await jobsPurge.ensure(env.db);
    // A second on: the purge just queued is due (the old pending row, of a kind not in this table, fails a try and stays).
    await runDueJobs(env.db, { kinds: jobsPurge.kinds, config: env.config, now: new Date(now.getTime() + 1000) });
    const left = await env.db.read.select({ id: jobs.id, kind: jobs.kind, status: jobs.status }).from(jobs);
    expect(
      left
        .filter((j) => j.kind === "k")
        .map((j) => j.id)
        .sort(),
    ).toEqual(["old-pending", "recent-done"]);
    const purge = left.filter((j) => j.kind === JOBS_PURGE);
    expect(purge.map((j) => j.status).sort()).toEqual(["done", "pending"]);
  });
});
