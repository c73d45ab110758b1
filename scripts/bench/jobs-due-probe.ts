// The worker's read of due jobs while a backlog drains, timed in one process: 2,000 pending
// webhook jobs, the 500 oldest claimed (the worker's hand), then the read as the worker makes it
// after each job recorded, the jobs in hand left out by their lease (one prepared statement) and,
// for comparison, as before hooks16: also listed in `NOT IN (...)` (a query of 500 parameters
// built and compiled anew each time). `bun scripts/bench/jobs-due-probe.ts`; PROBE_INDEX=1 adds an
// index of (status, run_after, lease_until) first. Not part of `bun run bench`.
import { and, asc, eq, isNull, lt, lte, notInArray, or, sql } from "drizzle-orm";
import { join } from "node:path";
import { openDb } from "../../db";
import { jobs } from "../../db/schema";
import { newId } from "../../lib/ids";
import { makeTempDir, median, removeTempDir } from "./harness";

const dir = makeTempDir("club-jobs-due-probe-");
const db = await openDb(join(dir, "club.db"));
const now = new Date();
const at = now.toISOString();
const until = new Date(now.getTime() + 30_000).toISOString();
const ids: string[] = [];
await db.tx(async (t) => {
  for (let i = 0; i < 2000; i++) {
    const id = newId();
    ids.push(id);
    const runAfter = new Date(now.getTime() - 60_000 + i).toISOString();
    await t.insert(jobs).values({
      id,
      club_id: "c",
      kind: "webhook_delivery",
      payload: { delivery_id: newId(), endpoint_id: "e" },
      status: "pending",
      run_after: runAfter,
      created_at: runAfter,
      ...(i < 500 ? { lease_owner: "me", lease_until: until } : {}),
    });
  }
});
const inHand = ids.slice(0, 500);
// PROBE_INDEX=1: the index also holds lease_until, so the read can pass the claimed jobs on the index alone.
if (process.env.PROBE_INDEX === "1") db.raw.exec("CREATE INDEX jobs_due_probe_idx ON jobs (status, run_after, lease_until)");
const unclaimed = (x: ReturnType<typeof sql.placeholder> | string) => or(isNull(jobs.lease_until), lt(jobs.lease_until, x));
const listed = (n: number) =>
  db.read
    .select()
    .from(jobs)
    .where(and(eq(jobs.status, "pending"), lte(jobs.run_after, at), unclaimed(at), notInArray(jobs.id, inHand.slice(0, n))))
    .orderBy(asc(jobs.run_after))
    .limit(50);
const prepared = () =>
  db
    .prepareRead("probe.due", (q) =>
      q
        .select()
        .from(jobs)
        .where(and(eq(jobs.status, "pending"), lte(jobs.run_after, sql.placeholder("now")), unclaimed(sql.placeholder("now"))))
        .orderBy(asc(jobs.run_after))
        .limit(50),
    )
    .execute({ now: at });
const times: Record<string, number[]> = { listed: [], prepared: [] };
for (let round = 0; round < 400; round++) {
  // The list's length changes as jobs are recorded and read: 450-499 ids, as in a drain.
  let t0 = performance.now();
  const a = await listed(450 + (round % 50));
  times.listed.push(performance.now() - t0);
  t0 = performance.now();
  const b = await prepared();
  times.prepared.push(performance.now() - t0);
  if (a.length !== 50 || b.length !== 50 || a[0].id !== b[0].id) throw new Error("the two reads differ");
}
for (const [k, v] of Object.entries(times)) console.log(`${k}: median ${median(v.slice(50)).toFixed(3)} ms a read (after 50 of warm-up)`);
await db.close();
removeTempDir(dir);
