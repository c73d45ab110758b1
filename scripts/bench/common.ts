// What a benchmark is for scripts/bench/index.ts, and the pieces most of them share: starting the
// real server or a hand-written baseline on a fresh copy of a dataset, one measured load run
// (warm-up, wrk, the server's memory high-water mark, rows written), and wrk Lua scripts that
// cycle through codes.
import { Database } from "bun:sqlite";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { type Dataset, freshCopy } from "./datasets";
import { cpuTimeMs, freePort, type LoadGenerator, makeTempDir, median, peakRssKb, removeTempDir, type Server, type Settings, startServer } from "./harness";

export const ROOT = join(import.meta.dir, "..", "..");
/** The server's per-key limit (300 a minute) would turn a run into 429s: lifted for the server under test. */
export const BENCH_RATE_LIMIT = "1000000000";

export type ConfigName = "ours" | "baseline";

export type Target =
  /** ours/baseline requests per second, at least `value`. */
  | { kind: "ratio-min"; value: number }
  /** ours time / baseline time, under `value`. */
  | { kind: "ratio-max"; value: number }
  /** ours median time, under `value` ms (no baseline); and its memory growth under `growthMb`, when given. */
  | { kind: "ms-max"; value: number; growthMb?: number }
  /** ours memory growth (VmHWM after minus before), under `value` MB per thousand of `members`. */
  | { kind: "mb-per-thousand-max"; value: number; members: number }
  /** ours resident memory (VmRSS), under `value` MB. */
  | { kind: "mb-max"; value: number }
  /** Reported for information, held to nothing. */
  | { kind: "info" };

export type CaseSpec = { id: string; title: string; kind: "load" | "time" | "memory"; target: Target; baseline: boolean };

export type Measurement = {
  bench: string;
  caseId: string;
  round: number;
  config: ConfigName;
  /** load: requests per second; time: null. */
  rps: number | null;
  /** load: wrk's latency percentiles; time: median and slowest of the round's timed runs. */
  p50Ms: number;
  p99Ms: number;
  /** time: every timed run, ms. */
  times: number[];
  requests: number;
  non2xx: number;
  errors: number;
  /** The server's VmHWM at the end of the run, KiB. */
  peakKb: number | null;
  /** time: VmHWM after the timed runs minus VmHWM before the first one, KiB. */
  growthKb: number | null;
  /** memory: the server's VmRSS when measured, KiB. */
  rssKb?: number | null;
  /** What the answer was (a count, ids, a size): ours and the baseline must give the same in a round. */
  signature: string | null;
  note: string;
};

export type BenchEnv = { gen: LoadGenerator; settings: Settings; log: (line: string) => void };

export type Benchmark = {
  /** What `bun run bench <name>` selects. */
  name: string;
  title: string;
  /** Markdown lines: what ours and the baseline each do, exactly. */
  about: string[];
  cases: CaseSpec[];
  /** Seeds the datasets (shared between benchmarks), before the first round. */
  prepare(env: BenchEnv): Promise<void>;
  run(config: ConfigName, round: number, env: BenchEnv): Promise<Measurement[]>;
};

// ---- servers ---------------------------------------------------------------------------------

/** The environment our server runs with in a benchmark: `dbPath`, `port`, the run's folder `dir`, no rate limit in the way. */
export function oursEnv(dbPath: string, dir: string, port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: dbPath,
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    OUTBOX_DIR: join(dir, "outbox"),
    RATE_LIMIT_PER_MINUTE: BENCH_RATE_LIMIT,
    ...extra,
  };
}

/** The real server (`bun app/main.ts`) on `dbPath`, its rate limit lifted; `extra`: more settings; `pinned`: false leaves it on any core. */
export async function startOurs(dbPath: string, dir: string, extra: Record<string, string> = {}, pinned = true): Promise<Server> {
  const port = await freePort();
  return startServer(["bun", join(ROOT, "app/main.ts")], oursEnv(dbPath, dir, port, extra), port, undefined, pinned);
}

