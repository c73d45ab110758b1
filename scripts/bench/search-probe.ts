// The member search timed in one process, without HTTP: `listMembers` on the bench's datasets
// (10,000 or 100,000 members), each query asked `RUNS` times after a warm-up, its median wall
// time and its CPU time per call. Also the plans SQLite chose. Not part of `bun run bench`:
// a tool to see where a search's time goes.
//
// `bun scripts/bench/search-probe.ts 100000 [term...]` (the dataset is seeded once and kept in
// $PROBE_DIR, /tmp/search-probe by default). With DATABASE_URL=postgres://.../<database>: that
// database, which holds the same dataset (scripts/bench/postgres.ts `loadDataset`).
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { openDb } from "../../db";
import { operatorCtx } from "../../lib/auth/operator";
import { loadConfig } from "../../lib/config";
import { listMembers } from "../../lib/members";
import type { MemberListQuery } from "../../lib/members/schemas";
import { dataset } from "./datasets";

const count = Number(Bun.argv[2] ?? 10_000);
const terms = Bun.argv.slice(3);
const RUNS = Number(process.env.RUNS ?? 50);
const dir = process.env.PROBE_DIR ?? "/tmp/search-probe";
mkdirSync(dir, { recursive: true });
const path = join(dir, `${count}.db`);
if (!existsSync(path)) {
  const ds = await dataset({ members: count }, console.error);
  copyFileSync(ds.path, path);
}
const url = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : path;
const db = await openDb(url);
const [{ id: clubId }] = await db.query<{ id: string }>("SELECT id FROM clubs LIMIT 1");
const ctx = await operatorCtx(db, clubId, loadConfig({ DATABASE_URL: url, OUTBOX_DIR: join(dir, "outbox"), BASE_URL: "http://127.0.0.1" }));

const queries: MemberListQuery[] = (terms.length ? terms : ["zolc", "zolc9", "zolc99999", "nobody", "zo", "lukasz zolc1", "member1"]).flatMap((search) => [
  { search },
  { search, page: 2 },
  { search, sort: "name" },
  { search, status: "active", sort: "name", page: 2 },
]);

for (const q of queries) {
  for (let i = 0; i < Math.min(5, RUNS); i++) await listMembers(ctx, q);
  const times: number[] = [];
  const cpu = process.cpuUsage();
  let answer = await listMembers(ctx, q);
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    answer = await listMembers(ctx, q);
    times.push(performance.now() - t);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const ms = (v: number) => v.toFixed(2).padStart(7);
  console.log(
    `${JSON.stringify(q).padEnd(62)} p50 ${ms(times[times.length >> 1])} ms  min ${ms(times[0])} ms  cpu ${ms((used.user + used.system) / 1000 / (RUNS + 1))} ms/call  total ${answer.total}, ${answer.items.length} items`,
  );
}
db.close();
