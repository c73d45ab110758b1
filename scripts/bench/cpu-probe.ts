// What one request costs the server process, by engine: `bun scripts/bench/cpu-probe.ts [case...]`
// (cases: checkin, add, addkey: add with a fresh Idempotency-Key, list, me: GET /api/auth/me, search: the list's search "zolc", page 1; pdf: the PDF roster;
// default checkin, add, list; PROBE_MEMBERS sets the dataset's members, default 10,000) starts the real server on SQLite and on PostgreSQL
// (the engines benchmark's dataset and durable throw-away cluster), one after the other, each on
// a fresh copy, and for each case: waits for the start-up jobs, warms up, then loads it with wrk
// for PROBE_SECONDS (default 5) and reads the server's CPU time (/proc/<pid>/stat) before and
// after: CPU milliseconds per request (on PostgreSQL also the cluster's own: its postmaster and
// children), and the statements PostgreSQL received for one request
// (its log, `log_statement = all` for that one request). PROBE_PROFILE=1 also runs the server
// with `--cpu-prof` and keeps the profile (Chrome's format); PROBE_STATEMENTS=1 loads pg_stat_statements and
// shows PostgreSQL's time per statement; PROBE_ENGINES=postgres (or sqlite) runs one;
// PROBE_ROOT=<another worktree> probes that tree's server (the dataset and cluster are this one's);
// PROBE_PROCESSES=3 runs that many servers on any core behind Caddy (as the engines benchmark's three processes;
// PROBE_CADDY=1 puts a single one behind it too; a variant's `processes` sets its own) and adds Caddy's CPU, the whole machine's busy cores and
// PostgreSQL's commits per request.
// Needs root (the cluster) and wrk. Not part of `bun run bench`: a tool for finding where the
// time goes (docs/benchmarks.md "pgperf26").
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { scanCase } from "./checkin";
import { type BenchEnv, type LoadCase, ROOT, settled, sqliteStore, type Store } from "./common";
import { dataset } from "./datasets";
import { startCaddy } from "./engines";
import { cpuTimeMs, freePort, loadGenerator, makeTempDir, median, type Server, settingsFromEnv, startServer } from "./harness";
import { addMemberCase } from "./idempotency";
import { pageSignature } from "./members";
import { loadDataset, postgresMissing, postgresStore, startCluster, withClient } from "./postgres";

const SECONDS = Number(process.env.PROBE_SECONDS ?? 5);
const PROFILE = process.env.PROBE_PROFILE === "1";
const ENGINES = (process.env.PROBE_ENGINES ?? "sqlite,postgres").split(",");
/** The tree whose server is probed (another worktree, to compare with a commit before a change). */
const SERVER_ROOT = process.env.PROBE_ROOT ?? ROOT;
/** Rounds of every variant, interleaved (PROBE_ROUNDS, default 1). */
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 1);
/**
 * The servers compared (PROBE_VARIANTS, JSON): each a name, a tree (`root`, default PROBE_ROOT or
 * this one) and settings added to the server's environment (`env`); `"baseline": true` runs the
 * case's hand baseline instead (scripts/bench/baseline-*.ts, SQLite only), to set our cost beside
 * its. Default: this tree alone.
 */
const VARIANTS: { name: string; root?: string; env?: Record<string, string>; baseline?: boolean; processes?: number; unix?: boolean }[] = JSON.parse(
  process.env.PROBE_VARIANTS ?? '[{"name":"this"}]',
);
/** Servers behind one Caddy (PROBE_PROCESSES; PROBE_CADDY=1: behind Caddy even when one). */
const PROCESSES = Number(process.env.PROBE_PROCESSES ?? 1);
const BEHIND_CADDY = PROCESSES > 1 || process.env.PROBE_CADDY === "1";
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : ["checkin", "add", "list"];

/** `url` (TCP) as the address of the same database by the cluster's Unix socket in `dir`. */
function unixUrl(url: string, dir: string): string {
  const u = new URL(url);
  return `postgres://${u.username}@/${u.pathname.slice(1)}?host=${encodeURIComponent(dir)}&port=${u.port}`;
}

/**
 * The server's CPU time so far (all threads), ms: in our code (user) and in the kernel (system: its sockets);
 * and its minor page faults (memory the allocator gave back and a request touched again: docs/benchmarks.md,
 * "Session 23 (lead)").
 */
