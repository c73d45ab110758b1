// The member import. 5,000 lines through the real server, POST /api/clubs/<club_id>/members/import
// (timed from the request to the answer; the server's memory high-water mark before the first
// import and after the last): new members into the 10,000-member club, then, with mode=update,
// 5,000 of its members renamed and extended. 100,000 lines in a process of its own
// (scripts/bench/import-run.ts: what `bun run cli import members` runs; a file that size is over
// the API's 1 MB body limit) into the 100,000-member club: 100,000 new members, or all 100,000
// updated. Targets from issue 17: 5,000 lines under 1 s; 100,000 under 15 s with under 100 MB of
// memory growth. No baseline: the targets are absolute.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Benchmark, type BenchEnv, type ConfigName, expectJson, type Measurement, mb, ROOT, startOurs, timedMeasurement } from "./common";
import { type Dataset, dataset, freshCopy } from "./datasets";
import { makeTempDir, peakRssKb, removeTempDir, runCapture, type Server } from "./harness";

const SMALL = 5_000;
const LARGE = 100_000;
let ds: Dataset;
let large: Dataset;

/** A file of `n` lines: new members (emails no member has), or the dataset's members 0..n-1 with new names and a later end. */
function csvFile(kind: "create" | "update", n: number, tag: string): string {
  const lines = Array.from({ length: n }, (_, i) =>
    kind === "create"
      ? `Élodie,Import${tag}x${i},import${tag}x${i}@bench.example.org,31.12.2031`
      : `Zoé,Renamed${tag}x${i},member${i}@bench.example.org,31.12.2032`,
  );
  return `Prénom;Nom;E-Mail;Échéance\n${lines.join("\n").replaceAll(",", ";")}\n`;
}

type Outcome = { created: number; updated: number; errors: number };

/** The answer must be the work asked for: a benchmark of refused lines measures nothing. */
function expectOutcome(what: string, kind: "create" | "update", n: number, r: Outcome) {
  const done = kind === "create" ? r.created : r.updated;
  if (done !== n || r.errors) throw new Error(`${what}: expected ${n} lines to ${kind}, got ${JSON.stringify(r)}`);
}

function measurement(caseId: string, round: number, times: number[], peakKb: number | null, growthKb: number | null, note: string): Measurement {
  return timedMeasurement({ bench: "import", caseId, round, config: "ours", times, peakKb, growthKb, signature: null, note });
}

/** 5,000 lines through the server: one untimed import, then `exportRuns` timed ones, each a new file. */
async function throughServer(env: BenchEnv, round: number, kind: "create" | "update"): Promise<Measurement> {
  const caseId = kind === "create" ? "5k" : "5k-update";
  const dir = makeTempDir(`club-bench-import-${caseId}-`);
  let server: Server | undefined;
  try {
    server = await startOurs(freshCopy(ds, dir), dir);
    const headers = { authorization: `Bearer ${ds.key}`, "content-type": "text/csv" };
    await expectJson(await fetch(`${server.url}/api/auth/me`, { headers }), "ours GET /api/auth/me");
    const before = peakRssKb(server.pid);
    const times: number[] = [];
    for (let i = 0; i <= env.settings.exportRuns; i++) {
      const body = csvFile(kind, SMALL, `r${round}i${i}`);
      const started = performance.now();
      const res = await fetch(`${server.url}/api/clubs/${ds.clubId}/members/import?mode=${kind}`, { method: "POST", headers, body });
      const answer = (await expectJson(res, `ours import ${caseId}`)) as Outcome & { errors: unknown[] };
      const ms = performance.now() - started;
      expectOutcome(`ours import ${caseId}`, kind, SMALL, { ...answer, errors: answer.errors.length });
      if (i > 0) times.push(ms);
    }
    const after = peakRssKb(server.pid);
    const growth = before !== null && after !== null ? after - before : null;
    const m = measurement(
      caseId,
      round,
      times,
      after,
      growth,
      `${SMALL} lines, ${kind}; times ${times.map((t) => t.toFixed(0)).join(", ")} ms; server VmHWM ${mb(before)} before, ${mb(after)} after`,
    );
    env.log(`round ${round} ${`import/${caseId}`.padEnd(24)} ours     median ${m.p50Ms.toFixed(0)} ms  growth ${mb(growth)}  ${m.note}`);
    return m;
  } finally {
    await server?.stop();
    removeTempDir(dir);
  }
}

