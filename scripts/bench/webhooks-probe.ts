// What a member creation costs the server process with 3 webhook endpoints and with none:
// `bun scripts/bench/webhooks-probe.ts`. Each variant on a fresh copy of the 10,000-member
// dataset: warm-up, PROBE_SECONDS of wrk (32 connections, a new email per request), the
// server's CPU time (/proc/<pid>/stat, utime + stime) read before and after the load, then
// again once every delivery queued has been sent (with endpoints): CPU per creation during the
// load, and in all (the load and the drain: each creation's 3 deliveries included).
// PROBE_ROUNDS (default 3) rounds, the variants alternated; PROBE_PROFILE=1 runs the servers
// with `--cpu-prof` (profiles in PROBE_PROFILE_DIR); PROBE_ROOTS="name:/tree,name:/tree" probes
// the servers of several trees (a commit before a change in a copy of its own), alternated;
// PROBE_PRELOAD=<file> starts the servers with `bun --preload <file>` and sends them SIGUSR2
// around each phase (a counter of statements that dumps on it). Not part of `bun run bench`: a
// tool for finding where the time goes (docs/benchmarks.md "hooks16").
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { countRows, cycleScript, oursEnv, ROOT } from "./common";
import { dataset, freshCopy } from "./datasets";
import { addEndpoints, childReceiver } from "./webhooks";
import { freePort, loadGenerator, makeTempDir, median, removeTempDir, settingsFromEnv, startServer } from "./harness";

const SECONDS = Number(process.env.PROBE_SECONDS ?? 5);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 3);
const PROFILE = process.env.PROBE_PROFILE === "1";
const PROFILE_DIR = process.env.PROBE_PROFILE_DIR ?? "/tmp";
/** The trees probed, alternated (PROBE_ROOTS="name:/path,name:/path"; default this tree). */
const ROOTS = (process.env.PROBE_ROOTS ?? `this:${ROOT}`).split(",").map((r) => {
  const [name, root] = r.split(":");
  return { name, root };
});
const ENDPOINTS = 3;

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const receiver = await childReceiver();

const log = (line: string) => console.log(line);
const settings = settingsFromEnv();
const gen = await loadGenerator(log);
const ds = await dataset({ members: 10_000 }, log);
const path = `/api/clubs/${ds.clubId}/members/manual`;
const memberBody = (email: string) => JSON.stringify({ first_name: "Bench", last_name: "Webhook", email, membership_end: "2030-12-31" });

type Result = { rps: number; load: number; all: number; sent: number; queued: number };
const results: Record<string, Result[]> = {};

async function probe(tree: { name: string; root: string }, variant: "none" | "three", round: number): Promise<Result> {
  const dir = makeTempDir("club-webhooks-probe-");
  try {
    const dbPath = freshCopy(ds, dir);
    if (variant === "three") addEndpoints(dbPath, ds.clubId, receiver.url, ENDPOINTS);
    const port = await freePort();
    const cmd = [
      "bun",
      ...(process.env.PROBE_PRELOAD ? ["--preload", process.env.PROBE_PRELOAD] : []),
      ...(PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=webhooks-${tree.name}-${variant}-${round}.cpuprofile`] : []),
      join(tree.root, "app/main.ts"),
    ];
    const server = await startServer(cmd, oursEnv(dbPath, dir, port, { WEBHOOK_ALLOW_PRIVATE: "true" }), port);
    try {
      const script = cycleScript(join(dir, "members.lua"), {
        method: "POST",
        items: Array.from({ length: 60_000 }, () => randomBytes(8).toString("hex")),
        path: () => path,
        body: (code) => memberBody(`p-${code}@example.org`),
      });
      const load = { url: server.url + path, headers: { authorization: `Bearer ${ds.key}`, "content-type": "application/json" }, connections: 32, script };
      const warm = await gen.run({ ...load, seconds: settings.warmupSeconds });
      // The warm-up's deliveries sent before the measure.
      // Queued: the deliveries written, and those of the events not yet fanned out (one per endpoint; none on a tree without fan-outs).
      const rows = {
        queued: `SELECT (SELECT count(*) FROM webhook_deliveries) + ${ENDPOINTS} * (SELECT count(*) FROM jobs WHERE kind = 'webhook_fanout' AND status = 'pending') AS n`,
        sent: "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'",
      };
      for (let i = 0; i < 600; i++) {
        const c = countRows(dbPath, rows);
        if (c.sent >= c.queued) break;
        await Bun.sleep(100);
      }
      const before = countRows(dbPath, rows);
      const dump = () => process.env.PROBE_PRELOAD && process.kill(server.pid, "SIGUSR2");
      dump();
      const cpu0 = cpuMs(server.pid);
      const result = await gen.run({ ...load, seconds: SECONDS, scriptArgs: [String(warm.requests + 32)] });
      const cpu1 = cpuMs(server.pid);
      dump();
      const during = countRows(dbPath, rows);
      for (let i = 0; i < 1200; i++) {
        const c = countRows(dbPath, rows);
        if (c.sent >= c.queued) break;
        await Bun.sleep(50);
      }
      const cpu2 = cpuMs(server.pid);
      dump();
      const after = countRows(dbPath, rows);
      const r: Result = {
        rps: result.rps,
        load: (cpu1 - cpu0) / result.requests,
        all: (cpu2 - cpu0) / result.requests,
        sent: during.sent - before.sent,
        queued: after.queued - before.queued,
      };
      log(
        `round ${round} ${tree.name} ${variant.padEnd(5)} ${result.rps.toFixed(0).padStart(5)} req/s, ${result.requests} creations, CPU ${r.load.toFixed(2)} ms a creation during the load, ${r.all.toFixed(2)} ms with the drain; deliveries queued ${r.queued}, sent during the load ${r.sent}, unsent ${after.queued - after.sent} (load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})`,
      );
      return r;
    } finally {
      await server.stop();
    }
  } finally {
    removeTempDir(dir);
  }
}

for (let round = 1; round <= ROUNDS; round++) {
  const order: ("none" | "three")[] = round % 2 ? ["three", "none"] : ["none", "three"];
  for (const tree of ROUNDS > 1 && round % 2 === 0 ? [...ROOTS].reverse() : ROOTS)
    for (const v of order) {
      const name = `${tree.name} ${v}`;
      results[name] = [...(results[name] ?? []), await probe(tree, v, round)];
    }
}
for (const [name, rs] of Object.entries(results))
  log(
    `${name}: req/s ${rs.map((r) => r.rps.toFixed(0)).join(", ")}; CPU ms a creation during the load ${rs.map((r) => r.load.toFixed(2)).join(", ")} (median ${median(rs.map((r) => r.load)).toFixed(2)}), with the drain ${rs.map((r) => r.all.toFixed(2)).join(", ")} (median ${median(rs.map((r) => r.all)).toFixed(2)})`,
  );
for (const tree of ROOTS) {
  const ratios = results[`${tree.name} three`].map((r, i) => r.rps / results[`${tree.name} none`][i].rps);
  log(`${tree.name}: ratio per round ${ratios.map((x) => x.toFixed(2)).join(", ")}, median ${median(ratios).toFixed(2)}`);
}
receiver.stop();
process.exit(0);
