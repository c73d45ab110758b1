// Matching a 1,000-line camt.054 (issue 27: under 5 s): a club with a QR-IBAN, 1,000 members
// each with an open invoice (half a tier's fee, kind membership: its payment renews through
// mark-paid; half kind other), a notification paying each invoice in full, imported once over
// HTTP in process (SQLite file, or DATABASE_URL). Prints the import's time and lines per second,
// then a dry run's (matching alone). Run: `bun scripts/bench/camt054.ts [lines]`.
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { camt054 } from "../../test/fixtures/camt054";
import { BENCH_RATE_LIMIT } from "./common";
import { setup } from "../../test/helpers";
import { seedMember } from "../../test/members-fixtures";

const LINES = Number(Bun.argv[2] ?? 1000);
const env = await setup({ RATE_LIMIT_PER_MINUTE: BENCH_RATE_LIMIT });
try {
  await env.db.tx((t) => t.update(clubs).set({ currency: "CHF", payout_iban: "CH44 3199 9123 0008 8901 2" }).where(eq(clubs.id, env.clubId)));
  const tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adult", price_cents: 8000, currency: "CHF", duration_months: 12 } }))
    .body.id;
  const payments: { amount: string; reference: string; kind: "QRR" }[] = [];
  for (let i = 0; i < LINES; i++) {
    const m = await seedMember(env, { tier_id: tier });
    const body =
      i % 2 && process.env.MIX !== "other" ? { member_id: m.id, tier_id: tier } : { member_id: m.id, lines: [{ label: "Tournoi", amount_cents: 4500 }] };
    const inv = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body });
    if (inv.status !== 201) throw new Error(`invoice: ${inv.text}`);
    payments.push({ amount: (inv.body.amount_cents / 100).toFixed(2), reference: inv.body.reference, kind: "QRR" });
  }
  const xml = camt054(payments);
  const send = (qs: string) =>
    env.call("POST", `/api/clubs/${env.clubId}/payments/import${qs}`, { rawBody: xml, headers: { "content-type": "application/xml" } });
  for (const [label, qs] of [
    ["dry run", "?dry_run=true"],
    ["import", ""],
  ]) {
    const started = performance.now();
    const res = await send(qs);
    const ms = performance.now() - started;
    if (res.status !== 200 || res.body.matched.length !== LINES) throw new Error(`${label}: ${res.status} ${res.text.slice(0, 300)}`);
    console.log(`${label}: ${LINES} lines in ${ms.toFixed(0)} ms, ${((LINES / ms) * 1000).toFixed(0)} lines/s (${(ms / LINES).toFixed(2)} ms a line)`);
  }
} finally {
  await env.close();
}
