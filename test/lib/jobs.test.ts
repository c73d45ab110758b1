// The job worker of the server (startJobWorker): jobs left pending (by a crash or a restart) run as
// soon as it starts, a backlog larger than one batch drains without waiting a tick per batch, and a
// failing job is pushed back (back-off) instead of keeping the worker busy, and stopping waits for
// the job in hand to be recorded (a graceful shutdown does not cut a delivery before its `done`).
import { afterAll, beforeAll, beforeEach, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { jobs } from "../../db/schema";
import { enqueueJob, registerJobHandler, startJobWorker, TemporaryFailure } from "../../lib/jobs";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());
beforeEach(() => env.db.tx((t) => t.delete(jobs)));

const runs = new Map<string, number>();
registerJobHandler("test_worker_ok", async (_db, job) => {
  runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
  return "ok";
});
const slowRuns: string[] = [];
registerJobHandler("test_worker_slow", async (_db, job) => {
  slowRuns.push(job.id);
  await Bun.sleep(40);
  return "sent";
});
registerJobHandler("test_worker_down", async () => {
  throw new TemporaryFailure("HTTP 503");
});

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
  const worker = startJobWorker(env.db, env.config, 60_000);
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

it("a failing job is retried later, not at once: the worker's run ends", async () => {
  await env.db.tx((t) => enqueueJob(t, { clubId: env.clubId, kind: "test_worker_down", payload: {} }));
  const worker = startJobWorker(env.db, env.config, 60_000);
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

it("stop() waits for the job in hand to be recorded and leaves the rest of the batch pending", async () => {
  await env.db.tx(async (t) => {
    for (let i = 0; i < 20; i++) await enqueueJob(t, { clubId: env.clubId, kind: "test_worker_slow", payload: { i } });
  });
  const worker = startJobWorker(env.db, env.config, 60_000);
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
