// What every benchmark shares: child servers that are always killed (on exit, Ctrl-C, crash),
// a free port, CPU pinning with taskset, the server's memory high-water mark, the load generator
// (wrk from Debian's packages, else autocannon through bunx) and medians.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";

export type Settings = {
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  /** Connections of the read benchmarks (auth-me, member list). */
  connections: number;
  /** Connections of the scan benchmarks (check-in, verify): a door with many scanners. */
  scanConnections: number;
  /** Timed runs per round of each export (after one untimed warm-up). */
  exportRuns: number;
};

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return value;
}

export function settingsFromEnv(): Settings {
  return {
    seconds: envNumber("BENCH_SECONDS", 5, 1),
    warmupSeconds: envNumber("BENCH_WARMUP_SECONDS", 1, 0),
    rounds: Math.floor(envNumber("BENCH_ROUNDS", 3, 1)),
    connections: Math.floor(envNumber("BENCH_CONNECTIONS", 32, 1)),
    scanConnections: Math.floor(envNumber("BENCH_SCAN_CONNECTIONS", 64, 1)),
    exportRuns: Math.floor(envNumber("BENCH_EXPORT_RUNS", 3, 1)),
  };
}

// ---- child processes -------------------------------------------------------------------------

const children = new Set<Bun.Subprocess>();
const tempDirs = new Set<string>();

