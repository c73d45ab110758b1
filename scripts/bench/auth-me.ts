// Benchmark of GET /api/auth/me: the real server (`bun server/index.ts`) against the hand-written
// baseline (scripts/bench/baseline-auth-me.ts), each on a fresh database prepared the same way
// (the real server's first start: one club, its owner, one all-edit key). The configurations are
// interleaved over rounds (their order alternating) so that drift of the machine hits both alike;
// the ratio ours/baseline is taken within each round, then its median.
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { freePort, type LoadGenerator, type LoadResult, makeTempDir, median, removeTempDir, type Server, type Settings, startServer } from "./harness";

const ROOT = join(import.meta.dir, "..", "..");
const PATH = "/api/auth/me";
/** The server's per-key limit (300 a minute) would turn the run into 429s: lifted for the server under test. */
export const BENCH_RATE_LIMIT = "1000000000";

export type ConfigName = "ours" | "baseline";
export type Run = LoadResult & { round: number; config: ConfigName; auditRows: number };
export type Summary = { config: ConfigName; rps: number; p50Ms: number; p99Ms: number };
export type AuthMeResult = { runs: Run[]; summary: Summary[]; ratios: number[]; ratio: number };

type Started = { server: Server; key: string; dbPath: string };

/** The real server on a fresh database: reads the key it prints at its first start. */
async function startOurs(dir: string): Promise<Started> {
  const port = await freePort();
  const dbPath = join(dir, "club.db");
  const server = await startServer(
    ["bun", join(ROOT, "server/index.ts")],
    {
      DATABASE_URL: dbPath,
      PORT: String(port),
      HOST: "127.0.0.1",
      OUTBOX_DIR: join(dir, "outbox"),
      RATE_LIMIT_PER_MINUTE: BENCH_RATE_LIMIT,
      CLUB_NAME: "Bench club",
      ADMIN_EMAIL: "bench@example.org",
    },
    port,
  );
  const key = /API key:\s+(mk_live_\w+)/.exec(server.stdout)?.[1];
  if (!key) {
    await server.stop();
    throw new Error(`the server printed no API key:\n${server.stdout}`);
  }
  return { server, key, dbPath };
}

/** The baseline on the same kind of database: prepared by the real server's first start, then stopped. */
async function startBaseline(dir: string): Promise<Started> {
  const prepared = await startOurs(dir);
  await prepared.server.stop();
  const port = await freePort();
  const server = await startServer(
    ["bun", join(ROOT, "scripts/bench/baseline-auth-me.ts")],
    { DATABASE_URL: prepared.dbPath, PORT: String(port), HOST: "127.0.0.1" },
    port,
  );
  return { server, key: prepared.key, dbPath: prepared.dbPath };
}

function auditRows(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.query("SELECT count(*) AS n FROM audit_log").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** One request by hand before the load: the key works, and the rate limit really is lifted. */
async function check(config: ConfigName, started: Started) {
  const res = await fetch(started.server.url + PATH, { headers: { authorization: `Bearer ${started.key}` } });
  const body = (await res.json()) as { club_id?: string };
  if (res.status !== 200 || !body.club_id) throw new Error(`${config}: GET ${PATH} answered ${res.status} ${JSON.stringify(body)}`);
  if (config === "ours" && res.headers.get("ratelimit-limit") !== BENCH_RATE_LIMIT) {
    throw new Error(`ours: RateLimit-Limit is ${res.headers.get("ratelimit-limit")}, expected ${BENCH_RATE_LIMIT}`);
  }
}

async function measure(config: ConfigName, round: number, gen: LoadGenerator, s: Settings, log: (line: string) => void): Promise<Run> {
  const dir = makeTempDir(`club-bench-${config}-`);
  let started: Started | undefined;
  try {
    started = config === "ours" ? await startOurs(dir) : await startBaseline(dir);
    await check(config, started);
    const headers = { authorization: `Bearer ${started.key}` };
    if (s.warmupSeconds > 0) await gen.run(started.server.url + PATH, headers, s.warmupSeconds, s.connections);
    const before = auditRows(started.dbPath);
    const result = await gen.run(started.server.url + PATH, headers, s.seconds, s.connections);
    await started.server.stop();
    const run: Run = { ...result, round, config, auditRows: auditRows(started.dbPath) - before };
    log(
      `round ${round} ${config.padEnd(8)} ${run.rps.toFixed(0).padStart(7)} req/s  p50 ${run.p50Ms.toFixed(2)} ms  p99 ${run.p99Ms.toFixed(2)} ms  ` +
        `audit rows ${run.auditRows}/${run.requests} requests` +
        (run.non2xx || run.errors ? `  (non-2xx ${run.non2xx}, socket errors ${run.errors})` : ""),
    );
    return run;
  } finally {
    await started?.server.stop();
    removeTempDir(dir);
  }
}

export async function benchAuthMe(gen: LoadGenerator, s: Settings, log: (line: string) => void): Promise<AuthMeResult> {
  const runs: Run[] = [];
  for (let round = 1; round <= s.rounds; round++) {
    const order: ConfigName[] = round % 2 ? ["ours", "baseline"] : ["baseline", "ours"];
    for (const config of order) runs.push(await measure(config, round, gen, s, log));
  }
  const summary = (["ours", "baseline"] as const).map((config) => {
    const mine = runs.filter((r) => r.config === config);
    return { config, rps: median(mine.map((r) => r.rps)), p50Ms: median(mine.map((r) => r.p50Ms)), p99Ms: median(mine.map((r) => r.p99Ms)) };
  });
  const ratios: number[] = [];
  for (let round = 1; round <= s.rounds; round++) {
    const ours = runs.find((r) => r.round === round && r.config === "ours")!;
    const base = runs.find((r) => r.round === round && r.config === "baseline")!;
    ratios.push(ours.rps / base.rps);
  }
  return { runs, summary, ratios, ratio: median(ratios) };
}
