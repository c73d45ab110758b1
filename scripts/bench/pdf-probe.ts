// What one invoice PDF costs the server process: `bun scripts/bench/pdf-probe.ts` starts the real
// server on a fresh copy of the invoices benchmark's dataset (10,000 members; the club with a
// QR-IBAN and a postal address, an invoice of three lines: the same as `bun run bench invoices`),
// fetches the PDF once (the first: its lazy loads, timed and its CPU read apart), then PROBE_PDFS
// more (default 200) one after another, and reads the server's CPU time (/proc/<pid>/stat,
// utime+stime, robust to the machine's other load, unlike wall time) before and after: CPU ms per
// PDF, and the wall times of the first 20 and of the rest. PROBE_SLEEP_MS waits that long before
// the first PDF (default 0, as the benchmark), for the start's jobs to finish. PROBE_LOGO=1 gives the club a logo
// first. PROBE_PROFILE=1 runs the server with `--cpu-prof` (the profile is kept in a directory
// printed at the end). PROBE_ROOTS=<tree>,<tree>: the trees whose servers are probed (default
// this one), interleaved per round; PROBE_ROUNDS rounds (default 1). Not part of `bun run bench`:
// a tool for finding where the time goes (docs/benchmarks.md "pdf16").
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { expectJson, oursEnv, ROOT } from "./common";
import { dataset, freshCopy } from "./datasets";
import { freePort, makeTempDir, median, removeTempDir, startServer } from "./harness";
import { invoicePdfUrl } from "./invoices";

const PDFS = Number(process.env.PROBE_PDFS ?? 200);
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 1);
const PROFILE = process.env.PROBE_PROFILE === "1";
const LOGO = process.env.PROBE_LOGO === "1";
/** How long to wait after the set-up requests before the first PDF (PROBE_SLEEP_MS; default none, as the benchmark). */
const SLEEP_MS = Number(process.env.PROBE_SLEEP_MS ?? 0);
const ROOTS = (process.env.PROBE_ROOTS ?? ROOT).split(",");

/** The server's CPU time so far per thread name (JSC's JIT and GC helpers, Bun's pools), ms. */
function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "");
      const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

/** What each thread name spent between two reads, largest first. */
function threadDelta(before: Map<string, number>, after: Map<string, number>): string {
  return [...after]
    .map(([name, ms]) => [name, ms - (before.get(name) ?? 0)] as const)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms}`)
    .join(", ");
}

/** The server's CPU time so far (all threads), ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const ds = await dataset({ members: 10_000 }, (line) => console.log(line));
const profileDir = PROFILE ? mkdtempSync(join(tmpdir(), "pdf-probe-prof-")) : null;

for (let round = 1; round <= ROUNDS; round++) {
  for (const root of round % 2 ? ROOTS : [...ROOTS].reverse()) {
    const dir = makeTempDir("club-pdf-probe-");
    const port = await freePort();
    const server = await startServer(
      ["bun", ...(profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : []), join(root, "app/main.ts")],
      oursEnv(freshCopy(ds, dir), dir, port),
      port,
    );
    try {
      if (LOGO) {
        const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><circle cx="100" cy="100" r="80" fill="#F59E0B"/><text x="200" y="130" font-size="90" fill="#1D4ED8">Club</text></svg>`;
        const headers = { authorization: `Bearer ${ds.key}`, "content-type": "image/svg+xml" };
        await expectJson(await fetch(`${server.url}/api/clubs/${ds.clubId}/logo`, { method: "PUT", headers, body: svg }), "PUT logo");
      }
      const { url, headers } = await invoicePdfUrl(server.url, ds);
      const fetchPdf = async () => {
        const started = performance.now();
        const res = await fetch(url, { headers });
        const body = await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`invoice pdf: ${res.status}`);
        return { ms: performance.now() - started, bytes: body.byteLength };
      };
      await Bun.sleep(SLEEP_MS);
      const cpu0 = cpuMs(server.pid);
      const first = await fetchPdf();
      const cpu1 = cpuMs(server.pid);
      const threads1 = threadCpuMs(server.pid);
      const times: number[] = [];
      let bytes = 0;
      let cpu20 = cpu1;
      let threads20 = threads1;
      for (let i = 0; i < PDFS; i++) {
        if (i === 20) {
          cpu20 = cpuMs(server.pid);
          threads20 = threadCpuMs(server.pid);
        }
        const r = await fetchPdf();
        times.push(r.ms);
        bytes = r.bytes;
      }
      const cpu2 = cpuMs(server.pid);
      const threads2 = threadCpuMs(server.pid);
      if (PDFS <= 20) {
        cpu20 = cpu2;
        threads20 = threads2;
      }
      const load = loadavg()
        .map((l) => l.toFixed(2))
        .join(" ");
      console.log(
        `round ${round} ${root}: first PDF ${first.ms.toFixed(0)} ms wall, ${cpu1 - cpu0} ms CPU; then ${PDFS}: CPU ${((cpu2 - cpu1) / PDFS).toFixed(2)} ms per PDF (the first 20 ${((cpu20 - cpu1) / 20).toFixed(1)}, the rest ${((cpu2 - cpu20) / (PDFS - 20)).toFixed(2)}); ` +
          `wall median of the first 20 ${median(times.slice(0, 20)).toFixed(1)} ms, of the rest ${median(times.slice(20)).toFixed(1)} ms, slowest ${Math.max(...times).toFixed(0)} ms; ${bytes} bytes; load ${load}\n  first 30: ${times
            .slice(0, 30)
            .map((t) => t.toFixed(0))
            .join(", ")}\n  CPU ms by thread, the first 20: ${threadDelta(threads1, threads20)}; the rest: ${threadDelta(threads20, threads2)}`,
      );
    } finally {
      await server.stop();
      removeTempDir(dir);
    }
  }
}
if (profileDir) console.log(`profiles in ${profileDir}`);
process.exit(0);