function killAll() {
  for (const child of children) {
    try {
      child.kill("SIGKILL");
    } catch {}
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** A child started elsewhere (a proxy), killed with the others at exit. */
export function adopt(proc: Bun.Subprocess): void {
  children.add(proc);
}

/** A temporary folder, removed by `removeTempDir` or at exit whatever happens. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}
process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}
process.on("uncaughtException", (err) => {
  console.error(err);
  killAll();
  process.exit(1);
});
process.on("unhandledRejection", (err) => {
  console.error(err);
  killAll();
  process.exit(1);
});

/** Pinning: server on core 0, load generator on core 1, when taskset and two cores exist. */
export const pinning = (() => {
  const ok = cpus().length >= 2 && Bun.which("taskset") !== null;
  return {
    enabled: ok,
    server: (cmd: string[]) => (ok ? ["taskset", "-c", "0", ...cmd] : cmd),
    load: (cmd: string[]) => (ok ? ["taskset", "-c", "1", ...cmd] : cmd),
    describe: ok ? "server on core 0, load generator on core 1 (taskset)" : "not pinned (needs taskset and 2 cores)",
  };
})();

export async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port as number;
  await probe.stop(true);
  return port;
}

export type Server = { url: string; pid: number; stdout: string; stop(): Promise<void> };

/** A memory figure of /proc/<pid>/status, in KiB; null where /proc is missing. */
function statusKb(pid: number, field: "VmHWM" | "VmRSS"): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The high-water mark of a process's resident memory (VmHWM), in KiB. `taskset` execs its
 * command, so the pid is the server's own.
 */
export const peakRssKb = (pid: number): number | null => statusKb(pid, "VmHWM");

/** A process's resident memory now (VmRSS), in KiB. */
export const rssKb = (pid: number): number | null => statusKb(pid, "VmRSS");

/** A process's CPU time so far (utime + stime of /proc/<pid>/stat, all threads), ms. */
export function cpuTimeMs(pid: number): number {
  // utime and stime are fields 14 and 15 of the line: 12 and 13 after "pid (comm) ".
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Starts `cmd` (pinned to the server core unless `pinned` is false) and waits until its stdout says "Listening on".
 * Keeps reading its output afterwards so a full pipe never stalls it.
 */
export async function startServer(cmd: string[], env: Record<string, string>, port: number, timeoutMs = 30_000, pinned = true): Promise<Server> {
  const proc = Bun.spawn(pinned ? pinning.server(cmd) : cmd, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  children.add(proc);
  let stdout = "";
  let stderr = "";
  const drain = async (stream: ReadableStream<Uint8Array>, onText: (t: string) => void) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) onText(decoder.decode(chunk, { stream: true }));
  };
  let ready: () => void = () => {};
  const readyPromise = new Promise<void>((r) => {
    ready = r;
  });
  drain(proc.stdout, (t) => {
    // Only the start-up lines matter; the request log that follows is read and dropped.
    if (stdout.includes("Listening on")) return;
    stdout += t;
    if (stdout.includes("Listening on")) ready();
  }).catch(() => {});
  drain(proc.stderr, (t) => {
    stderr = (stderr + t).slice(-4000);
  }).catch(() => {});
  let timer: Timer | undefined;
  const outcome = await Promise.race([
    readyPromise.then(() => "ready" as const),
    proc.exited.then(() => "exited" as const),
    new Promise<"timeout">((r) => {
      timer = setTimeout(() => r("timeout"), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGTERM");
      const killer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
      await proc.exited;
      clearTimeout(killer);
    }
    children.delete(proc);
  };
  if (outcome !== "ready") {
    await stop();
    throw new Error(`${cmd.join(" ")} did not start (${outcome}).\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: proc.pid,
    get stdout() {
      return stdout;
    },
    stop,
  };
}

// ---- load generator --------------------------------------------------------------------------

export type LoadResult = { requests: number; rps: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number };
export type LoadOptions = {
  url: string;
  headers: Record<string, string>;
  seconds: number;
  connections: number;
  /** A wrk Lua script choosing each request (method, path, body): wrk only. */
  script?: string;
  /** Arguments handed to the script's `init(args)`. */
  scriptArgs?: string[];
};
export type LoadGenerator = { name: string; scripts: boolean; run(o: LoadOptions): Promise<LoadResult> };

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === "us" ? n / 1000 : unit === "ms" ? n : unit === "s" ? n * 1000 : unit === "m" ? n * 60_000 : Number.NaN;
}

/** Parses `wrk --latency` output. */
export function parseWrk(text: string): LoadResult {
  const pct = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(text);
    if (!m) throw new Error(`wrk output without a ${p}% latency:\n${text}`);
    return toMs(m[1], m[2]);
  };
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  const total = /(\d+) requests in/.exec(text);
  if (!rps || !total) throw new Error(`unexpected wrk output:\n${text}`);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const errors = sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return { requests: Number(total[1]), rps: Number(rps[1]), p50Ms: pct("50"), p99Ms: pct("99"), non2xx, errors };
}

export async function runCapture(cmd: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  children.add(proc);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  children.delete(proc);
  return { code, stdout, stderr };
}

const wrk: LoadGenerator = {
  name: "wrk",
  scripts: true,
  async run({ url, headers, seconds, connections, script, scriptArgs }) {
    const cmd = ["wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "--timeout", "10s"];
    for (const [k, v] of Object.entries(headers)) cmd.push("-H", `${k}: ${v}`);
    if (script) cmd.push("-s", script);
    const out = await runCapture(pinning.load([...cmd, url, ...(script && scriptArgs?.length ? ["--", ...scriptArgs] : [])]));
    if (out.code !== 0) throw new Error(`wrk failed (${out.code}): ${out.stderr || out.stdout}`);
    return parseWrk(out.stdout);
  },
};

const autocannon: LoadGenerator = {
  name: "autocannon (bunx)",
  scripts: false,
  async run({ url, headers, seconds, connections, script }) {
    if (script) throw new Error("this benchmark needs wrk (a Lua script picks each request)");
    const cmd = ["bunx", "autocannon@8", "-j", "-c", String(connections), "-d", String(seconds)];
    for (const [k, v] of Object.entries(headers)) cmd.push("-H", `${k}=${v}`);
    const out = await runCapture(pinning.load([...cmd, url]));
    if (out.code !== 0) throw new Error(`autocannon failed (${out.code}): ${out.stderr}`);
    const r = JSON.parse(out.stdout);
    return {
      requests: r.requests.total,
      rps: r.requests.average,
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      non2xx: r.non2xx ?? 0,
      errors: (r.errors ?? 0) + (r.timeouts ?? 0),
    };
  },
};

/** wrk if installed (or installable with apt-get as root), else autocannon through bunx. */
export async function loadGenerator(log: (s: string) => void): Promise<LoadGenerator> {
  if (Bun.which("wrk")) return wrk;
  if (process.getuid?.() === 0 && Bun.which("apt-get") && process.env.BENCH_NO_INSTALL !== "1") {
    log("wrk not found: installing it from Debian's packages (apt-get install -y wrk; BENCH_NO_INSTALL=1 to skip)...");
    let out = await runCapture(["apt-get", "install", "-y", "-qq", "wrk"]);
    if (out.code !== 0) {
      await runCapture(["apt-get", "update", "-qq"]);
      out = await runCapture(["apt-get", "install", "-y", "-qq", "wrk"]);
    }
    if (Bun.which("wrk") || existsSync("/usr/bin/wrk")) return wrk;
  }
  log("wrk unavailable: falling back to autocannon through bunx.");
  return autocannon;
}

export async function wrkVersion(gen: LoadGenerator): Promise<string> {
  if (gen !== wrk) return gen.name;
  const out = await runCapture(["wrk", "-v"]);
  const version = /wrk\s+(?:\S+\/)?(\d+\.\d+\.\d+)/.exec(out.stdout + out.stderr)?.[1];
  return version ? `wrk ${version}` : "wrk";
}

// ---- statistics ------------------------------------------------------------------------------

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