function cpuMs(pids: number[]): { user: number; system: number; faults: number } {
  let user = 0;
  let system = 0;
  let faults = 0;
  for (const pid of pids) {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // minflt, utime and stime are fields 10, 14 and 15 of the whole line: 8, 12 and 13 after "pid (comm) ".
    faults += Number(fields[7]);
    user += Number(fields[11]) * 10;
    system += Number(fields[12]) * 10;
  }
  return { user, system, faults };
}

/** The machine's busy and total clock ticks so far (/proc/stat's first line; idle and iowait are not busy). */
function machineTicks(): { busy: number; all: number } {
  const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const all = ticks.reduce((a, b) => a + b, 0);
  return { busy: all - ticks[3] - ticks[4], all };
}

/** PostgreSQL's commits so far, all databases (pg_stat_database; sent to the statistics at most once a second). */
async function commits(adminUrl: string): Promise<number> {
  return withClient(adminUrl, async (a) => Number((await a.query("SELECT sum(xact_commit) AS n FROM pg_stat_database")).rows[0].n));
}

/**
 * PostgreSQL's CPU time so far, ms: the cluster's postmaster and its children (the backends of
 * the server's pool, the WAL writer, the checkpointer). A backend that ended meanwhile is not
 * counted; the pool's stay open through a measurement.
 */
function clusterCpuMs(dataDir: string): number {
  const postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
      // ppid is field 4 of the line: 1 after "pid (comm) ".
      if (Number(entry) === postmaster || Number(fields[1]) === postmaster) total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // Gone between the listing and the read.
    }
  }
  return total;
}

const log = (line: string) => console.log(line);

/** The disk syncs of PostgreSQL's log so far (pg_stat_wal): what a durable commit waits for. */
async function walSyncs(adminUrl: string): Promise<number> {
  return withClient(adminUrl, async (a) => Number((await a.query("SELECT wal_sync FROM pg_stat_wal")).rows[0].wal_sync));
}

/** PROBE_STATEMENTS=1: PostgreSQL's time per statement (pg_stat_statements) during each measurement. */
const STATEMENT_TIMES = process.env.PROBE_STATEMENTS === "1";

/** Loads pg_stat_statements into the probe's cluster: a restart (pg_ctl keeps the cluster's options). */
async function trackStatements(adminUrl: string, dataDir: string) {
  await withClient(adminUrl, async (a) => {
    await a.query("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'");
  });
  const bin = readdirSync("/usr/lib/postgresql")
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  // With its log to the cluster's log file and no pipe of ours: a postmaster that inherits our
  // stdout holds it open, and we would wait for its end.
  const restart = Bun.spawnSync(
    ["su", "postgres", "-c", `/usr/lib/postgresql/${bin}/bin/pg_ctl -D '${dataDir}' -l '${join(dataDir, "..", "log")}' -w restart -m fast`],
    { stdout: "ignore", stderr: "ignore" },
  );
  if (restart.exitCode !== 0) throw new Error(`pg_ctl restart failed (${restart.exitCode})`);
  // Its settings exist once it is loaded.
  await withClient(adminUrl, async (a) => {
    await a.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    await a.query("ALTER SYSTEM SET pg_stat_statements.track_planning = on");
    await a.query("SELECT pg_reload_conf()");
  });
}

/** The statements PostgreSQL spent most time on since the last reset, per request of the measurement. */
async function showStatements(adminUrl: string, requests: number) {
  const rows = await withClient(
    adminUrl,
    async (a) =>
      (
        await a.query(
          "SELECT calls, total_exec_time AS exec, total_plan_time AS plan, query FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 8",
        )
      ).rows,
  );
  const per = (n: number) => (n / Math.max(1, requests)).toFixed(3);
  for (const r of rows)
    log(`    ${per(Number(r.calls))} calls, exec ${per(r.exec)} ms, plan ${per(r.plan)} ms per request: ${String(r.query).replace(/\s+/g, " ").slice(0, 110)}`);
}

