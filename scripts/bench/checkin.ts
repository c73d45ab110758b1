// Check-in throughput: `bun scripts/bench/checkin.ts [registrations=2000] [concurrency=50]`.
// A temporary database, one club, one event with N confirmed registrations; every ticket is
// scanned once through the real app (`app.handle`) with `concurrency` scans in flight, then
// every ticket again (all `already`). Prints scans per second and latency percentiles.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { eventRegistrations } from "../../db/schema";
import { initClub } from "../../lib/clubs/init";
import { loadConfig } from "../../lib/config";
import { newId, randomBase62 } from "../../lib/ids";
import { createApp } from "../../server/app";

const total = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 50);
const dir = mkdtempSync(join(tmpdir(), "club-bench-"));
const config = loadConfig({ DATABASE_URL: join(dir, "club.db"), BASE_URL: "http://localhost", RATE_LIMIT_PER_MINUTE: "100000000" });
const db = openDb(config.databaseUrl);
const app = await createApp(db, config);
const club = await initClub(db, { clubName: "Bench", email: "bench@example.org" });
const headers = { authorization: `Bearer ${club.api_key}`, "content-type": "application/json" };

const created = await app.handle(
  new Request(`http://localhost/api/clubs/${club.club_id}/events`, {
    method: "POST",
    headers,
    body: JSON.stringify({ title: "Bench", starts_at: "2030-01-01T18:00:00Z", tickets: [{ name: "T", non_member_price_cents: 0 }] }),
  }),
);
const event = (await created.json()) as { id: string; tickets: { id: string }[] };
const now = new Date().toISOString();
const tokens = Array.from({ length: total }, () => randomBase62(24));
await db.tx(async (t) => {
  for (let i = 0; i < total; i += 500) {
    await t.insert(eventRegistrations).values(
      tokens.slice(i, i + 500).map((qr_token) => ({
        id: newId(),
        club_id: club.club_id,
        event_id: event.id,
        ticket_id: event.tickets[0].id,
        first_name: "B",
        last_name: "B",
        qr_token,
        status: "confirmed",
        amount_cents: 0,
        currency: "CHF",
        created_at: now,
        updated_at: now,
      })),
    );
  }
});

async function run(label: string) {
  const latencies: number[] = [];
  const verdicts: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tokens.length) {
        const code = tokens[next++];
        const t0 = performance.now();
        const res = await app.handle(
          new Request(`http://localhost/api/clubs/${club.club_id}/events/${event.id}/checkin`, { method: "POST", headers, body: JSON.stringify({ code }) }),
        );
        const body = (await res.json()) as { verdict: string };
        latencies.push(performance.now() - t0);
        verdicts[body.verdict] = (verdicts[body.verdict] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2);
  console.log(
    `${label}: ${tokens.length} scans in ${seconds.toFixed(2)} s = ${(tokens.length / seconds).toFixed(0)}/s; p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; ${JSON.stringify(verdicts)}`,
  );
}

console.log(`check-in bench: ${total} registrations, concurrency ${concurrency}, synchronous=FULL`);
await run("first scans");
await run("second scans");
await app.audit.drain();
db.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
