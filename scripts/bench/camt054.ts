// Matching a 1,000-line camt.054 (issue 27: under 5 s): a club with a QR-IBAN, 1,000 members
// each with an open invoice (half a tier's fee, kind membership: its payment renews through
// mark-paid; half kind other), a notification paying each invoice in full, imported once over
// HTTP in process (SQLite file, or DATABASE_URL), after a dry run of it (matching alone).
// A case of `bun run bench camt054`; alone: `bun scripts/bench/camt054.ts [lines]` prints both.
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { camt054 } from "../../test/fixtures/camt054";
import { setup } from "../../test/helpers";
import { seedMember } from "../../test/members-fixtures";
import { BENCH_RATE_LIMIT, type Benchmark, type ConfigName, type Measurement, timedMeasurement } from "./common";

const LINES = 1000;

/** One fresh club and notification: the dry run's and the import's times (ms), on `lines` invoices. */
export async function camt054Round(lines: number): Promise<{ dry: number; run: number }> {
  const env = await setup({ RATE_LIMIT_PER_MINUTE: BENCH_RATE_LIMIT });
  try {
    await env.db.tx((t) => t.update(clubs).set({ currency: "CHF", payout_iban: "CH44 3199 9123 0008 8901 2" }).where(eq(clubs.id, env.clubId)));
    const tier = (
      await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adult", price_cents: 8000, currency: "CHF", duration_months: 12 } })
    ).body.id;
    const payments: { amount: string; reference: string; kind: "QRR" }[] = [];
    for (let i = 0; i < lines; i++) {
      const m = await seedMember(env, { tier_id: tier });
      const body =
        i % 2 && process.env.MIX !== "other" ? { member_id: m.id, tier_id: tier } : { member_id: m.id, lines: [{ label: "Tournoi", amount_cents: 4500 }] };
      const inv = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body });
      if (inv.status !== 201) throw new Error(`invoice: ${inv.text}`);
      payments.push({ amount: (inv.body.amount_cents / 100).toFixed(2), reference: inv.body.reference, kind: "QRR" });
    }
    const xml = camt054(payments);
    const timed = async (label: string, qs: string) => {
      const started = performance.now();
      const res = await env.call("POST", `/api/clubs/${env.clubId}/payments/import${qs}`, { rawBody: xml, headers: { "content-type": "application/xml" } });
      const ms = performance.now() - started;
      if (res.status !== 200 || res.body.matched.length !== lines) throw new Error(`${label}: ${res.status} ${res.text.slice(0, 300)}`);
      return ms;
    };
    const dry = await timed("dry run", "?dry_run=true");
    return { dry, run: await timed("import", "") };
  } finally {
    await env.close();
  }
}

export const camt054Bench: Benchmark = {
  name: "camt054",
  title: "POST /api/clubs/<club_id>/payments/import, a camt.054 of 1,000 QR-bill payments",
  about: [
    "Ours only, in process (the app's handler without a socket, SQLite file): a club with a QR-IBAN, 1,000 members each",
    "with one open invoice (half a tier's fee, whose completing payment renews through mark-paid; half kind other), and",
    "one camt.054 notification paying each invoice in full. Timed from the request to the answer: first a dry run (read,",
    "match, list), then the import itself (each line in its transaction: payment, invoice, renewal, receipt, webhooks).",
    "A fresh club per round (seeding is not timed).",
  ],
  cases: [
    { id: "import", title: "Import of a 1,000-line camt.054", kind: "time", target: { kind: "ms-max", value: 5000 }, baseline: false },
    { id: "dry-run", title: "Dry run of the same camt.054", kind: "time", target: { kind: "ms-max", value: 5000 }, baseline: false },
  ],
  async prepare() {},
  async run(config: ConfigName, round, env) {
    if (config === "baseline") return [];
    const { dry, run } = await camt054Round(LINES);
    const m = (caseId: string, ms: number): Measurement =>
      timedMeasurement({
        bench: "camt054",
        caseId,
        round,
        config: "ours",
        times: [ms],
        peakKb: null,
        growthKb: null,
        signature: `${LINES} matched`,
        note: `${LINES} lines in ${ms.toFixed(0)} ms, ${((LINES / ms) * 1000).toFixed(0)} lines/s`,
      });
    env.log(`round ${round} camt054                  ours     dry run ${dry.toFixed(0)} ms, import ${run.toFixed(0)} ms`);
    return [m("import", run), m("dry-run", dry)];
  },
};

if (import.meta.main) {
  const lines = Number(Bun.argv[2] ?? LINES);
  const { dry, run } = await camt054Round(lines);
  for (const [label, ms] of [
    ["dry run", dry],
    ["import", run],
  ] as const)
    console.log(`${label}: ${lines} lines in ${ms.toFixed(0)} ms, ${((lines / ms) * 1000).toFixed(0)} lines/s (${(ms / lines).toFixed(2)} ms a line)`);
}
