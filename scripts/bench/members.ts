// Benchmark of the member list: seeds 10,000 members into a temporary database and measures
// GET /api/clubs/<club_id>/members through the real app (no network), per query shape.
// Run: bun scripts/bench/members.ts [members=10000] [rounds=200]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { members } from "../../db/schema";
import { initClub } from "../../lib/clubs/init";
import { loadConfig } from "../../lib/config";
import { newMemberRow } from "../../lib/members";
import { addDays } from "../../lib/members/internal";
import { todayUtc } from "../../lib/members/status";
import { createApp } from "../../server/app";

const total = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 200);
const dir = mkdtempSync(join(tmpdir(), "club-bench-"));
const config = loadConfig({ DATABASE_URL: join(dir, "club.db"), BASE_URL: "http://localhost", RATE_LIMIT_PER_MINUTE: "100000000" });
const db = openDb(config.databaseUrl);
const app = await createApp(db, config);
const club = await initClub(db, { clubName: "Bench club", email: "bench@test.org" });

const FIRST = ["Anna", "Élodie", "Łukasz", "Jiří", "Marco", "Sophie", "Jörg", "Chiara", "Luc", "Nina"];
const LAST = ["Muster", "Żółć", "Čapek", "Favre", "Rossi", "Böhm", "Dupont", "Meier", "Keller", "Bianchi"];
const STATUS = ["paid", "paid", "paid", "pending", "suspended"];
const today = todayUtc();
const seedStart = performance.now();
for (let i = 0; i < total; i += 1000) {
  const batch: (typeof members.$inferInsert)[] = [];
  for (let j = i; j < Math.min(total, i + 1000); j++) {
    batch.push(
      newMemberRow(club.club_id, {
        first_name: FIRST[j % 10],
        last_name: `${LAST[(j * 7) % 10]}${j}`,
        email: `member${j}@bench.org`,
        membership_start: addDays(today, -200),
        membership_end: addDays(today, (j % 400) - 100),
        payment_status: STATUS[j % 5],
      }),
    );
  }
  await db.tx((t) => t.insert(members).values(batch));
}
console.log(`seeded ${total} members in ${(performance.now() - seedStart).toFixed(0)} ms`);

const QUERIES = ["", "?status=active", "?search=zolc", "?search=member9999", "?sort=name&dir=asc", "?sort=status", "?limit=1000", "?page=100&limit=50"];
for (const qs of QUERIES) {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    const res = await app.handle(
      new Request(`http://localhost/api/clubs/${club.club_id}/members${qs}`, { headers: { authorization: `Bearer ${club.api_key}` } }),
    );
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${qs}: ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(`${(qs || "(default)").padEnd(24)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms  max ${p(1)} ms`);
}
await app.audit.drain();
db.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
