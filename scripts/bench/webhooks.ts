// Webhooks (issue 15): what the outbox costs a write, and how fast the queue delivers. Member
// creation (POST members/manual, 32 connections, each a new email) on the real server with 3
// enabled endpoints subscribed to member.created (each creation then writes 3 deliveries and 3
// jobs in its transaction, and the worker sends them to a local receiver meanwhile, starting a job
// every 20 ms at most while requests come: lib/jobs BUSY_GAP_MS) against the
// same server with no endpoint. Then the delivery throughput: 1,000 members created with 3
// endpoints, timed until the receiver has every one of the 3,000 deliveries.
import { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { type Benchmark, type ConfigName, cycleScript, expectJson, loadCase, type Measurement, startOurs, timedMeasurement } from "./common";
import { type Dataset, dataset, freshCopy } from "./datasets";
import { makeTempDir, peakRssKb, removeTempDir } from "./harness";

let ds: Dataset;
let received = 0;
const receiver = {
  server: null as ReturnType<typeof Bun.serve> | null,
  url(): string {
    this.server ??= Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        await req.arrayBuffer();
        received++;
        return new Response("ok");
      },
    });
    return `http://127.0.0.1:${this.server.port}`;
  },
};

const ENDPOINTS = 3;
/** Members created in the delivery-throughput case. */
const DELIVERY_MEMBERS = 1_000;

/** Writes `count` enabled endpoints at `<base>/hook-<i>` subscribed to member.created into the copy, before the server starts. */
export function addEndpoints(dbPath: string, clubId: string, base: string, count = ENDPOINTS) {
  const db = new Database(dbPath);
  try {
    const now = new Date().toISOString();
    const insert = db.query(
      "INSERT INTO webhook_endpoints (id, club_id, url, description, events, secret, enabled, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?, 1, ?, ?)",
    );
    for (let i = 0; i < count; i++) {
      insert.run(crypto.randomUUID(), clubId, `${base}/hook-${i}`, JSON.stringify(["member.created"]), `whsec_${randomBytes(32).toString("base64")}`, now, now);
    }
  } finally {
    db.close();
  }
}

/**
 * A receiver answering 200 to every POST, in a child process (its CPU is not the measuring
 * process's): for the tools that read one process's CPU time (webhooks-count, webhooks-ab).
 */
export async function childReceiver(): Promise<{ url: string; stop(): void }> {
  const proc = Bun.spawn(
    [
      "bun",
      "-e",
      'const s = Bun.serve({ port: 0, hostname: "127.0.0.1", async fetch(r) { await r.arrayBuffer(); return new Response("ok"); } }); console.log(s.port);',
    ],
    { stdout: "pipe" },
  );
  const port = Number(new TextDecoder().decode((await proc.stdout.getReader().read()).value).trim());
  return { url: `http://127.0.0.1:${port}`, stop: () => proc.kill() };
}

const start = (config: ConfigName) => async (dbPath: string, dir: string) => {
  if (config === "ours") addEndpoints(dbPath, ds.clubId, receiver.url());
  return startOurs(dbPath, dir, { WEBHOOK_ALLOW_PRIVATE: "true" });
};

const memberBody = (email: string) => JSON.stringify({ first_name: "Bench", last_name: "Webhook", email, membership_end: "2030-12-31" });

