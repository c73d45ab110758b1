// The journal, GET /api/clubs/<club_id>/journal: a year of 20,000 payments (half by card, so
// about 50,000 lines with the fees and commissions) in each format, timed from the request to
// the last byte received, on a fresh server whose memory high-water mark is read before the
// first export and after the last (issue 28: under 2 s, memory growth under 50 MB).
import { type Benchmark, type ConfigName, expectJson, type Measurement, mb, startOurs, timedDownloads, timedMeasurement } from "./common";
import { type Dataset, dataset, freshCopy } from "./datasets";
import { makeTempDir, peakRssKb, removeTempDir, type Server } from "./harness";

const PAYMENTS = 20_000;
const FORMATS = ["json", "csv", "banana", "datev"] as const;
let ds: Dataset;

async function timedJournal(env: Parameters<Benchmark["run"]>[2], round: number, format: (typeof FORMATS)[number]): Promise<Measurement> {
  const dir = makeTempDir(`club-bench-journal-${format}-`);
  let server: Server | undefined;
  try {
    server = await startOurs(freshCopy(ds, dir), dir);
    const headers = { authorization: `Bearer ${ds.key}` };
    await expectJson(await fetch(`${server.url}/api/auth/me`, { headers }), "ours GET /api/auth/me");
    const before = peakRssKb(server.pid);
    const today = new Date();
    const from = new Date(today.getTime() - 365 * 86_400_000).toISOString().slice(0, 10);
    // DATEV holds one calendar year: its file is this year's part.
    const start = format === "datev" ? `${today.getUTCFullYear()}-01-01` : from;
    const url = `${server.url}/api/clubs/${ds.clubId}/journal?from=${start}&to=${today.toISOString().slice(0, 10)}&format=${format}`;
    const { times, bytes } = await timedDownloads(url, headers, env.settings.exportRuns, `ours journal ${format}`);
    const after = peakRssKb(server.pid);
    const growthKb = before !== null && after !== null ? after - before : null;
    const m = timedMeasurement({
      bench: "journal",
      caseId: format,
      round,
      config: "ours",
      times,
      peakKb: after,
      growthKb,
      signature: `${bytes} bytes`,
      note: `${PAYMENTS} payments, ${bytes} bytes; times ${times.map((t) => t.toFixed(0)).join(", ")} ms; VmHWM ${mb(before)} before, ${mb(after)} after`,
    });
    env.log(`round ${round} ${`journal/${format}`.padEnd(24)} ours     median ${m.p50Ms.toFixed(0)} ms  growth ${mb(growthKb)}  ${m.note}`);
    return m;
  } finally {
    await server?.stop();
    removeTempDir(dir);
  }
}

export const journalBench: Benchmark = {
  name: "journal",
  title: "GET /api/clubs/<club_id>/journal, a year of 20,000 payments",
  about: [
    "Ours only: the real server, timed by the client from the request to the last byte of the body (key, audit row,",
    "`exportJournal`: the period's payments read 100 at a time, as arrays, by one prepared statement with the names their",
    "descriptions need, made into double-entry lines and written as they are read, a young-generation collection asked for",
    "every 16 pages). 20,000 payments over the last 365 days, half",
    "by card (three lines each: gross, fee, commission), the rest bank or cash (two: gross, commission). DATEV's file",
    "holds one calendar year, so it covers this year's part, after a first pass over the same rows counting the lines",
    "whose text Windows-1252 lacks (the warning header).",
    "Memory growth: VmHWM after the exports minus VmHWM before the first one.",
  ],
  cases: FORMATS.map((format) => ({
    id: format,
    title: `Journal as ${format}, a year of ${PAYMENTS.toLocaleString("en")} payments`,
    kind: "time" as const,
    target: { kind: "ms-max" as const, value: 2000, growthMb: 50 },
    baseline: false,
  })),
  async prepare(env) {
    ds = await dataset({ members: 5_000, payments: PAYMENTS }, env.log);
  },
  async run(config: ConfigName, round, env) {
    if (config === "baseline") return [];
    const out: Measurement[] = [];
    for (const format of FORMATS) out.push(await timedJournal(env, round, format));
    return out;
  },
};
