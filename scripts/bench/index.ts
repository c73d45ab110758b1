// `bun run bench`: runs the benchmarks, prints their Markdown table and writes it to
// docs/benchmarks.md. Not part of `bun test`.
//
// Environment: BENCH_SECONDS (10) per measured run, BENCH_ROUNDS (3), BENCH_CONNECTIONS (32),
// BENCH_WARMUP_SECONDS (2), BENCH_OUTPUT (docs/benchmarks.md; "-" writes nothing).
// Quick run: BENCH_SECONDS=2 BENCH_ROUNDS=1 BENCH_OUTPUT=- bun run bench
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { BENCH_RATE_LIMIT, benchAuthMe } from "./auth-me";
import { loadGenerator, pinning, settingsFromEnv, wrkVersion } from "./harness";

const ROOT = join(import.meta.dir, "..", "..");
const TARGET_RATIO = 0.6;

const log = (line: string) => console.error(line);
const settings = settingsFromEnv();
const gen = await loadGenerator(log);
const genVersion = await wrkVersion(gen);
const output = process.env.BENCH_OUTPUT ?? join(ROOT, "docs", "benchmarks.md");

const conditions = [
  `${settings.rounds} round(s) x [ours, baseline] (order alternating), ${settings.seconds} s each after ${settings.warmupSeconds} s of warm-up, ` +
    `${settings.connections} connections, one load-generator thread`,
  `load generator: ${genVersion}; ${pinning.describe}`,
  `machine: ${cpus()[0]?.model ?? "unknown CPU"} (${cpus().length} cores), Bun ${Bun.version}, ${process.platform}; ` +
    `load average before the run ${loadavg()[0].toFixed(2)} (other work on the machine skews the numbers)`,
  `the server under test runs with RATE_LIMIT_PER_MINUTE=${BENCH_RATE_LIMIT} (its default, 300 a minute per key, would answer 429)`,
];
log(`GET /api/auth/me: ${conditions.join("; ")}`);

const result = await benchAuthMe(gen, settings, log);

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const [ours, base] = result.summary;
const met = result.ratio >= TARGET_RATIO;
const table = [
  "| server | requests/s | p50 latency | p99 latency |",
  "|---|---:|---:|---:|",
  `| ours (\`bun server/index.ts\`) | ${fmt(ours.rps, 0)} | ${fmt(ours.p50Ms)} ms | ${fmt(ours.p99Ms)} ms |`,
  `| baseline (Bun.serve + bun:sqlite) | ${fmt(base.rps, 0)} | ${fmt(base.p50Ms)} ms | ${fmt(base.p99Ms)} ms |`,
  `| **ratio ours/baseline** | **${fmt(result.ratio)}** | | |`,
].join("\n");
const rounds = [
  "| round | server | requests/s | p50 | p99 | requests | audit rows | non-2xx | socket errors |",
  "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
  ...result.runs.map(
    (r) =>
      `| ${r.round} | ${r.config} | ${fmt(r.rps, 0)} | ${fmt(r.p50Ms)} ms | ${fmt(r.p99Ms)} ms | ${r.requests} | ${r.auditRows} | ${r.non2xx} | ${r.errors} |`,
  ),
].join("\n");
const verdict =
  `Ratio ours/baseline per round: ${result.ratios.map((r) => fmt(r)).join(", ")}; median ${fmt(result.ratio)} ` +
  `(target >= ${TARGET_RATIO}: ${met ? "met" : "NOT met"}).`;

const markdown = [
  "# Benchmarks",
  "",
  "Written by `bun run bench` (scripts/bench/). Medians over the rounds; the ratio is taken within each round, then its median.",
  "",
  "## GET /api/auth/me",
  "",
  "An authenticated, audited read. **Ours**: the real server (`bun server/index.ts`: Elysia, Drizzle, key",
  "lookup, rate limit, one audit row per request committed in groups before the answer leaves).",
  "**Baseline** (`scripts/bench/baseline-auth-me.ts`): the least such a read must do, by hand: Bun.serve +",
  "bun:sqlite, key looked up by SHA-256, club read, one audit row inserted in its own transaction, JSON",
  "answer. Both use WAL with `synchronous = FULL` on a fresh copy of the same schema and data.",
  "",
  table,
  "",
  verdict,
  "",
  ...conditions.map((c) => `- ${c}`),
  "",
  "Every run:",
  "",
  rounds,
  "",
].join("\n");

console.log(`${table}\n\n${verdict}\n`);
for (const c of conditions) console.log(`- ${c}`);
if (result.runs.some((r) => r.non2xx || r.errors)) console.log("\nWARNING: some runs had non-2xx answers or socket errors (see the runs above).");
if (output !== "-") {
  writeFileSync(resolve(output), markdown);
  console.log(`\nWritten to ${resolve(output)}`);
}
process.exit(0);