/** A hand-written baseline server (scripts/bench/<script>) on `dbPath`. */
export async function startBaseline(script: string, dbPath: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  return startServer(["bun", join(ROOT, "scripts/bench", script)], { ...env, DATABASE_URL: dbPath, PORT: String(port), HOST: "127.0.0.1" }, port);
}

/** Row counts of a database file (read-only; WAL lets it read beside the running server). */
export function countRows(dbPath: string, queries: Record<string, string>): Record<string, number> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const out: Record<string, number> = {};
    for (const [name, sql] of Object.entries(queries)) out[name] = (db.query(sql).get() as { n: number }).n;
    return out;
  } finally {
    db.close();
  }
}

/** Where a measured run's database comes from: a fresh one holding the dataset, its rows counted, removed after. */
export type Store = {
  /** Answers the run's DATABASE_URL; `dir` is the run's own folder. */
  fresh(ds: Dataset, dir: string): Promise<string>;
  count(url: string, queries: Record<string, string>): Promise<Record<string, number>>;
  drop(url: string): Promise<void>;
};

/** The default: a copy of the dataset's SQLite file in the run's folder (removed with it). */
export const sqliteStore: Store = {
  fresh: async (ds, dir) => freshCopy(ds, dir),
  count: async (path, queries) => countRows(path, queries),
  drop: async () => {},
};

