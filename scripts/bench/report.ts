// From the measurements of every round to the Markdown report: medians per case and server, the
// ratio ours/baseline taken within each round then its median, the target and its verdict.
import type { Benchmark, CaseSpec, ConfigName, Measurement, Target } from "./common";
import { mb } from "./common";
import { median } from "./harness";

type Agg = { rps: number | null; p50Ms: number; p99Ms: number; peakKb: number | null; growthKb: number | null; rssKb: number | null; runs: number };

export type CaseSummary = {
  bench: Benchmark;
  spec: CaseSpec;
  ours: Agg;
  baseline: Agg | null;
  /** Per round: ours/baseline (requests/s for load, time for time cases). */
  ratios: number[];
  ratio: number | null;
  met: boolean;
  /** Rounds whose two answers differed (not the same work). */
  mismatches: string[];
  nonOk: boolean;
};

const medianOrNull = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? median(v) : null;
};

function aggregate(ms: Measurement[], kind: CaseSpec["kind"]): Agg {
  if (kind === "memory") {
    return {
      rps: null,
      p50Ms: 0,
      p99Ms: 0,
      peakKb: medianOrNull(ms.map((m) => m.peakKb)),
      growthKb: null,
      rssKb: medianOrNull(ms.map((m) => m.rssKb ?? null)),
      runs: ms.length,
    };
  }
  if (kind === "time") {
    const times = ms.flatMap((m) => m.times);
    return {
      rps: null,
      p50Ms: median(times),
      p99Ms: times.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY),
      peakKb: medianOrNull(ms.map((m) => m.peakKb)),
      growthKb: medianOrNull(ms.map((m) => m.growthKb)),
      rssKb: null,
      runs: times.length,
    };
  }
  return {
    rps: median(ms.map((m) => m.rps ?? 0)),
    p50Ms: median(ms.map((m) => m.p50Ms)),
    p99Ms: median(ms.map((m) => m.p99Ms)),
    peakKb: medianOrNull(ms.map((m) => m.peakKb)),
    growthKb: null,
    rssKb: null,
    runs: ms.length,
  };
}

function isMet(target: Target, ratio: number | null, ours: Agg): boolean {
  if (target.kind === "info") return true;
  if (target.kind === "mb-max") return ours.rssKb !== null && ours.rssKb / 1024 < target.value;
  if (target.kind === "ms-max")
    return ours.p50Ms < target.value && (target.growthMb === undefined || (ours.growthKb !== null && ours.growthKb / 1024 < target.growthMb));
  if (target.kind === "mb-per-thousand-max") return ours.growthKb !== null && ours.growthKb / 1024 / (target.members / 1000) < target.value;
  if (ratio === null) return false;
  return target.kind === "ratio-min" ? ratio >= target.value : ratio < target.value;
}

export function summarize(benches: Benchmark[], all: Measurement[]): CaseSummary[] {
  const out: CaseSummary[] = [];
  for (const bench of benches) {
    for (const spec of bench.cases) {
      const mine = all.filter((m) => m.bench === bench.name && m.caseId === spec.id);
      const of = (config: ConfigName) => mine.filter((m) => m.config === config);
      if (!of("ours").length) continue;
      const ours = aggregate(of("ours"), spec.kind);
      const baseline = spec.baseline && of("baseline").length ? aggregate(of("baseline"), spec.kind) : null;
      const ratios: number[] = [];
      const mismatches: string[] = [];
      for (const o of of("ours")) {
        const b = of("baseline").find((m) => m.round === o.round);
        // A load run in which no request was answered measured nothing: no ratio (rather than Infinity).
        if (!b || spec.kind === "memory" || (spec.kind === "load" && !b.rps)) continue;
        ratios.push(spec.kind === "load" ? (o.rps ?? 0) / (b.rps ?? 1) : o.p50Ms / b.p50Ms);
        if (o.signature !== b.signature) mismatches.push(`round ${o.round}: ours "${o.signature}", baseline "${b.signature}"`);
      }
      const ratio = ratios.length ? median(ratios) : null;
      out.push({
        bench,
        spec,
        ours,
        baseline,
        ratios,
        ratio,
        met: isMet(spec.target, ratio, ours) && !mismatches.length,
        mismatches,
        nonOk: mine.some((m) => m.non2xx || m.errors),
      });
    }
  }
  return out;
}

const f = (n: number, digits = 2) => n.toFixed(digits);
const ms = (n: number) => (n >= 1000 ? `${f(n / 1000, 2)} s` : `${f(n, n >= 100 ? 0 : 2)} ms`);

export function targetText(t: Target): string {
  if (t.kind === "info") return "for information";
  if (t.kind === "mb-max") return `< ${t.value} MB`;
  if (t.kind === "ratio-min") return `>= ${t.value} of baseline req/s`;
  if (t.kind === "ratio-max") return `< ${t.value}x baseline time`;
  if (t.kind === "mb-per-thousand-max") return `memory growth < ${t.value} MB per 1,000 members`;
  return `< ${ms(t.value)}${t.growthMb === undefined ? "" : `, memory growth < ${t.growthMb} MB`}`;
}

/** The memory growth, and per thousand members where that is the target. */
function growthText(c: CaseSummary): string {
  const t = c.spec.target;
  if (t.kind !== "mb-per-thousand-max" || c.ours.growthKb === null) return mb(c.ours.growthKb);
  return `${mb(c.ours.growthKb)} (${f(c.ours.growthKb / 1024 / (t.members / 1000))} MB per 1,000)`;
}

