// `bun run bench [name...]`: runs the benchmarks interleaved (round r: for each benchmark, ours
// then its baseline, the order alternating per round), prints the Markdown summary and writes the
// whole report to docs/benchmarks.md. Not part of `bun test`.
//
// Names: auth-me, members-10k, members-100k, dashboard, export, import, checkin, verify, memory, idempotency, webhooks, invoices, journal, mailings, camt054, engines ("members" selects both
// member lists). With names, nothing is written unless BENCH_OUTPUT is set.
//
// Environment: BENCH_SECONDS (5) per measured run, BENCH_WARMUP_SECONDS (1), BENCH_ROUNDS (3),
// BENCH_CONNECTIONS (32: auth-me, member list), BENCH_SCAN_CONNECTIONS (64: check-in, verify),
// BENCH_EXPORT_RUNS (3 timed exports, and 5,000-line imports, per round), BENCH_OUTPUT (docs/benchmarks.md; "-" writes nothing).
// Quick run: BENCH_SECONDS=2 BENCH_ROUNDS=1 BENCH_OUTPUT=- bun run bench
import { writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join, relative, resolve } from "node:path";
import { authMe } from "./auth-me";
import { camt054Bench } from "./camt054";
import { checkin } from "./checkin";
import { dashboardBench } from "./dashboard";
import { engines } from "./engines";
import { BENCH_RATE_LIMIT, type Benchmark, type ConfigName, type Measurement, ROOT } from "./common";
import { exportBench } from "./export";
import { idempotency } from "./idempotency";
import { importBench } from "./import";
import { invoicesBench } from "./invoices";
import { journalBench } from "./journal";
import { mailingsBench } from "./mailings";
import { loadGenerator, pinning, settingsFromEnv, wrkVersion } from "./harness";
import { members10k, members100k } from "./members";
import { memory } from "./memory";
import { markdown, summarize, summaryTables } from "./report";
import { verify } from "./verify";
import { webhooks } from "./webhooks";

const ALL: Benchmark[] = [
  authMe,
  members10k,
  members100k,
  dashboardBench,
  exportBench,
  importBench,
  checkin,
  verify,
  memory,
  idempotency,
  webhooks,
  invoicesBench,
  journalBench,
  mailingsBench,
  camt054Bench,
  engines,
];

const log = (line: string) => console.error(line);
const names = Bun.argv.slice(2);
const unknown = names.filter((n) => !ALL.some((b) => b.name === n || b.name.startsWith(`${n}-`)));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(", ")}; known: ${ALL.map((b) => b.name).join(", ")}`);
  process.exit(2);
}
const selected = names.length ? ALL.filter((b) => names.some((n) => b.name === n || b.name.startsWith(`${n}-`))) : ALL;
const settings = settingsFromEnv();
const gen = await loadGenerator(log);
const genVersion = await wrkVersion(gen);
const output = process.env.BENCH_OUTPUT ?? (names.length ? "-" : join(ROOT, "docs", "benchmarks.md"));
const env = { gen, settings, log };
const started = performance.now();
const loadBefore = loadavg()[0];

log(
  `benchmarks: ${selected.map((b) => b.name).join(", ")}; ${settings.rounds} round(s), ${settings.seconds} s per run after ${settings.warmupSeconds} s of warm-up`,
);
for (const b of selected) await b.prepare(env);

const runs: Measurement[] = [];
for (let round = 1; round <= settings.rounds; round++) {
  const order: ConfigName[] = round % 2 ? ["ours", "baseline"] : ["baseline", "ours"];
  for (const b of selected) for (const config of order) runs.push(...(await b.run(config, round, env)));
}

const cases = summarize(selected, runs);
const minutes = (performance.now() - started) / 60_000;
const command = `bun run bench${names.length ? ` ${names.join(" ")}` : ""}`;
const conditions = [
  `command: \`${command}\`${
    Object.entries(process.env)
      .filter(([k]) => k.startsWith("BENCH_") && k !== "BENCH_OUTPUT")
      .map(([k, v]) => ` ${k}=${v}`)
      .join("") || " (default settings)"
  }; ${minutes.toFixed(1)} minutes in all`,
  `${settings.rounds} round(s); each load run ${settings.seconds} s after ${settings.warmupSeconds} s of warm-up, one wrk thread, ` +
    `${settings.connections} connections (auth-me, member list) or ${settings.scanConnections} (check-in, verify); ` +
    `${settings.exportRuns} timed exports and 5,000-line imports per round after one untimed; one 100,000-line import of each kind per round`,
  `load generator: ${genVersion}; ${pinning.describe}`,
  `machine: ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores), ${(totalmem() / 2 ** 30).toFixed(0)} GB, Bun ${Bun.version}, ${process.platform}; ` +
    `load average ${loadBefore.toFixed(2)} before the run, ${loadavg()[0].toFixed(2)} after (other work on the machine skews the numbers)`,
  `both sides: SQLite in WAL mode with synchronous = FULL (a disk sync per commit); the server under test runs with ` +
    `RATE_LIMIT_PER_MINUTE=${BENCH_RATE_LIMIT} (its default, 300 a minute per key, would answer 429)`,
];
if (selected.includes(engines))
  conditions.push(
    "engines: PostgreSQL (Debian's) in a throw-away cluster started by scripts/ci/pg-cluster.sh with PG_DURABLE=1 (fsync and synchronous " +
      "commits on), on this machine beside the servers (not pinned); three processes and their one-process baseline: behind Caddy with least_conn, on any core",
  );

const table = summaryTables(cases);
console.log(`\n${table}\n`);
for (const c of conditions) console.log(`- ${c}`);
for (const c of cases)
  if (c.mismatches.length) console.log(`\nWARNING: ${c.bench.name}/${c.spec.id}: ours and the baseline answered differently: ${c.mismatches.join("; ")}`);
if (runs.some((r) => r.non2xx || r.errors)) console.log("\nWARNING: some runs had non-2xx answers or socket errors (see every run in the report).");
if (output !== "-") {
  writeFileSync(resolve(output), markdown({ cases, benches: selected, runs, conditions, command }));
  console.log(`\nWritten to ${relative(process.cwd(), resolve(output)) || resolve(output)}`);
}
process.exit(0);