async function main() {
  const missing = postgresMissing();
  if (missing && ENGINES.includes("postgres")) throw new Error(missing);
  const settings = { ...settingsFromEnv(), seconds: SECONDS };
  const env: BenchEnv = { gen: await loadGenerator(log), settings, log };
  const ds = await dataset({ members: Number(process.env.PROBE_MEMBERS ?? 10_000), registrations: 10_000 }, log);
  let pg: Store | null = null;
  let cluster: Awaited<ReturnType<typeof startCluster>> | null = null;
  if (ENGINES.includes("postgres")) {
    cluster = await startCluster();
    const template = `bench_${ds.name.replace(/-/g, "_")}`;
    await loadDataset(cluster.adminUrl, template, ds);
    pg = postgresStore(cluster.adminUrl, template);
    log(`cluster: ${cluster.adminUrl}`);
    if (STATEMENT_TIMES) await trackStatements(cluster.adminUrl, join(cluster.dir, "data"));
  }
  const listPath = `/api/clubs/${ds.clubId}/members`;
  const cases: Record<string, (round: number) => LoadCase> = {
    checkin: (round) => scanCase(ds, "ours", round, env),
    add: (round) => addMemberCase(ds, "ours", round, env, false),
    // The same add with a fresh Idempotency-Key each (the idempotency benchmark's "ours").
    addkey: (round) => addMemberCase(ds, "ours", round, env, true),
    list: (round) => ({
      ...addMemberCase(ds, "ours", round, env, false),
      path: listPath,
      method: "GET",
      script: undefined,
      check: (server: Server) => pageSignature(server.url + listPath, ds.key, "GET list"),
    }),
    // One member in ten holds "zolc" (bench members-100k's case `search-page`).
    search: (round) => ({
      ...addMemberCase(ds, "ours", round, env, false),
      path: `${listPath}?search=zolc`,
      method: "GET",
      script: undefined,
      check: (server: Server) => pageSignature(`${server.url}${listPath}?search=zolc`, ds.key, "GET search"),
    }),
    // The PDF roster of the 10,000 members, 4 connections: a request whose cost is the server's own work (pdfkit).
    pdf: (round) => ({
      ...addMemberCase(ds, "ours", round, env, false),
      path: `${listPath}/export?format=pdf`,
      method: "GET",
      script: undefined,
      connections: 4,
      async check(server: Server) {
        const res = await fetch(`${server.url}${listPath}/export?format=pdf`, { headers: { authorization: `Bearer ${ds.key}` } });
        if (res.status !== 200) throw new Error(`GET export pdf: ${res.status}`);
        await res.arrayBuffer();
        return "pdf";
      },
    }),
    me: (round) => ({
      ...addMemberCase(ds, "ours", round, env, false),
      baseline: "baseline-auth-me.ts",
      path: "/api/auth/me",
      method: "GET",
      script: undefined,
      async check(server: Server) {
        const res = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${ds.key}` } });
        if (res.status !== 200) throw new Error(`GET /api/auth/me: ${res.status}`);
        return "me";
      },
    }),
  };
  const out: string[] = [];
  const results: { variant: string; engine: string; name: string; rps: number; ms: number; pgMs: number; walPer: number; machineMs: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++)
    for (const variant of VARIANTS)
      for (const engine of ENGINES) {
        const store = engine === "postgres" ? (pg as Store) : sqliteStore;
        for (const name of wanted) {
          const c = cases[name](1);
          // A profile outlives the run: its folder is not one the harness removes.
          const dir = PROFILE ? mkdtempSync(join(tmpdir(), "club-probe-")) : makeTempDir("club-probe-");
          const url = await store.fresh(ds, dir);
          const port = await freePort();
          // Each process's profile a file of its own (the first: `<engine>-<case>.cpuprofile`).
          const bunOf = (i: number) =>
            PROFILE ? ["bun", "--cpu-prof", `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${engine}-${name}${i ? `-${i + 1}` : ""}.cpuprofile`] : ["bun"];
          if (variant.baseline && (!c.baseline || engine !== "sqlite")) continue;
          const entry = variant.baseline ? join(ROOT, "scripts/bench", c.baseline as string) : join(variant.root ?? SERVER_ROOT, "app/main.ts");
          // A variant with `"unix": true` reaches the cluster by its Unix socket (its folder) instead of TCP.
          const serverUrl = variant.unix && cluster ? unixUrl(url, cluster.dir) : url;
          const serverEnv = (port: number) => ({
            DATABASE_URL: serverUrl,
            PORT: String(port),
            HOST: "127.0.0.1",
            BASE_URL: `http://127.0.0.1:${port}`,
            OUTBOX_DIR: join(dir, "outbox"),
            RATE_LIMIT_PER_MINUTE: "1000000000",
            ...variant.env,
          });
          const servers: Server[] = [];
          let proxy: Awaited<ReturnType<typeof startCaddy>> | null = null;
          const processes = variant.processes ?? PROCESSES;
          if (BEHIND_CADDY || processes > 1) {
            // On any core, as the engines benchmark runs several processes (and its one-process baseline).
            for (let i = 0; i < processes; i++) {
              const p = i === 0 ? port : await freePort();
              servers.push(await startServer([...bunOf(i), entry], serverEnv(p), p, undefined, false));
            }
            proxy = await startCaddy(dir, servers);
          } else servers.push(await startServer([...bunOf(0), entry], serverEnv(port), port));
          const pids = servers.map((s) => s.pid);
          const server: Server = proxy ? { ...servers[0], url: proxy.url } : servers[0];
          try {
            await c.check(server, "ours");
            // A baseline runs no jobs: nothing to wait for.
            const settle = variant.baseline ? { waited: 0, left: 0 } : await settled(store, url, 30);
            log(`  ${engine} ${name}: start-up jobs settled in ${settle.waited.toFixed(1)} s (${settle.left} left)`);
            const headers: Record<string, string> = { authorization: `Bearer ${ds.key}` };
            if (c.method === "POST") headers["content-type"] = "application/json";
            const script = c.script?.(dir);
            const load = { url: server.url + c.path, headers, connections: c.connections, script };
            const warm = await env.gen.run({ ...load, seconds: 2 * processes });
            const pgData = engine === "postgres" && cluster ? join(cluster.dir, "data") : null;
            if (pgData && STATEMENT_TIMES) await withClient(cluster?.adminUrl as string, (a) => a.query("SELECT pg_stat_statements_reset()"));
            const pgBefore = pgData ? clusterCpuMs(pgData) : 0;
            const walBefore = pgData ? await walSyncs(cluster?.adminUrl as string) : 0;
            const commitsBefore = pgData ? await commits(cluster?.adminUrl as string) : 0;
            const caddyBefore = proxy ? cpuTimeMs(proxy.pid) : 0;
            const machineBefore = machineTicks();
            const before = cpuMs(pids);
            const result = await env.gen.run({ ...load, seconds: SECONDS, scriptArgs: [String(warm.requests + c.connections)] });
            const after = cpuMs(pids);
            const machineAfter = machineTicks();
            const caddyUsed = proxy ? cpuTimeMs(proxy.pid) - caddyBefore : 0;
            const pgUsed = pgData ? clusterCpuMs(pgData) - pgBefore : 0;
            // Counted by the backends and sent to the statistics at most once a second: read after a second's pause.
            if (pgData) await Bun.sleep(1100);
            const walUsed = pgData ? (await walSyncs(cluster?.adminUrl as string)) - walBefore : 0;
            const commitsUsed = pgData ? (await commits(cluster?.adminUrl as string)) - commitsBefore : 0;
            // Busy ticks are 10 ms each: the machine's CPU milliseconds per request, every process included.
            const machineMs = ((machineAfter.busy - machineBefore.busy) * 10) / Math.max(1, result.requests);
            const busy = ((machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.all - machineBefore.all)) * cpus().length;
            if (pgData && STATEMENT_TIMES) await showStatements(cluster?.adminUrl as string, result.requests);
            const user = after.user - before.user;
            const system = after.system - before.system;
            const used = user + system;
            const faults = (after.faults - before.faults) / Math.max(1, result.requests);
            if (engine === "postgres" && process.env.PROBE_JOBS === "1")
              await withClient(url, async (c) => {
                const rows = (await c.query("SELECT kind, status, count(*) AS n, max(finished_at) AS last FROM jobs GROUP BY 1, 2 ORDER BY 3 DESC")).rows;
                for (const r of rows) log(`    jobs: ${r.kind} ${r.status} ${r.n} (last finished ${r.last})`);
              });
            let syscalls = "";
            if (process.env.PROBE_STRACE === "1") {
              // The server's system calls during 3 s more of load (strace slows it: counts per request, not times).
              const file = join(dir, "strace.txt");
              const strace = Bun.spawn(["strace", "-c", "-f", "-o", file, "-p", String(pids[0])], { stdout: "ignore", stderr: "ignore" });
              await Bun.sleep(500);
              const traced = await env.gen.run({ ...load, seconds: 3, scriptArgs: [String(warm.requests + result.requests + 4 * c.connections)] });
              strace.kill("SIGINT");
              await strace.exited;
              const rows = readFileSync(file, "utf8")
                .split("\n")
                .map((l) => l.trim().split(/\s+/))
                .filter((f) => f.length >= 5 && /^\d/.test(f[0]) && f[f.length - 1] !== "total");
              const per = (n: number) => (n / Math.max(1, traced.requests)).toFixed(1);
              syscalls = `; system calls per request: ${rows
                .map((f) => [f[f.length - 1], Number(f[3])] as const)
                .filter(([, n]) => n / Math.max(1, traced.requests) >= 0.5)
                .sort((a, b) => b[1] - a[1])
                .map(([name, n]) => `${name} ${per(n)}`)
                .join(", ")}`;
            }
            let statements = "";
            if (engine === "postgres" && cluster) {
              // One more request, alone, with every statement logged.
              const logFile = join(cluster.dir, "log");
              const mark = readFileSync(logFile, "utf8").length;
              await withClient(cluster.adminUrl, async (a) => {
                await a.query("ALTER SYSTEM SET log_statement = 'all'");
                await a.query("SELECT pg_reload_conf()");
              });
              await Bun.sleep(300);
              const once = await env.gen.run({
                ...load,
                connections: 1,
                seconds: 1,
                scriptArgs: [String(warm.requests + result.requests + 2 * c.connections)],
              });
              await withClient(cluster.adminUrl, async (a) => {
                await a.query("ALTER SYSTEM RESET log_statement");
                await a.query("SELECT pg_reload_conf()");
              });
              const lines = readFileSync(logFile, "utf8").slice(mark).split("\n");
              const logged = lines.filter((l) => /LOG: {2}(statement|execute)/.test(l) && !/ALTER SYSTEM|pg_reload_conf/.test(l));
              statements = `; ${(logged.length / Math.max(1, once.requests)).toFixed(1)} statements per request (${once.requests} requests alone)`;
              if (process.env.PROBE_SHOW === "1")
                for (const l of logged.slice(0, Number(process.env.PROBE_SHOW_LINES ?? 40))) console.log(`    ${l.replace(/^.*LOG: {2}/, "").slice(0, 200)}`);
            }
            const pgMs = pgUsed / Math.max(1, result.requests);
            const walPer = walUsed / Math.max(1, result.requests);
            results.push({ variant: variant.name, engine, name, rps: result.rps, ms: used / Math.max(1, result.requests), pgMs, walPer, machineMs });
            const line =
              `${round} ${variant.name.padEnd(10)} ${engine.padEnd(8)} ${name.padEnd(8)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(1)} ms  ` +
              `server CPU ${(used / Math.max(1, result.requests)).toFixed(2)} ms/request (user ${(user / Math.max(1, result.requests)).toFixed(2)}, ` +
              `system ${(system / Math.max(1, result.requests)).toFixed(2)}; ${(used / 1000 / SECONDS).toFixed(2)} cores; ${faults.toFixed(2)} page faults/request)` +
              `${pgData ? `  PostgreSQL CPU ${pgMs.toFixed(2)} ms/request, log syncs ${walPer.toFixed(3)}/request, commits ${(commitsUsed / Math.max(1, result.requests)).toFixed(3)}/request` : ""}` +
              `${proxy ? `  Caddy CPU ${(caddyUsed / Math.max(1, result.requests)).toFixed(2)} ms/request` : ""}` +
              `  machine ${machineMs.toFixed(2)} ms/request (${busy.toFixed(2)} of ${cpus().length} cores busy)` +
              `${result.non2xx ? `  non-2xx ${result.non2xx}` : ""}${statements}${syscalls}`;
            log(line);
            out.push(line);
          } finally {
            await proxy?.stop();
            for (const s of servers) await s.stop();
            await store.drop(url);
          }
          if (PROFILE) log(`  profile: ${join(dir, `${engine}-${name}.cpuprofile`)} (kept)`);
        }
      }
  cluster?.stop();
  log(`\nload average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
  for (const line of out) log(line);
  log("\nmedians over the rounds:");
  for (const variant of VARIANTS)
    for (const engine of ENGINES)
      for (const name of wanted) {
        const mine = results.filter((r) => r.variant === variant.name && r.engine === engine && r.name === name);
        log(
          `${variant.name.padEnd(10)} ${engine.padEnd(8)} ${name.padEnd(8)} ${median(mine.map((r) => r.rps))
            .toFixed(0)
            .padStart(6)} req/s  ` +
            `${median(mine.map((r) => r.ms)).toFixed(2)} ms CPU/request  (rounds: ${mine.map((r) => r.ms.toFixed(2)).join(", ")}), ` +
            `machine ${median(mine.map((r) => r.machineMs)).toFixed(2)} ms (rounds: ${mine.map((r) => r.machineMs.toFixed(2)).join(", ")})` +
            (engine === "postgres"
              ? `  PostgreSQL ${median(mine.map((r) => r.pgMs)).toFixed(2)} ms (rounds: ${mine.map((r) => r.pgMs.toFixed(2)).join(", ")}), ` +
                `log syncs ${median(mine.map((r) => r.walPer)).toFixed(3)}/request (rounds: ${mine.map((r) => r.walPer.toFixed(3)).join(", ")})`
              : ""),
        );
      }
}

await main();
process.exit(0);