/** Fails the benchmark on an unexpected answer: a benchmark of errors measures nothing. */
export async function expectJson(res: Response, what: string, status = 200): Promise<Record<string, unknown>> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: answered ${res.status}, expected ${status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

export type LoadCase = {
  bench: string;
  caseId: string;
  config: ConfigName;
  round: number;
  env: BenchEnv;
  ds: Dataset;
  /** The baseline's script file in scripts/bench/; null: the baseline is the real server too, sent other requests (`script`). */
  baseline: string | null;
  /** Settings of the baseline's process (a variant of its script). */
  baselineEnv?: Record<string, string>;
  /** The server that answers, when not the one `config` names: a comparison with another request of ours. */
  server?: ConfigName;
  /** What wrk asks for when there is no script. */
  path: string;
  method?: "GET" | "POST";
  connections: number;
  /** Writes a wrk Lua script into `dir` (for requests that change), answers its path. */
  script?: (dir: string) => string;
  /** One request by hand before the load; throws on a wrong answer; answers the signature. */
  check(server: Server, config: ConfigName): Promise<string>;
  /** Rows counted before and after the measured run (their difference is reported). */
  rows: Record<string, string>;
  describe(delta: Record<string, number>, requests: number): string;
  /** Starts the server of `config` on the copy instead (a benchmark whose baseline is our server set up otherwise). */
  start?: (dbPath: string, dir: string) => Promise<Server>;
  /** Where the run's database comes from (default: a copy of the SQLite file). */
  store?: Store;
  /**
   * Waits, before the warm-up, until the jobs a fresh server runs at start (its recurring sweeps:
   * reminders, purges, dunning) are done: no job due and unfinished, for at most this many seconds.
   */
  settleSeconds?: number;
  /** The warm-up's length when not the settings' (several processes behind a proxy each warm up). */
  warmupSeconds?: number;
};

/** Jobs due and not done: a claimed job stays pending until it is done (lib/jobs). */
const dueJobs = () => `SELECT count(*) AS n FROM jobs WHERE status = 'pending' AND run_after <= '${new Date().toISOString()}'`;

/** Waits until `url`'s server has no job due (or `seconds` have passed): the seconds waited and the jobs left. */
export async function settled(store: Store, url: string, seconds: number): Promise<{ waited: number; left: number }> {
  const started = performance.now();
  for (;;) {
    const { due } = await store.count(url, { due: dueJobs() });
    const waited = (performance.now() - started) / 1000;
    if (due === 0 || waited >= seconds) return { waited, left: due };
    await Bun.sleep(200);
  }
}

/** CPU time a server at rest may spend in a quiet window (its worker's idle tick, one 10 ms clock tick). */
const QUIET_CPU_MS = 10;

/**
 * Waits until the work a fresh server does on its own at start is over: no job due (`settled`:
 * the recurring runs, the first slice of reminders and their mails), then its CPU time still
 * (at most QUIET_CPU_MS) over `quietMs`, for at most `seconds` in all: after its job worker's first
 * pass the server calls `Bun.shrink()` (app/main.ts), a full collection that also drops the code
 * compiled so far, and that comes a few milliseconds after the last job is recorded. Answers the
 * seconds waited and whether the server went quiet.
 */
export async function startupDone(store: Store, url: string, pid: number, seconds = 10, quietMs = 300): Promise<{ waited: number; quiet: boolean }> {
  const started = performance.now();
  const left = () => seconds - (performance.now() - started) / 1000;
  await settled(store, url, seconds);
  for (;;) {
    const before = cpuTimeMs(pid);
    await Bun.sleep(quietMs);
    const quiet = cpuTimeMs(pid) - before <= QUIET_CPU_MS;
    if (quiet || left() <= 0) return { waited: (performance.now() - started) / 1000, quiet };
  }
}

/** One measured load run on a fresh copy of the dataset: start, check, warm up, measure, stop. */
export async function loadCase(c: LoadCase): Promise<Measurement> {
  const { env } = c;
  const dir = makeTempDir(`club-bench-${c.bench}-${c.config}-`);
  let server: Server | undefined;
  const store = c.store ?? sqliteStore;
  let dbPath: string | undefined;
  try {
    dbPath = await store.fresh(c.ds, dir);
    const which = c.server ?? c.config;
    server = c.start
      ? await c.start(dbPath, dir)
      : which === "ours" || c.baseline === null
        ? await startOurs(dbPath, dir)
        : await startBaseline(c.baseline, dbPath, c.baselineEnv);
    const signature = await c.check(server, which);
    const settle = c.settleSeconds ? await settled(store, dbPath, c.settleSeconds) : null;
    const headers: Record<string, string> = { authorization: `Bearer ${c.ds.key}` };
    if (c.method === "POST") headers["content-type"] = "application/json";
    const script = c.script?.(dir);
    const load = { url: server.url + c.path, headers, connections: c.connections, script };
    // A cycling script goes on after the items the warm-up used: those answered, and up to one
    // more per connection that was in flight when it stopped.
    const warmupSeconds = c.warmupSeconds ?? env.settings.warmupSeconds;
    const warm = warmupSeconds > 0 ? await env.gen.run({ ...load, seconds: warmupSeconds }) : null;
    const before = await store.count(dbPath, c.rows);
    const skip = warm ? warm.requests + c.connections : 0;
    const machineBefore = machineTicks();
    const result = await env.gen.run({ ...load, seconds: env.settings.seconds, scriptArgs: [String(skip)] });
    const machine = busyCores(machineBefore, machineTicks());
    const peakKb = peakRssKb(server.pid);
    await server.stop();
    const after = await store.count(dbPath, c.rows);
    const delta = Object.fromEntries(Object.keys(c.rows).map((k) => [k, after[k] - before[k]]));
    const m: Measurement = {
      bench: c.bench,
      caseId: c.caseId,
      round: c.round,
      config: c.config,
      ...result,
      times: [],
      peakKb,
      growthKb: null,
      signature,
      note:
        c.describe(delta, result.requests) +
        `; the machine busy ${machine.toFixed(2)} of ${cpus().length} cores (every process: servers, load generator, PostgreSQL, proxy)` +
        (settle ? `; start-up jobs settled in ${settle.waited.toFixed(1)} s${settle.left ? ` (${settle.left} still due)` : ""}` : ""),
    };
    env.log(
      `round ${c.round} ${`${c.bench}/${c.caseId}`.padEnd(24)} ${c.config.padEnd(8)} ${result.rps.toFixed(0).padStart(6)} req/s  ` +
        `p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms  peak ${mb(peakKb)}  ${m.note}` +
        (result.non2xx || result.errors ? `  (non-2xx ${result.non2xx}, socket errors ${result.errors})` : ""),
    );
    return m;
  } finally {
    await server?.stop();
    if (dbPath) await store.drop(dbPath);
    removeTempDir(dir);
  }
}

/** The machine's CPU time so far from /proc/stat's first line, in clock ticks: busy (not idle, not waiting for the disk) and all. */
function machineTicks(): { busy: number; all: number } {
  const [, ...fields] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/);
  const ticks = fields.map(Number);
  const all = ticks.reduce((a, b) => a + b, 0);
  return { busy: all - ticks[3] - ticks[4], all };
}

