// Statements and CPU time per member creation, with 3 webhook endpoints and without, in one
// process (no HTTP): `bun scripts/bench/webhooks-count.ts [creations]`. On a fresh copy of the
// 10,000-member dataset, `addMember` as the route calls it, 32 at once (the benchmark's
// connections, so group commits as there), then, with endpoints, the job runs that send the
// deliveries to a receiver in a child process: every SQLite statement executed is counted
// (bun:sqlite's Statement and Database entry points), and the process's CPU time read around
// each phase. A tool for reading the outbox's cost, not part of `bun run bench`.
import { Database, type Statement } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { openDb } from "../../db";
import { operatorCtx } from "../../lib/auth/operator";
import { loadConfig } from "../../lib/config";
import { runDueJobs } from "../../lib/jobs";
import { addMember } from "../../lib/members";
import { JOB_KINDS } from "../../server/jobs";
import { dataset, freshCopy } from "./datasets";
import { makeTempDir, removeTempDir } from "./harness";
import { addEndpoints, childReceiver } from "./webhooks";

const N = Number(process.argv[2] ?? 640);
const counts = new Map<string, number>();
const key = (sql: string) => sql.replace(/\s+/g, " ").slice(0, 60);
let statements = 0;
// Counting costs CPU of its own: COUNT=1 counts (and names) the statements, else only CPU is read.
const COUNT = process.env.COUNT === "1";
const tally = (sql: string) => {
  statements++;
  const k = key(sql);
  counts.set(k, (counts.get(k) ?? 0) + 1);
};
// Every statement Drizzle runs is prepared through the connection (db/sqlite.ts keeps them):
// each one's entry points count.
if (COUNT) {
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database, sql: string, ...rest: unknown[]) {
    const stmt = (prepare as (...a: unknown[]) => Statement).call(this, sql, ...rest) as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const m of ["run", "all", "get", "values"]) {
      const orig = stmt[m].bind(stmt);
      stmt[m] = (...a: unknown[]) => {
        tally(sql);
        return orig(...a);
      };
    }
    return stmt as unknown as Statement;
  } as typeof prepare;
}
if (COUNT)
  for (const m of ["exec", "run"] as const) {
    const orig = (Database.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[m];
    (Database.prototype as unknown as Record<string, unknown>)[m] = function (this: Database, sql: string, ...a: unknown[]) {
      tally(String(sql));
      return orig.call(this, sql, ...a);
    };
  }

const receiver = await childReceiver();
const ds = await dataset({ members: 10_000 }, () => {});
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function phase(endpoints: number) {
  const dir = makeTempDir("club-webhooks-count-");
  const path = freshCopy(ds, dir);
  addEndpoints(path, ds.clubId, receiver.url, endpoints);
  const config = loadConfig({ DATABASE_URL: path, OUTBOX_DIR: join(dir, "outbox"), BASE_URL: "http://127.0.0.1", WEBHOOK_ALLOW_PRIVATE: "true" });
  const db = await openDb(path);
  const ctx = await operatorCtx(db, ds.clubId, config);
  const create = async (i: number) =>
    addMember(ctx, {
      first_name: "Bench",
      last_name: "Webhook",
      email: `c-${endpoints}-${i}-${randomBytes(4).toString("hex")}@example.org`,
      membership_end: "2030-12-31",
    } as never);
  // Warm-up: the statements prepared, the JIT warm.
  for (let i = 0; i < 64; i += 32) await Promise.all(Array.from({ length: 32 }, (_, j) => create(i + j)));
  while ((await runDueJobs(db, { kinds: JOB_KINDS, config })) > 0);
  counts.clear();
  statements = 0;
  let c0 = cpu();
  let t0 = performance.now();
  for (let i = 0; i < N; i += 32) await Promise.all(Array.from({ length: 32 }, (_, j) => create(1000 + i + j)));
  const createCpu = cpu() - c0;
  const createMs = performance.now() - t0;
  const createStatements = statements;
  const createCounts = [...counts].sort((a, b) => b[1] - a[1]);
  console.log(
    `${endpoints} endpoints: ${N} creations, ${(createCpu / N).toFixed(3)} ms CPU each, ${(createMs / N).toFixed(3)} ms wall, ${(createStatements / N).toFixed(2)} statements each`,
  );
  for (const [k, c] of createCounts.slice(0, 30)) console.log(`   ${(c / N).toFixed(2).padStart(6)}  ${k}`);
  if (endpoints) {
    counts.clear();
    statements = 0;
    c0 = cpu();
    t0 = performance.now();
    let ran = 0;
    for (;;) {
      const r = await runDueJobs(db, { kinds: JOB_KINDS, config });
      if (!r) break;
      ran += r;
    }
    const d = N * endpoints;
    console.log(
      `  delivering: ${ran} jobs run, ${((cpu() - c0) / d).toFixed(3)} ms CPU a delivery, ${((performance.now() - t0) / d).toFixed(3)} ms wall, ${(statements / d).toFixed(2)} statements a delivery`,
    );
    for (const [k, c] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`   ${(c / d).toFixed(2).padStart(6)}  ${k}`);
  }
  await db.close();
  removeTempDir(dir);
}

await phase(0);
await phase(3);
await phase(0);
await phase(3);
receiver.stop();
process.exit(0);
