// The server's resident memory while it waits: VmRSS two seconds after it says "Listening on",
// on a fresh copy of the 10,000-member database, against the hand-written baseline server
// (Bun.serve + bun:sqlite) idling the same way; then, for information, ours again after the first
// requests that load what only some requests need (web card, card email, PDF roster, docs, MCP).
import { type Benchmark, type ConfigName, expectJson, type Measurement, mb, startBaseline, startOurs } from "./common";
import { type Dataset, dataset, freshCopy } from "./datasets";
import { makeTempDir, peakRssKb, removeTempDir, rssKb, type Server } from "./harness";

/** How long the server is left alone before its memory is read. */
const SETTLE_MS = 2_000;
let ds: Dataset;

/**
 * One request of each kind that loads a dependency on first use: the web card (QR code), the card
 * email (nodemailer, QR PNG; written to the outbox), the PDF roster of one member (PDF writer,
 * DejaVu font), the docs page and the OpenAPI document, and an MCP tools/list (the MCP SDK).
 */
async function firstRequests(server: Server): Promise<string[]> {
  const auth = { authorization: `Bearer ${ds.key}` };
  const list = await expectJson(await fetch(`${server.url}/api/clubs/${ds.clubId}/members?limit=1`, { headers: auth }), "ours member list");
  const memberId = (list.items as { id: string }[])[0].id;
  const club = `${server.url}/api/clubs/${ds.clubId}`;
  const mcp = (id: number, method: string, params: unknown) =>
    fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    });
  const requests: [string, () => Promise<Response>][] = [
    ["web card", () => fetch(`${server.url}/c/${ds.serials[0]}`)],
    ["card email", () => fetch(`${club}/members/${memberId}/send-card-email`, { method: "POST", headers: auth })],
    ["PDF roster", () => fetch(`${club}/members/export?format=pdf&member_ids=${memberId}`, { headers: auth })],
    ["docs page", () => fetch(`${server.url}/api/public/docs`)],
    ["OpenAPI document", () => fetch(`${server.url}/api/public/openapi.json`)],
    ["MCP initialize", () => mcp(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } })],
    ["MCP tools/list", () => mcp(2, "tools/list", {})],
  ];
  for (const [what, send] of requests) {
    const res = await send();
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`ours ${what}: answered ${res.status}`);
  }
  return requests.map(([what]) => what);
}

function measurement(caseId: string, round: number, config: ConfigName, server: Server, note: string): Measurement {
  const rss = rssKb(server.pid);
  return {
    bench: "memory",
    caseId,
    round,
    config,
    rps: null,
    p50Ms: 0,
    p99Ms: 0,
    times: [],
    requests: 0,
    non2xx: 0,
    errors: 0,
    peakKb: peakRssKb(server.pid),
    growthKb: null,
    rssKb: rss,
    signature: null,
    note: `VmRSS ${mb(rss)} ${note}`,
  };
}

export const memory: Benchmark = {
  name: "memory",
  title: "Resident memory of the idle server",
  about: [
    "**Idle**: the server started on a fresh copy of the 10,000-member database, left alone for 2 s after it says",
    '"Listening on", then its VmRSS read from /proc/<pid>/status (resident memory, the bun binary\'s pages included).',
    "**Ours**: the real server, which loads at start only what every request needs: the wallet libraries",
    "(passkit-generator, jose, node:http2), nodemailer, qrcode, the PDF writer and its font, the MCP SDK, Stripe's",
    "package, the XML parser, the Markdown renderer, the OpenAPI component schemas and the dashboard load with the",
    "first request that needs them (`lib/lazy.ts`, app/index.ts). A first start finds some 575 reminders due on this",
    "dataset: they go out at the mail pace (MAIL_RATE_PER_MINUTE, 120: 20 a run, the next run 10 s later), so the first",
    "20 are sent in these 2 s; once the job worker's first pass is over (and at least 500 ms after start) the server calls",
    "`Bun.shrink()`: RSS is some 18 MB higher until then, so a start whose first pass ends late reads ~108 MB, not ~90.",
    "**Baseline**: the hand-written `baseline-auth-me.ts` (Bun.serve + bun:sqlite, no framework) idling the same way:",
    "the floor of a Bun process serving one SQLite file.",
    "**After the first requests** (ours, for information): the same server, after one web card page, one card email,",
    "the PDF roster of one member, the docs page, the OpenAPI document and an MCP initialize + tools/list, then 2 s.",
  ],
  cases: [
    { id: "idle", title: "idle, 2 s after start, 10,000 members", kind: "memory", target: { kind: "mb-max", value: 70 }, baseline: true },
    { id: "after-first", title: "after the first card, email, PDF, docs and MCP requests", kind: "memory", target: { kind: "info" }, baseline: false },
  ],
  async prepare(env) {
    ds = await dataset({ members: 10_000, registrations: 10_000 }, env.log);
  },
  async run(config: ConfigName, round, env) {
    const dir = makeTempDir(`club-bench-memory-${config}-`);
    let server: Server | undefined;
    try {
      const dbPath = freshCopy(ds, dir);
      server = config === "ours" ? await startOurs(dbPath, dir) : await startBaseline("baseline-auth-me.ts", dbPath);
      await Bun.sleep(SETTLE_MS);
      const idle = measurement("idle", round, config, server, `${SETTLE_MS / 1000} s after "Listening on"`);
      env.log(`round ${round} ${"memory/idle".padEnd(24)} ${config.padEnd(8)} RSS ${mb(idle.rssKb ?? null)}`);
      if (config === "baseline") return [idle];
      const done = await firstRequests(server);
      await Bun.sleep(SETTLE_MS);
      const after = measurement("after-first", round, config, server, `${SETTLE_MS / 1000} s after ${done.join(", ")}`);
      env.log(`round ${round} ${"memory/after-first".padEnd(24)} ${config.padEnd(8)} RSS ${mb(after.rssKb ?? null)}`);
      return [idle, after];
    } finally {
      await server?.stop();
      removeTempDir(dir);
    }
  },
};