/** Cores busy on average between two readings: the machine's busy share times its cores. */
function busyCores(before: { busy: number; all: number }, after: { busy: number; all: number }): number {
  return ((after.busy - before.busy) / Math.max(1, after.all - before.all)) * cpus().length;
}

export const mb = (kb: number | null) => (kb === null ? "n/a" : `${(kb / 1024).toFixed(1)} MB`);

/** The measurement of a timed case (no load generator): the median and the slowest of `times`. */
export function timedMeasurement(
  m: Pick<Measurement, "bench" | "caseId" | "round" | "config" | "times" | "peakKb" | "growthKb" | "signature" | "note">,
): Measurement {
  return {
    ...m,
    rps: null,
    p50Ms: median(m.times),
    p99Ms: m.times.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY),
    requests: m.times.length,
    non2xx: 0,
    errors: 0,
  };
}

/**
 * A wrk Lua script that cycles through `items`, one per request, starting after the number of
 * items given as its first argument: `path(x)` and `body(x)` are called with a marker to find
 * where the item goes. Items are base62 codes (nothing to escape).
 */
export function cycleScript(
  file: string,
  o: { method: "GET" | "POST"; items: string[]; path: (item: string) => string; body?: (item: string) => string },
): string {
  const MARK = "@@ITEM@@";
  const split = (s: string) => {
    if (!s.includes(MARK)) return JSON.stringify(s);
    const [pre, post] = s.split(MARK);
    return `${JSON.stringify(pre)} .. items[i] .. ${JSON.stringify(post)}`;
  };
  const lua = [
    `local items = {${o.items.map((x) => JSON.stringify(x)).join(",")}}`,
    "local n = #items",
    "local i = 0",
    "init = function(args)",
    "  if args[1] then i = tonumber(args[1]) % n end",
    "end",
    "request = function()",
    "  i = i % n + 1",
    `  return wrk.format(${JSON.stringify(o.method)}, ${split(o.path(MARK))}, nil, ${o.body ? split(o.body(MARK)) : "nil"})`,
    "end",
    "",
  ].join("\n");
  writeFileSync(file, lua);
  return file;
}

/**
 * Downloads `url` `runs` + 1 times one after the other, the first as warm-up: the times of the
 * others (request to last byte) and the size of the last. Throws on a status other than 200, or
 * when `check` (given each answer) says what is wrong with it.
 */
export async function timedDownloads(
  url: string,
  headers: Record<string, string>,
  runs: number,
  what: string,
  check?: (res: Response) => string | null,
): Promise<{ times: number[]; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i <= runs; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.arrayBuffer();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${what}: ${res.status} ${new TextDecoder().decode(body).slice(0, 300)}`);
    const wrong = check?.(res);
    if (wrong) throw new Error(`${what}: ${wrong}`);
    bytes = body.byteLength;
    if (i > 0) times.push(ms);
  }
  return { times, bytes };
}
