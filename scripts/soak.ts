// Soak run (issue 6): `bun run soak`. Starts the real server on a temp database and sends mixed
// traffic at a steady rate (reads, writes, exports, MCP calls) for SOAK_MINUTES (default 10) at
// SOAK_RATE requests a second (default 40). Prints per minute: requests, p50/p99 latency, errors
// and the server's RSS. Fails (exit 1) on any error, or when RSS grew by 10% or more between the
// end of the first minute (warm) and the end of the run. Not part of CI.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../test/reliability/server-process";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RATE = Number(process.env.SOAK_RATE ?? 40);

const dir = mkdtempSync(join(tmpdir(), "club-soak-"));
const server = await startServer(join(dir, "club.db"), { RATE_LIMIT_PER_MINUTE: "100000000" });
const cleanup = async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
};
process.on("SIGINT", async () => {
  await cleanup();
  process.exit(130);
});

const key = server.key as string;
const club = server.clubId as string;
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const api = (path: string, init: RequestInit = {}) => fetch(`${server.base}${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
const post = (path: string, body: unknown) => api(path, { method: "POST", body: JSON.stringify(body) });
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

// A club with members, a tier and an event to read and act on.
const tier = (await (await post(`/api/clubs/${club}/tiers`, { name: "Standard", price_cents: 5000 })).json()) as { id: string };
const memberIds: string[] = [];
const codes: string[] = [];
let serial = 0;
async function addMember(): Promise<Response> {
  const n = serial++;
  const res = await post(`/api/clubs/${club}/members/manual`, {
    first_name: "Soak",
    last_name: `N${n}`,
    email: `soak-${n}@example.org`,
    membership_end: inDays(200).slice(0, 10),
    tier_id: tier.id,
  });
  if (res.status === 201) {
    const body = (await res.clone().json()) as { id: string; referral_code: string };
    memberIds.push(body.id);
    codes.push(body.referral_code);
  }
  return res;
}
for (let i = 0; i < 200; i++) await addMember();
const event = (await (
  await post(`/api/clubs/${club}/events`, {
    title: "Soak",
    starts_at: inDays(30),
    tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }],
  })
).json()) as { id: string };
const mcp = (name: string, args: Record<string, unknown>) =>
  api("/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

/** The traffic mix: [weight, name, request]. */
const MIX: [number, string, () => Promise<Response>][] = [
  [25, "list members", () => api(`/api/clubs/${club}/members?limit=50&sort=name&dir=asc`)],
  [8, "search members", () => api(`/api/clubs/${club}/members?search=n${Math.floor(Math.random() * 100)}`)],
  [8, "me", () => api("/api/auth/me")],
  [12, "add member", addMember],
  [8, "extend", () => post(`/api/clubs/${club}/members/${pick(memberIds)}/actions/extend`, { extend_months: 1 })],
  [4, "export csv", () => api(`/api/clubs/${club}/members/export`)],
  [5, "stats", () => api(`/api/clubs/${club}/stats`)],
  [6, "verify", () => api(`/api/verify/${pick(codes)}`)],
  [6, "check-in", () => post(`/api/clubs/${club}/events/${event.id}/checkin`, { code: pick(codes) })],
  [10, "mcp list_members", () => mcp("list_members", { limit: 20 })],
  [8, "mcp whoami", () => mcp("whoami", {})],
];
const totalWeight = MIX.reduce((a, [w]) => a + w, 0);
function choose() {
  let r = Math.random() * totalWeight;
  for (const entry of MIX) {
    r -= entry[0];
    if (r < 0) return entry;
  }
  return MIX[0];
}

function rssMb(): number {
  const status = readFileSync(`/proc/${server.proc.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

type Minute = { latencies: number[]; errors: number; byError: Record<string, number> };
const minutes: Minute[] = [];
const rss: number[] = [];
let inFlight = 0;
const start = performance.now();
const end = start + MINUTES * 60_000;
let current: Minute = { latencies: [], errors: 0, byError: {} };
console.log(`soak: ${MINUTES} min at ${RATE} req/s against ${server.base} (pid ${server.proc.pid})`);
console.log("minute  requests  p50 ms  p99 ms  errors  in-flight  RSS MB");

const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
function closeMinute() {
  const m = current;
  minutes.push(m);
  rss.push(rssMb());
  const errs = Object.entries(m.byError)
    .map(([k, v]) => `${k} x${v}`)
    .join(", ");
  console.log(
    `${String(minutes.length).padStart(6)}  ${String(m.latencies.length).padStart(8)}  ${pct(m.latencies, 50).toFixed(1).padStart(6)}  ${pct(m.latencies, 99).toFixed(1).padStart(6)}  ${String(m.errors).padStart(6)}  ${String(inFlight).padStart(9)}  ${rss[rss.length - 1].toFixed(1).padStart(6)}${errs ? `  (${errs})` : ""}`,
  );
  current = { latencies: [], errors: 0, byError: {} };
}

let next = performance.now();
let minuteEnd = start + 60_000;
while (performance.now() < end) {
  const now = performance.now();
  if (now >= minuteEnd) {
    closeMinute();
    minuteEnd += 60_000;
  }
  if (now < next) {
    await Bun.sleep(Math.max(0, next - now));
    continue;
  }
  next += 1000 / RATE;
  const [, name, send] = choose();
  const bucket = current;
  const t0 = performance.now();
  inFlight++;
  send()
    .then(async (res) => {
      await res.arrayBuffer();
      bucket.latencies.push(performance.now() - t0);
      if (res.status >= 300) {
        bucket.errors++;
        bucket.byError[`${name} ${res.status}`] = (bucket.byError[`${name} ${res.status}`] ?? 0) + 1;
      }
    })
    .catch((err) => {
      bucket.errors++;
      bucket.byError[`${name} ${String(err).slice(0, 40)}`] = (bucket.byError[`${name} ${String(err).slice(0, 40)}`] ?? 0) + 1;
    })
    .finally(() => inFlight--);
}
while (inFlight > 0) await Bun.sleep(50);
if (current.latencies.length || minutes.length < MINUTES) closeMinute();

const errors = minutes.reduce((a, m) => a + m.errors, 0);
const baseline = rss[0];
const last = rss[rss.length - 1];
const growth = rss.length > 1 ? (last - baseline) / baseline : 0;
console.log(
  `soak: ${minutes.reduce((a, m) => a + m.latencies.length, 0)} requests, ${errors} errors, RSS ${baseline.toFixed(1)} MB after minute 1 -> ${last.toFixed(1)} MB at the end (${(growth * 100).toFixed(1)}%)`,
);
await cleanup();
if (errors > 0 || growth >= 0.1) {
  console.error(`soak FAILED: ${errors > 0 ? `${errors} errors` : ""} ${growth >= 0.1 ? `memory grew ${(growth * 100).toFixed(1)}%` : ""}`);
  process.exit(1);
}
console.log("soak passed");
