// Both engines side by side (issue 26 item 10, DESIGN.md section 24): the real server on
// PostgreSQL ("ours") against the real server on SQLite ("baseline"), the same dataset (10,000
// members, an event of 10,000 registrations: the check-in benchmark's, copied row for row into a
// throw-away PostgreSQL cluster), the same requests, in the same interleaved rounds; then three
// server processes on one PostgreSQL database behind Caddy (deploy/several) against one behind
// the same Caddy. Skipped, with a line saying why, where PostgreSQL (or, for the three, Caddy)
// is not installed.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scanCase } from "./checkin";
import { type BenchEnv, type Benchmark, type ConfigName, type LoadCase, loadCase, type Measurement, type Store, sqliteStore, startOurs } from "./common";
import { type Dataset, dataset } from "./datasets";
import { adopt, freePort, type Server } from "./harness";
import { addMemberCase } from "./idempotency";
import { pageSignature } from "./members";
import { type Cluster, loadDataset, postgresMissing, postgresStore, startCluster } from "./postgres";

const PROCESSES = 3;
/** At most this long waiting for a fresh server's start-up jobs before measuring. */
const SETTLE_SECONDS = 30;
const CADDY = Bun.which("caddy");

let ds: Dataset;
let pg: Store | null = null;
let cluster: Cluster | null = null;

