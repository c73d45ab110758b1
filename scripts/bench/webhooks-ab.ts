// Two trees' outboxes side by side in one process, so that both see the same machine at the same
// moment (a shared machine's load swings CPU per request between runs by 2-3 times): `bun
// scripts/bench/webhooks-ab.ts /path/to/other/tree [rounds]` loads lib/ of that tree and of this
// one, each on fresh copies of the 10,000-member dataset (one with 3 endpoints subscribed to
// member.created, one with none), and per round alternates (1) a batch of AB_BATCH (256) creations, 32 at
// once, on each copy (the process's CPU time per creation, no worker running), then (2) on the
// copies with endpoints, the worker of each tree (startJobWorker, as the server runs it) sending
// the round's deliveries to a receiver in a child process, with its CPU time per delivery.
// Medians over the rounds. Not part of `bun run bench` (docs/benchmarks.md "hooks16").
import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { ROOT } from "./common";
import { dataset, freshCopy } from "./datasets";
import { makeTempDir, median, removeTempDir } from "./harness";
import { addEndpoints, childReceiver } from "./webhooks";

const OTHER = process.argv[2];
const ROUNDS = Number(process.argv[3] ?? 9);
if (!OTHER) throw new Error("usage: bun scripts/bench/webhooks-ab.ts /path/to/other/tree [rounds]");
/** Creations per side and round (AB_BATCH): 256 leave 768 deliveries, more than the 500 a worker holds. */
const BATCH = Number(process.env.AB_BATCH ?? 256);

const receiver = await childReceiver();
const ds = await dataset({ members: 10_000 }, () => {});
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

type Side = {
  name: string;
  create: (i: number) => Promise<void>;
  drain: () => Promise<number>;
  pending: () => number;
  close: () => Promise<void>;
};

async function side(tree: string, name: string, endpoints: number, dir: string): Promise<Side> {
  const path = freshCopy(ds, join(dir));
  addEndpoints(path, ds.clubId, receiver.url, endpoints);
  const { openDb } = await import(join(tree, "db/index.ts"));
  const { operatorCtx } = await import(join(tree, "lib/auth/operator.ts"));
  const { loadConfig } = await import(join(tree, "lib/config.ts"));
  const { addMember } = await import(join(tree, "lib/members/index.ts"));
  const { startJobWorker } = await import(join(tree, "lib/jobs/index.ts"));
  const { JOB_KINDS } = await import(join(tree, "server/jobs.ts"));
  const config = loadConfig({ DATABASE_URL: path, OUTBOX_DIR: join(dir, "outbox"), BASE_URL: "http://127.0.0.1", WEBHOOK_ALLOW_PRIVATE: "true" });
  const db = await openDb(path);
  const ctx = await operatorCtx(db, ds.clubId, config);
  const reader = new Database(path, { readonly: true });
  // Deliveries still to send: those written, and those of the events not yet fanned out (one per endpoint).
  const pendingQuery = reader.query<{ n: number }, []>(
    `SELECT (SELECT count(*) FROM jobs WHERE status = 'pending' AND kind = 'webhook_delivery') + ${endpoints} * (SELECT count(*) FROM jobs WHERE status = 'pending' AND kind = 'webhook_fanout') AS n`,
  );
  return {
    name,
    create: (i) =>
      addMember(ctx, {
        first_name: "Bench",
        last_name: "Webhook",
        email: `ab-${i}-${randomBytes(4).toString("hex")}@example.org`,
        membership_end: "2030-12-31",
      }),
    async drain() {
      const before = pendingQuery.get()?.n ?? 0;
      const worker = startJobWorker(db, config, JOB_KINDS, 50);
      while ((pendingQuery.get()?.n ?? 0) > 0) await Bun.sleep(5);
      await worker.stop();
      return before;
    },
    pending: () => pendingQuery.get()?.n ?? 0,
    close: async () => {
      reader.close();
      await db.close();
    },
  };
}

const dirs: string[] = [];
const mk = () => {
  const d = makeTempDir("club-webhooks-ab-");
  dirs.push(d);
  return d;
};
// Both trees' modules in one process: each opens its own database (its own drizzle schema).
const sides = {
  other3: await side(OTHER, "other, 3 endpoints", 3, mk()),
  other0: await side(OTHER, "other, none", 0, mk()),
  this3: await side(ROOT, "this, 3 endpoints", 3, mk()),
  this0: await side(ROOT, "this, none", 0, mk()),
};
const createMs: Record<string, number[]> = {};
const deliverMs: Record<string, number[]> = {};
let n = 0;
for (let round = 0; round <= ROUNDS; round++) {
  const order = round % 2 ? (["this3", "this0", "other3", "other0"] as const) : (["other3", "other0", "this3", "this0"] as const);
  for (const k of order) {
    const s = sides[k];
    const c0 = cpu();
    for (let i = 0; i < BATCH; i += 32) await Promise.all(Array.from({ length: 32 }, () => s.create(n++)));
    // Round 0 warms up (statements prepared, JIT).
    if (round) createMs[k] = [...(createMs[k] ?? []), (cpu() - c0) / BATCH];
  }
  for (const k of round % 2 ? (["this3", "other3"] as const) : (["other3", "this3"] as const)) {
    const s = sides[k];
    const c0 = cpu();
    const sent = await s.drain();
    if (round && sent) deliverMs[k] = [...(deliverMs[k] ?? []), (cpu() - c0) / sent];
  }
}
const show = (v: number[]) => `${v.map((x) => x.toFixed(2)).join(" ")} (median ${median(v).toFixed(3)})`;
for (const k of Object.keys(sides) as (keyof typeof sides)[]) console.log(`${sides[k].name}: CPU ms a creation ${show(createMs[k])}`);
for (const k of ["other3", "this3"] as const) console.log(`${sides[k].name}: CPU ms a delivery (the worker) ${show(deliverMs[k])}`);
console.log(
  `extra CPU a creation with 3 endpoints (median of per-round differences): other ${median(createMs.other3.map((x, i) => x - createMs.other0[i])).toFixed(3)} ms, this ${median(createMs.this3.map((x, i) => x - createMs.this0[i])).toFixed(3)} ms`,
);
for (const s of Object.values(sides)) await s.close();
for (const d of dirs) removeTempDir(d);
receiver.stop();
process.exit(0);