const verdict = (c: CaseSummary) => (c.spec.target.kind === "info" ? "" : c.met ? "met" : c.mismatches.length ? "**NOT met (answers differ)**" : "**NOT met**");

export function summaryTables(cases: CaseSummary[]): string {
  const lines: string[] = [];
  const load = cases.filter((c) => c.spec.kind === "load");
  if (load.length) {
    lines.push(
      "| benchmark | server | requests/s | p50 | p99 | peak memory | ratio ours/baseline | target | result |",
      "|---|---|---:|---:|---:|---:|---:|---|---|",
    );
    for (const c of load) {
      lines.push(
        `| ${c.spec.title} | ours | ${f(c.ours.rps ?? 0, 0)} | ${ms(c.ours.p50Ms)} | ${ms(c.ours.p99Ms)} | ${mb(c.ours.peakKb)} | ` +
          `**${c.ratio === null ? "n/a" : f(c.ratio)}** | ${targetText(c.spec.target)} | ${verdict(c)} |`,
      );
      if (c.baseline) {
        lines.push(`| | baseline | ${f(c.baseline.rps ?? 0, 0)} | ${ms(c.baseline.p50Ms)} | ${ms(c.baseline.p99Ms)} | ${mb(c.baseline.peakKb)} | | | |`);
      }
    }
  }
  const time = cases.filter((c) => c.spec.kind === "time");
  if (time.length) {
    if (lines.length) lines.push("");
    lines.push(
      "| timed case | server | median time | slowest | peak memory | memory growth | ratio ours/baseline | target | result |",
      "|---|---|---:|---:|---:|---:|---:|---|---|",
    );
    for (const c of time) {
      lines.push(
        `| ${c.spec.title} | ours | ${ms(c.ours.p50Ms)} | ${ms(c.ours.p99Ms)} | ${mb(c.ours.peakKb)} | ${growthText(c)} | ` +
          `${c.ratio === null ? "" : `**${f(c.ratio)}**`} | ${targetText(c.spec.target)} | ${verdict(c)} |`,
      );
      if (c.baseline) {
        lines.push(`| | baseline | ${ms(c.baseline.p50Ms)} | ${ms(c.baseline.p99Ms)} | ${mb(c.baseline.peakKb)} | ${mb(c.baseline.growthKb)} | | | |`);
      }
    }
  }
  const memory = cases.filter((c) => c.spec.kind === "memory");
  if (memory.length) {
    if (lines.length) lines.push("");
    lines.push("| memory | server | resident (VmRSS) | peak (VmHWM) | target | result |", "|---|---|---:|---:|---|---|");
    for (const c of memory) {
      lines.push(`| ${c.spec.title} | ours | **${mb(c.ours.rssKb)}** | ${mb(c.ours.peakKb)} | ${targetText(c.spec.target)} | ${verdict(c)} |`);
      if (c.baseline) lines.push(`| | baseline | ${mb(c.baseline.rssKb)} | ${mb(c.baseline.peakKb)} | | |`);
    }
  }
  return lines.join("\n");
}

export function markdown(o: { cases: CaseSummary[]; benches: Benchmark[]; runs: Measurement[]; conditions: string[]; command: string }): string {
  const sections = o.benches.flatMap((b) => {
    const mine = o.cases.filter((c) => c.bench === b);
    if (!mine.length) return [];
    return [
      `### ${b.title} (\`${b.name}\`)`,
      "",
      ...b.about,
      "",
      ...mine.flatMap((c) => [
        `- ${c.spec.title}: ${c.ratios.length ? `ratio per round ${c.ratios.map((r) => f(r)).join(", ")}, median ${f(c.ratio ?? 0)}; ` : ""}` +
          `target ${targetText(c.spec.target)}: ${verdict(c)}.` +
          (c.mismatches.length ? ` Answers differed: ${c.mismatches.join("; ")}.` : "") +
          (c.nonOk ? " Some runs had non-2xx answers or socket errors (see every run below)." : ""),
      ]),
      "",
    ];
  });
  const runs = [
    "| round | benchmark | case | server | requests/s | p50 | p99 | peak memory | requests | non-2xx | socket errors | answer | rows written, notes |",
    "|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ...o.runs.map(
      (r) =>
        `| ${r.round} | ${r.bench} | ${r.caseId} | ${r.config} | ${r.rps === null ? "" : f(r.rps, 0)} | ${r.rssKb === undefined ? `${ms(r.p50Ms)} | ${ms(r.p99Ms)}` : " | "} | ${mb(r.peakKb)} | ` +
        `${r.requests} | ${r.non2xx} | ${r.errors} | ${r.signature ?? ""} | ${r.note} |`,
    ),
  ];
  return [
    "# Benchmarks",
    "",
    `Written by \`${o.command}\` (scripts/bench/). Each benchmark runs the real server (\`bun app/main.ts\`) and a`,
    "hand-written baseline (Bun.serve + bun:sqlite, or the library alone) in the same run, interleaved: in each round,",
    "for each benchmark, ours then the baseline (the order alternating from one round to the next), each on a fresh copy",
    "of the same database. Figures are medians over the rounds; a ratio is taken within each round, then its median.",
    "Peak memory is the server's resident-set high-water mark (VmHWM of /proc/<pid>/status) at the end of a run.",
    "Rows written (audit, scans, check-ins) are counted in the database before and after each measured run: they",
    "include the requests in flight at its two edges, so they may exceed the request count by up to two per connection.",
    "",
    summaryTables(o.cases),
    "",
    ...o.conditions.map((c) => `- ${c}`),
    "",
    "## What each benchmark does",
    "",
    ...sections,
    "## Every run",
    "",
    ...runs,
    "",
  ].join("\n");
}
