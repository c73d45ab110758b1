// Several processes on one queue (DESIGN.md section 19): each claims the jobs it runs with a
// lease, so no job runs twice at once, and a job whose process died is run by another once its
// lease lapses. Two database handles on one database stand for two processes (their own
// connections; on SQLite their own writer, on PostgreSQL their own pool).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { type Db, openDb } from "../../db";
import { jobs } from "../../db/schema";
import { claimJobs, enqueueJob, JOB_LEASE_MS, jobsPurge, releaseJobs, renewJobLeases, runDueJobs } from "../../lib/jobs";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let other: Db;
beforeAll(async () => {
  env = await setup();
  other = await openDb(env.config.databaseUrl);
});
afterAll(async () => {
  await other.close();
  await env.close();
});

const KIND = "test_lease";
const rowsOf = (kind: string) => env.db.read.select().from(jobs).where(eq(jobs.kind, kind));

describe("job leases", () => {
  it("two processes claiming the same 200 due jobs at once take disjoint halves that cover them all", async () => {
    await env.db.tx(async (t) => {
      for (let i = 0; i < 200; i++) await enqueueJob(t, { clubId: env.clubId, kind: KIND, payload: { i } });
    });
    const candidates = await rowsOf(KIND);
    const now = new Date(Date.now() + 1000);
    const rounds = await Promise.all(
      Array.from({ length: 8 }, (_, i) => claimJobs(i % 2 ? other : env.db, candidates.slice((i * 25) % 200, ((i * 25) % 200) + 120), now, `process-${i % 2}`)),
    );
    const claimed = rounds.flat().map((j) => j.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBe(200);
    const stored = await rowsOf(KIND);
    const owners = new Map(rounds.flatMap((r, i) => r.map((j) => [j.id, `process-${i % 2}`] as const)));
    for (const row of stored) {
      if (!owners.has(row.id)) continue;
      expect(row.lease_owner).toBe(owners.get(row.id) as string);
      expect(Date.parse(row.lease_until as string)).toBe(now.getTime() + JOB_LEASE_MS);
    }
    // Claimed a second time by anyone, before the leases lapse: nothing.
    expect(await claimJobs(other, stored, new Date(now.getTime() + JOB_LEASE_MS - 1), "process-1")).toEqual([]);
  });

  it("a job whose process died is taken by another once its lease lapses, not before; a renewed lease holds", async () => {
    await env.db.tx((t) => enqueueJob(t, { clubId: env.clubId, kind: "test_lease_dead", payload: {} }));
    const [job] = await rowsOf("test_lease_dead");
    const t0 = new Date(Date.now() + 1000);
    expect((await claimJobs(env.db, [job], t0, "dead-process")).map((j) => j.id)).toEqual([job.id]);
    expect(await claimJobs(other, [job], new Date(t0.getTime() + JOB_LEASE_MS - 1000), "live-process")).toEqual([]);
    // The dead process's lease, renewed by someone else's renewal: not extended (only the owner's count).
    await renewJobLeases(other, [job.id], new Date(t0.getTime() + JOB_LEASE_MS), "live-process");
    const taken = await claimJobs(other, [job], new Date(t0.getTime() + JOB_LEASE_MS + 1), "live-process");
    expect(taken.map((j) => [j.id, j.lease_owner])).toEqual([[job.id, "live-process"]]);
    // The live process renews: its lease holds past the first term.
    await renewJobLeases(other, [job.id], new Date(t0.getTime() + JOB_LEASE_MS + 10), "live-process");
    expect(await claimJobs(env.db, [job], new Date(t0.getTime() + 2 * JOB_LEASE_MS), "third-process")).toEqual([]);
  });

  it("a job released by a stopping process is free at once; a job run is done and held by nobody", async () => {
    await env.db.tx((t) => enqueueJob(t, { clubId: env.clubId, kind: "test_lease_release", payload: {} }));
    const [job] = await rowsOf("test_lease_release");
    const now = new Date(Date.now() + 1000);
    await claimJobs(env.db, [job], now, "stopping");
    await releaseJobs(env.db, [job.id], "stopping");
    expect((await claimJobs(other, [job], now, "next")).map((j) => j.lease_owner)).toEqual(["next"]);
    await releaseJobs(other, [job.id], "next");
    const ran = await runDueJobs(env.db, {
      kinds: { test_lease_release: { run: async () => "ok" } },
      config: env.config,
      now: new Date(Date.now() + 2000),
    });
    expect(ran).toBeGreaterThanOrEqual(1);
    const [after] = await rowsOf("test_lease_release");
    expect(after).toMatchObject({ status: "done", lease_owner: null, lease_until: null });
  });

  it("a recurring job started by many processes at once is pending once", async () => {
    await env.db.tx((t) => t.delete(jobs).where(eq(jobs.kind, "jobs.purge")));
    await Promise.all(Array.from({ length: 6 }, (_, i) => jobsPurge.ensure(i % 2 ? other : env.db)));
    const pending = (await rowsOf("jobs.purge")).filter((j) => j.status === "pending");
    expect(pending).toHaveLength(1);
  });
});
