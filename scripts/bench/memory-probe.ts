// The idle server's memory over its first seconds, trees side by side: `bun scripts/bench/memory-probe.ts
// [label=<tree> ...]` (default: this tree) starts each tree's real server (`bun app/main.ts`, run from that
// tree) on a fresh copy of the memory benchmark's 10,000-member file, in turn, PROBE_ROUNDS times (default 3),
// and prints VmRSS 0.5, 1, 2, 4 and 8 s after "Listening on", RssAnon and RssFile at 2 s (the benchmark reads
// VmRSS at 2 s), and how many modules the process holds then (the preload of test/server/lazy-start). A tree is
// a worktree or a copy of one (`git archive <commit> | tar -x -C <dir>`, node_modules linked): a change measured
// alone against the commit before it. Not part of `bun run bench`: a tool for finding where the memory goes
// (docs/benchmarks.md "mem15").
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { BENCH_RATE_LIMIT, ROOT } from "./common";
import { dataset, freshCopy } from "./datasets";
import { freePort, makeTempDir, removeTempDir, startServer } from "./harness";

const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 3);
/** When VmRSS is read, in ms after "Listening on". */
const READS = [500, 1000, 2000, 4000, 8000];
const PRELOAD = join(ROOT, "test/server/module-list.preload.ts");

const trees = (process.argv.length > 2 ? process.argv.slice(2) : [`this=${ROOT}`]).map((arg) => {
  const at = arg.indexOf("=");
  return at < 0 ? { label: arg, root: resolve(arg) } : { label: arg.slice(0, at), root: resolve(arg.slice(at + 1)) };
});

/** VmRSS, RssAnon and RssFile of `pid`, in MB. */
function memory(pid: number): { rss: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0) / 1024;
  return { rss: mb("VmRSS"), anon: mb("RssAnon"), file: mb("RssFile") };
}

/** How many modules the server holds now: the preload writes Bun's module list on SIGUSR2. */
async function moduleCount(pid: number, listFile: string): Promise<number | null> {
  rmSync(listFile, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let waited = 0; waited < 2000 && !existsSync(listFile); waited += 20) await Bun.sleep(20);
  return existsSync(listFile) ? (JSON.parse(readFileSync(listFile, "utf8")) as string[]).length : null;
}

const ds = await dataset({ members: 10_000, registrations: 10_000 }, () => {});
const mb = (n: number) => n.toFixed(1);
for (let round = 1; round <= ROUNDS; round++) {
  for (const tree of trees) {
    const dir = makeTempDir("club-memory-probe-");
    try {
      const port = await freePort();
      const listFile = join(dir, "modules.json");
      const server = await startServer(
        ["bun", "--cwd", tree.root, "--preload", PRELOAD, "app/main.ts"],
        {
          DATABASE_URL: freshCopy(ds, dir),
          PORT: String(port),
          HOST: "127.0.0.1",
          BASE_URL: `http://127.0.0.1:${port}`,
          OUTBOX_DIR: join(dir, "outbox"),
          RATE_LIMIT_PER_MINUTE: BENCH_RATE_LIMIT,
          MODULE_LIST_FILE: listFile,
        },
        port,
      );
      const listening = performance.now();
      const rss: string[] = [];
      let atTwo = memory(server.pid);
      let modules: number | null = null;
      for (const ms of READS) {
        await Bun.sleep(Math.max(0, ms - (performance.now() - listening)));
        const now = memory(server.pid);
        rss.push(`${ms / 1000} s ${mb(now.rss)}`);
        if (ms === 2000) {
          atTwo = now;
          modules = await moduleCount(server.pid, listFile);
        }
      }
      await server.stop();
      const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
      console.log(
        `round ${round} ${tree.label.padEnd(12)} ${rss.join(", ")} MB; at 2 s anon ${mb(atTwo.anon)}, file ${mb(atTwo.file)}; ${modules ?? "?"} modules; load ${load}`,
      );
    } finally {
      removeTempDir(dir);
    }
  }
}
process.exit(0);