/** The proxy of deploy/several/Caddyfile (plain http on a free port) in front of `upstreams`. */
export async function startCaddy(dir: string, upstreams: Server[]): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const file = join(dir, "Caddyfile");
  const to = upstreams.map((s) => s.url.replace("http://", "")).join(" ");
  writeFileSync(
    file,
    `{\n\tadmin off\n\tauto_https off\n}\nhttp://127.0.0.1:${port} {\n\treverse_proxy ${to} {\n\t\tlb_policy least_conn\n\t\tlb_try_duration 5s\n\t\thealth_uri /health\n\t\thealth_interval 1s\n\t\thealth_timeout 2s\n\t}\n}\n`,
  );
  const proc = Bun.spawn([CADDY as string, "run", "--config", file, "--adapter", "caddyfile"], { cwd: dir, stdout: "ignore", stderr: "ignore" });
  adopt(proc);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    proc.kill("SIGKILL");
    await proc.exited;
  };
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${url}/health`).catch(() => null))?.status === 200) return { url, pid: proc.pid, stop };
    await Bun.sleep(100);
  }
  await stop();
  throw new Error("caddy did not start");
}

/** `n` real servers on the database `url`, behind one Caddy: one Server (its pid: the first process's). */
async function behindCaddy(n: number, url: string, dir: string): Promise<Server> {
  const servers: Server[] = [];
  try {
    // On any core, as several processes are run to use several (the one of the baseline too).
    for (let i = 0; i < n; i++) servers.push(await startOurs(url, dir, {}, false));
    const proxy = await startCaddy(dir, servers);
    return {
      url: proxy.url,
      pid: servers[0].pid,
      stdout: servers[0].stdout,
      async stop() {
        await proxy.stop();
        for (const s of servers) await s.stop();
      },
    };
  } catch (err) {
    for (const s of servers) await s.stop();
    throw err;
  }
}

const listPath = () => `/api/clubs/${ds.clubId}/members`;

/** The member list's page of 50 (default sort), 32 connections. */
function listCase(config: ConfigName, round: number, env: BenchEnv): LoadCase {
  return {
    bench: "engines",
    caseId: "list",
    config,
    round,
    env,
    ds,
    baseline: null,
    path: listPath(),
    connections: env.settings.connections,
    check: (server) => pageSignature(server.url + listPath(), ds.key, `${config} GET ${listPath()}`),
    rows: { audit: "SELECT count(*) AS n FROM audit_log" },
    describe: (d, requests) => `audit rows ${d.audit}/${requests} requests`,
  };
}

/**
 * `c` also counting the answers the server refused or failed (its audit rows of status 400 and
 * over, by status): wrk counts every non-2xx, including a proxy's own, without saying which.
 */
function withRefusals(c: LoadCase): LoadCase {
  const statuses = [400, 401, 403, 404, 409, 422, 429, 500, 503];
  const rows = { ...c.rows, ...Object.fromEntries(statuses.map((s) => [`status${s}`, `SELECT count(*) AS n FROM audit_log WHERE status = ${s}`])) };
  rows.statusOther = `SELECT count(*) AS n FROM audit_log WHERE status >= 400 AND status NOT IN (${statuses.join(", ")})`;
  return {
    ...c,
    rows,
    describe(d, requests) {
      const refused = [...statuses.map((s) => [String(s), d[`status${s}`]] as const), ["other", d.statusOther] as const].filter(([, n]) => n > 0);
      return `${c.describe(d, requests)}; ${refused.length ? `answered by the server: ${refused.map(([s, n]) => `${n} × ${s}`).join(", ")}` : "no 4xx or 5xx from the server"}`;
    },
  };
}

export const engines: Benchmark = {
  name: "engines",
  title: "PostgreSQL against SQLite; three processes on one PostgreSQL against one",
  about: [
    "The real server on both engines, on the same data: the check-in benchmark's dataset (10,000 members, an event of",
    "10,000 registrations) seeded in SQLite, then copied row for row (same ids, key and codes) into a database of a",
    "throw-away PostgreSQL cluster (Debian's postgresql, `scripts/ci/pg-cluster.sh` with `PG_DURABLE=1`: fsync and",
    "synchronous commits on, as SQLite's `synchronous = FULL`) migrated by the server's own migrations; each run gets a",
    "fresh database (`CREATE DATABASE ... TEMPLATE`, or a copy of the file). **Ours**: one process on PostgreSQL;",
    "**baseline**: one process on SQLite. Requests: the member list's page of 50 (default sort, 32 connections), check-in",
    "(the checkin benchmark's 64 connections cycling through the tokens), adding a member (`POST .../members/manual`,",
    `32 connections, a new member each, as the idempotency benchmark without the key). **Three processes**: ours is ${PROCESSES}`,
    "server processes on one PostgreSQL database behind Caddy (as `deploy/several`: least_conn, health checks), the",
    `baseline one process behind the same Caddy; those servers run on any core (several processes are there to use several),`,
    `both sides warm up ${PROCESSES} times as long (each process warms up); every other server is pinned to core 0 (wrk on core 1),`,
    "PostgreSQL and Caddy unpinned. Each run is measured once the fresh server's start-up jobs (its",
    `recurring sweeps: reminders over the 10,000 members, purges, dunning) are done, at most ${SETTLE_SECONDS} s after the hand check, on both`,
    "engines. Skipped where PostgreSQL (or, for the three, Caddy) is missing.",
  ],
  cases: [
    { id: "list", title: "member list page of 50, 10,000 members: PostgreSQL vs SQLite", target: { kind: "ratio-min", value: 0.5 } },
    { id: "checkin", title: "check-in, 64 connections: PostgreSQL vs SQLite", target: { kind: "ratio-min", value: 0.4 } },
    { id: "add", title: "add member, 32 connections: PostgreSQL vs SQLite", target: { kind: "ratio-min", value: 0.4 } },
    { id: "three-list", title: `member list page of 50: ${PROCESSES} processes on PostgreSQL vs 1, behind Caddy`, target: { kind: "ratio-min", value: 1 } },
    { id: "three-add", title: `add member: ${PROCESSES} processes on PostgreSQL vs 1, behind Caddy`, target: { kind: "ratio-min", value: 1 } },
  ].map((c) => ({ ...c, kind: "load" as const, target: c.target as { kind: "ratio-min"; value: number }, baseline: true })),
  async prepare(env) {
    const missing = postgresMissing();
    if (missing) {
      env.log(`engines: skipped: ${missing}.`);
      return;
    }
    if (!CADDY) env.log("engines: the three-process cases are skipped: caddy is not installed (Debian: apt-get install caddy).");
    ds = await dataset({ members: 10_000, registrations: 10_000 }, env.log);
    const started = performance.now();
    cluster = await startCluster();
    const template = `bench_${ds.name.replace(/-/g, "_")}`;
    const copied = await loadDataset(cluster.adminUrl, template, ds);
    pg = postgresStore(cluster.adminUrl, template);
    const total = Object.values(copied).reduce((a, b) => a + b, 0);
    env.log(
      `engines: PostgreSQL cluster started, dataset ${ds.name} copied (${total} rows in ${Object.keys(copied).length} tables) ` +
        `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  },
  async run(config, round, env) {
    if (!pg) return [];
    const pgStore = pg;
    // Ours on PostgreSQL, the baseline on SQLite: the same server and requests.
    // Measured once the fresh server's start-up jobs are done, on either engine (a first start's
    // sweeps over 10,000 members are not what the requests cost).
    const engine = { bench: "engines", baseline: null, store: config === "ours" ? pgStore : sqliteStore, settleSeconds: SETTLE_SECONDS };
    const out: Measurement[] = [
      await loadCase({ ...listCase(config, round, env), ...engine }),
      await loadCase({ ...scanCase(ds, config, round, env), ...engine, caseId: "checkin" }),
      await loadCase({ ...addMemberCase(ds, config, round, env, false), ...engine, caseId: "add" }),
    ];
    if (CADDY) {
      // Both on PostgreSQL behind Caddy: three processes (ours) or one (the baseline).
      const n = config === "ours" ? PROCESSES : 1;
      // Each process warms up as long as a single one would (JIT, connections, prepared statements): the warm-up is
      // ${PROCESSES} times as long, on both sides.
      const several = {
        ...engine,
        store: pgStore,
        start: (url: string, dir: string) => behindCaddy(n, url, dir),
        warmupSeconds: env.settings.warmupSeconds * PROCESSES,
      };
      out.push(await loadCase(withRefusals({ ...listCase(config, round, env), ...several, caseId: "three-list" })));
      out.push(await loadCase(withRefusals({ ...addMemberCase(ds, config, round, env, false), ...several, caseId: "three-add" })));
    }
    return out;
  },
};