export const webhooks: Benchmark = {
  name: "webhooks",
  title: "Webhooks: member creation with 3 endpoints subscribed, and delivery throughput",
  about: [
    "POST /api/clubs/<club_id>/members/manual, 32 connections, each request a new email (a wrk Lua script), on a copy",
    "of the 10,000-member dataset. **Ours**: the real server with 3 enabled endpoints subscribed to `member.created`",
    "(each creation writes, in its transaction, 3 delivery rows and 3 jobs; the job worker signs and POSTs them to a",
    "receiver in the benchmark process during the run). **Baseline**: the same server, no endpoint (one indexed read",
    "of the club's endpoints per creation). Target: ours at least 0.85 of the baseline's rate (at most 15% slower).",
    "**Delivery throughput**: 1,000 members created (32 at once) with 3 endpoints, timed from the first request to",
    "the receiver's 3,000th delivery; reported as deliveries a second (JOB_CONCURRENCY 8, one endpoint's deliveries in order).",
  ],
  cases: [
    { id: "create", title: "member creation, 32 connections, 3 endpoints vs none", kind: "load", target: { kind: "ratio-min", value: 0.85 }, baseline: true },
    {
      id: "delivery",
      title: `delivery of ${DELIVERY_MEMBERS * ENDPOINTS} webhooks to a local receiver`,
      kind: "time",
      target: { kind: "info" },
      baseline: false,
    },
  ],
  async prepare(env) {
    ds = await dataset({ members: 10_000 }, env.log);
  },
  async run(config: ConfigName, round, env) {
    const path = `/api/clubs/${ds.clubId}/members/manual`;
    const out: Measurement[] = [
      await loadCase({
        bench: "webhooks",
        caseId: "create",
        config,
        round,
        env,
        ds,
        baseline: "",
        start: start(config),
        path,
        method: "POST",
        connections: env.settings.connections,
        script: (dir) =>
          cycleScript(join(dir, "members.lua"), {
            method: "POST",
            items: Array.from({ length: 120_000 }, () => randomBytes(8).toString("hex")),
            path: () => path,
            body: (code) => memberBody(`w-${code}@example.org`),
          }),
        async check(server) {
          const res = await fetch(server.url + path, {
            method: "POST",
            headers: { authorization: `Bearer ${ds.key}`, "content-type": "application/json" },
            body: memberBody(`check-${randomBytes(6).toString("hex")}@example.org`),
          });
          const body = await expectJson(res, `${config} POST ${path}`, 201);
          return `created ${body.status}`;
        },
        rows: {
          members: "SELECT count(*) AS n FROM members",
          deliveries: "SELECT count(*) AS n FROM webhook_deliveries",
          sent: "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'",
        },
        describe: (d, requests) => `${requests} requests: members +${d.members}, deliveries queued +${d.deliveries}, sent during the run +${d.sent}`,
      }),
    ];
    if (config === "ours") out.push(await deliveryCase(round, env.log));
    return out;
  },
};

/** Creates DELIVERY_MEMBERS members 32 at a time and times until the receiver has every delivery. */
async function deliveryCase(round: number, log: (line: string) => void): Promise<Measurement> {
  const dir = makeTempDir("club-bench-webhooks-delivery-");
  const dbPath = freshCopy(ds, dir);
  const server = await start("ours")(dbPath, dir);
  try {
    const before = received;
    const want = DELIVERY_MEMBERS * ENDPOINTS;
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < DELIVERY_MEMBERS) {
        const i = next++;
        const res = await fetch(`${server.url}/api/clubs/${ds.clubId}/members/manual`, {
          method: "POST",
          headers: { authorization: `Bearer ${ds.key}`, "content-type": "application/json" },
          body: memberBody(`d-${round}-${i}-${randomBytes(4).toString("hex")}@example.org`),
        });
        await expectJson(res, "delivery case: member create", 201);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const created = performance.now() - started;
    const deadline = Date.now() + 120_000;
    while (received - before < want && Date.now() < deadline) await Bun.sleep(5);
    const ms = performance.now() - started;
    const got = received - before;
    if (got < want) throw new Error(`delivery case: ${got} of ${want} deliveries within 120 s`);
    const note = `${want} deliveries in ${(ms / 1000).toFixed(2)} s: ${((want * 1000) / ms).toFixed(0)} deliveries/s (the ${DELIVERY_MEMBERS} creations took ${(created / 1000).toFixed(2)} s)`;
    log(`round ${round} webhooks/delivery          ours     ${note}`);
    return timedMeasurement({
      bench: "webhooks",
      caseId: "delivery",
      round,
      config: "ours",
      times: [ms],
      peakKb: peakRssKb(server.pid),
      growthKb: null,
      signature: null,
      note,
    });
  } finally {
    await server.stop();
    removeTempDir(dir);
  }
}