/**
 * 100,000 lines in a process of its own, each kind on a fresh copy of the large club. Not pinned
 * to a core, as the CLI runs: nothing else is measured meanwhile, and JavaScriptCore's collector
 * and compiler threads would otherwise take turns with the import on one core.
 */
async function inProcess(env: BenchEnv, round: number): Promise<Measurement[]> {
  const out: Measurement[] = [];
  for (const kind of ["create", "update"] as const) {
    const caseId = kind === "create" ? "100k" : "100k-update";
    const dir = makeTempDir(`club-bench-import-${caseId}-`);
    try {
      const dbPath = freshCopy(large, dir);
      const file = join(dir, `${kind}.csv`);
      writeFileSync(file, csvFile(kind, LARGE, `r${round}`));
      const run = await runCapture(["bun", join(ROOT, "scripts/bench/import-run.ts"), dbPath, large.clubId, file, kind]);
      if (run.code !== 0) throw new Error(`import-run ${caseId} failed (${run.code}): ${run.stderr}`);
      const r = JSON.parse(run.stdout) as { ms: number; peakBeforeKb: number; peakAfterKb: number; result: Outcome };
      expectOutcome(`import-run ${caseId}`, kind, LARGE, r.result);
      const growth = r.peakAfterKb - r.peakBeforeKb;
      const m = measurement(
        caseId,
        round,
        [r.ms],
        r.peakAfterKb,
        growth,
        `${LARGE} lines, ${kind}; process VmHWM ${mb(r.peakBeforeKb)} before, ${mb(r.peakAfterKb)} after`,
      );
      env.log(`round ${round} ${`import/${caseId}`.padEnd(24)} ours     ${m.p50Ms.toFixed(0)} ms  growth ${mb(growth)}  ${m.note}`);
      out.push(m);
    } finally {
      removeTempDir(dir);
    }
  }
  return out;
}

export const importBench: Benchmark = {
  name: "import",
  title: "Member import: 5,000 lines through POST /api/clubs/<club_id>/members/import, 100,000 in a process",
  about: [
    "Files as Excel saves them in French: `Prénom;Nom;E-Mail;Échéance`, semicolons, DD.MM.YYYY dates.",
    "**5,000 lines** go to the real server as `text/csv` (key, audit row, `importMembers`: every line checked, then planned",
    "against the club's members and written in batches of 50, one statement per table and batch, in transactions of 100 ms",
    "while no other request is in hand (25 ms, with rests, when one is), each member with its history row and an undo row per batch),",
    "timed by the client from the request to the answer; one untimed import first, each import a new file. `5k`: 5,000",
    "new members into the 10,000-member club; `5k-update`: `mode=update`, 5,000 of its members renamed and extended",
    "(their passes marked, a pass update queued). Memory: the server's VmHWM after the imports minus before the first.",
    "**100,000 lines** (over the API's 1 MB body limit: the CLI's work) run in a process of its own",
    "(`import-run.ts`: the operator's context and `importMembers`, as `bun run cli import members` does) on a fresh",
    "copy of the 100,000-member club each: `100k` creates 100,000 members, `100k-update` updates all 100,000 of them",
    "(renamed, extended); no server on the file, so the import takes 100 ms transactions and no rests (a 110 ms gap each second).",
    "Timed inside the process, import only (file read before); memory: its VmHWM after the import",
    "minus just before it. That process is not pinned to a core (the CLI is not; nothing else is measured meanwhile).",
  ],
  cases: [
    { id: "5k", title: "import 5,000 new members (HTTP)", kind: "time", target: { kind: "ms-max", value: 1000 }, baseline: false },
    { id: "5k-update", title: "import 5,000 updates, mode=update (HTTP)", kind: "time", target: { kind: "ms-max", value: 1000 }, baseline: false },
    { id: "100k", title: "import 100,000 new members (process)", kind: "time", target: { kind: "ms-max", value: 15_000, growthMb: 100 }, baseline: false },
    { id: "100k-update", title: "import 100,000 updates (process)", kind: "time", target: { kind: "ms-max", value: 15_000, growthMb: 100 }, baseline: false },
  ],
  async prepare(env) {
    ds = await dataset({ members: 10_000, registrations: 10_000 }, env.log);
    large = await dataset({ members: LARGE }, env.log);
  },
  async run(config: ConfigName, round, env) {
    if (config === "baseline") return [];
    return [await throughServer(env, round, "create"), await throughServer(env, round, "update"), ...(await inProcess(env, round))];
  },
};
