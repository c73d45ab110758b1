// Crashes (issue 6, item 4): the real server on a temp database, writes with many in flight
// (member creates, and club updates whose new card link queues a wallet pass update job), killed
// with SIGKILL at a random moment. After each kill: `PRAGMA integrity_check` is ok and every
// acknowledged write is there. After each restart the queued jobs resume, and at the end each one
// is done exactly once. Then an online backup (`bun run cli backup`) taken under write load
// restores to a consistent database. CRASH_ROUNDS (default 2; README: 20) sets the rounds.
//
// The wallet delivery queue (issue 6 item 4, issue 5 item 6): the server runs with Google Wallet
// pointed at a local fake (test/google-fake.ts, in this process, so it outlives each kill), some
// members have saved their card, and the write load also suspends, reactivates and extends them
// and changes the card's custom link, each of which queues deliveries. Once the queue has drained
// after the last restart: every wallet job is done, the fake holds, for every saved card, the
// member's final state and link (no delivery lost), and deliveries were repeated (same job id in
// `X-Delivery-Id`, answered 2xx twice) at most JOB_CONCURRENCY times per kill, the most the worker
// has in flight (docs/decisions.md, "wallet pass updates").
//
// Webhooks (issue 15): an endpoint subscribed to member.created points at a receiver in this
// process (it outlives each kill) that verifies each signature. At the end every acknowledged
// member has been announced to it (0 lost, however the kills fell between commit and delivery),
// and every webhook delivery ended succeeded.
import { Database } from "bun:sqlite";
import { afterAll, expect, it } from "bun:test";
import { Webhook } from "standardwebhooks";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeGoogle, ISSUER_ID } from "../google-fake";
import { ROOT, type ServerProcess, startServer } from "./server-process";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 2);
const IN_FLIGHT = 16;
/**
 * Members who have saved their card to Google Wallet; the first EXPIRED_SAVED of them have expired,
 * and the very first one only sees the club's link change, so its card stays EXPIRED.
 */
const SAVED = 8;
const EXPIRED_SAVED = 2;

const dir = mkdtempSync(join(tmpdir(), "club-crash-"));
const dbPath = join(dir, "club.db");
const google = await fakeGoogle();
/** Deliveries the server runs at once (its default): a kill can catch that many answered and not yet recorded. */
const JOB_CONCURRENCY = 8;
const SERVER_ENV = { RATE_LIMIT_PER_MINUTE: "100000000", JOB_CONCURRENCY: String(JOB_CONCURRENCY), WEBHOOK_ALLOW_PRIVATE: "true", ...google.env };
/** The webhook receiver: each verified member.created message, by message id, with the member's email. */
const hooked: { msgId: string; email: string }[] = [];
let hookSecret = "";
const hookReceiver = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const body = await req.text();
    const msg = new Webhook(hookSecret).verify(body, Object.fromEntries(req.headers)) as { data: { email: string } };
    hooked.push({ msgId: req.headers.get("webhook-id") as string, email: msg.data.email });
    return new Response("ok");
  },
});
afterAll(() => {
  hookReceiver.stop(true);
  google.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(google.dir, { recursive: true, force: true });
});

/** A saved card's member as the load sees it: its last acknowledged state, and whether a change is in flight. */
type Saved = {
  id: string;
  serial: string;
  expired: boolean;
  suspended: boolean;
  busy: boolean;
  acked: { status: string; membership_end: string } | null;
};
type Acked = { members: string[]; links: string[]; memberChanges: number };

/** Writes until stopped or the server dies; returns what the server acknowledged. */
function writeLoad(server: ServerProcess, key: string, clubId: string, tag: string, saved: Saved[] = []) {
  const acked: Acked = { members: [], links: [], memberChanges: 0 };
  const sentLinks: string[] = [];
  let stopped = false;
  let n = 0;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  /** Suspends, reactivates or extends a saved member that has no change in flight; false when all are busy. */
  const changeMember = async (): Promise<boolean> => {
    const free = saved.slice(1).filter((m) => !m.busy);
    if (!free.length) return false;
    const m = free[Math.floor(Math.random() * free.length)];
    // An expired member stays expired (suspend/reactivate only), so all three states are delivered.
    const action = m.suspended ? "reactivate" : m.expired || Math.random() < 0.5 ? "suspend" : "extend";
    m.busy = true;
    m.acked = null; // until answered, its state is not known
    const res = await fetch(`${server.base}/api/clubs/${clubId}/members/${m.id}/actions/${action}`, {
      method: "POST",
      headers,
      body: JSON.stringify(action === "extend" ? { extend_months: 1 } : { reason: "crash test" }),
    });
    const body = (await res.json()) as { status: string; membership_end: string };
    if (res.status !== 200) throw new Error(`${action} answered ${res.status}: ${JSON.stringify(body)}`);
    m.suspended = body.status === "suspended";
    m.acked = { status: body.status, membership_end: body.membership_end };
    m.busy = false;
    acked.memberChanges++;
    return true;
  };
  const worker = async () => {
    while (!stopped) {
      const i = n++;
      try {
        if (i % 10 === 9) {
          const link = `https://example.org/${tag}/${i}`;
          sentLinks.push(link);
          const res = await fetch(`${server.base}/api/clubs/${clubId}`, { method: "PUT", headers, body: JSON.stringify({ card_custom_link_url: link }) });
          if (res.status === 200) acked.links.push(link);
          else if (res.status !== 429) throw new Error(`club update answered ${res.status}`);
        } else if ((i % 10 === 2 || i % 10 === 5) && (await changeMember())) {
          // a saved card's member changed
        } else {
          const email = `${tag}-${i}@example.org`;
          const res = await fetch(`${server.base}/api/clubs/${clubId}/members/manual`, {
            method: "POST",
            headers,
            body: JSON.stringify({ first_name: "Crash", last_name: `N${i}`, email, membership_end: "2030-01-01" }),
          });
          if (res.status === 201) acked.members.push(email);
          else throw new Error(`member create answered ${res.status}: ${await res.text()}`);
        }
      } catch (err) {
        // The server died under this request: it was never acknowledged.
        if (stopped || server.proc.exitCode !== null || server.proc.signalCode !== null) return;
        if (err instanceof TypeError || /ECONNRESET|socket|closed|refused/i.test(String(err))) return;
        throw err;
      }
    }
  };
  const done = Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return {
    acked,
    sentLinks,
    async stop() {
      stopped = true;
      await done;
    },
    done,
  };
}

function checkFile(path: string) {
  const db = new Database(path);
  try {
    const integrity = db.query("PRAGMA integrity_check").all() as { integrity_check: string }[];
    const fk = db.query("PRAGMA foreign_key_check").all();
    const emails = new Set((db.query("SELECT email FROM members").all() as { email: string }[]).map((r) => r.email));
    const jobs = db.query("SELECT kind, status, attempts FROM jobs WHERE kind = 'wallet_pass_update'").all() as {
      kind: string;
      status: string;
      attempts: number;
    }[];
    const deliveries = db.query("SELECT id, kind, status, attempts, outcome FROM jobs WHERE kind LIKE 'google_%'").all() as {
      id: string;
      kind: string;
      status: string;
      attempts: number;
      outcome: string | null;
    }[];
    const saved = db.query("SELECT id, pass_serial_number, payment_status, membership_end FROM members WHERE has_wallet_b = 1").all() as {
      id: string;
      pass_serial_number: string;
      payment_status: string;
      membership_end: string;
    }[];
    const link = (db.query("SELECT card_custom_link_url AS link FROM clubs").get() as { link: string | null }).link;
    const hooks = db.query("SELECT status, attempts FROM webhook_deliveries").all() as { status: string; attempts: number }[];
    // Events not yet fanned out to their deliveries (lib/webhooks/emit): still to go, and one a
    // killed server had claimed too (running until its lease lapses, then taken over).
    const events = db.query("SELECT status FROM jobs WHERE kind = 'webhook_fanout' AND status IN ('pending', 'running')").all() as { status: string }[];
    const counts = Object.fromEntries(
      ["members", "member_history", "audit_log", "jobs", "api_keys", "clubs"].map((t) => [
        t,
        (db.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n,
      ]),
    );
    // A member without its creation history row would be half a transaction.
    const orphans = (
      db.query("SELECT count(*) AS n FROM members m WHERE NOT EXISTS (SELECT 1 FROM member_history h WHERE h.member_id = m.id)").get() as { n: number }
    ).n;
    return { integrity: integrity.map((r) => r.integrity_check).join(","), fk, emails, jobs, deliveries, saved, link, counts, orphans, hooks, events };
  } finally {
    db.close();
  }
}

/** What Google should show for a member row: its state, end date, and the club's link. */
function expectedObject(m: { payment_status: string; membership_end: string }, link: string | null, today: string) {
  const state = m.payment_status !== "paid" ? "INACTIVE" : m.membership_end < today ? "EXPIRED" : "ACTIVE";
  return { state, end: `${m.membership_end}T23:59:59Z`, link };
}

/** Members who save their card to Google Wallet (GET /c/<serial>/google answers 302 and sets has_wallet_b). */
async function saveCards(server: ServerProcess, key: string, clubId: string): Promise<Saved[]> {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const saved: Saved[] = [];
  for (let i = 0; i < SAVED; i++) {
    const expired = i < EXPIRED_SAVED;
    let member: { id: string; pass_serial_number: string };
    if (expired) {
      // A membership that ended in the past comes from a spreadsheet (manual create starts today).
      const csv = `first_name,last_name,email,membership_start,membership_end\nWallet,W${i},wallet-${i}@example.org,2019-01-02,2020-01-01\n`;
      const imported = await fetch(`${server.base}/api/clubs/${clubId}/members/import`, {
        method: "POST",
        headers: { ...headers, "content-type": "text/csv" },
        body: csv,
      });
      expect(((await imported.json()) as { created: number }).created).toBe(1);
      const found = await fetch(`${server.base}/api/clubs/${clubId}/members?status=all&search=wallet-${i}@`, { headers });
      [member] = ((await found.json()) as { items: (typeof member)[] }).items;
    } else {
      const res = await fetch(`${server.base}/api/clubs/${clubId}/members/manual`, {
        method: "POST",
        headers,
        body: JSON.stringify({ first_name: "Wallet", last_name: `W${i}`, email: `wallet-${i}@example.org`, membership_end: "2030-01-01" }),
      });
      expect(res.status).toBe(201);
      const created = (await res.json()) as typeof member & { wallet_urls: { google: string | null } };
      expect(created.wallet_urls.google).toEndWith(`/c/${created.pass_serial_number}/google`);
      member = created;
    }
    const save = await fetch(`${server.base}/c/${member.pass_serial_number}/google`, { redirect: "manual" });
    expect(save.status).toBe(302);
    saved.push({ id: member.id, serial: member.pass_serial_number, expired, suspended: false, busy: false, acked: null });
  }
  return saved;
}

it(`${ROUNDS} rounds of kill -9 under write load: no acknowledged write lost, integrity ok, jobs resumed and done once, no wallet delivery lost`, async () => {
  let server = await startServer(dbPath, SERVER_ENV);
  const key = server.key as string;
  const clubId = server.clubId as string;
  expect(key).toMatch(/^mk_live_/);
  const allMembers: string[] = [];
  let links = 0;
  let memberChanges = 0;
  let lastLinks: string[] = [];
  try {
    const hook = await fetch(`${server.base}/api/clubs/${clubId}/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `http://127.0.0.1:${hookReceiver.port}/hook`, events: ["member.created"] }),
    });
    expect(hook.status).toBe(201);
    hookSecret = ((await hook.json()) as { secret: string }).secret;
    const saved = await saveCards(server, key, clubId);
    // A first link, so every saved card has had a delivery even if the first kill comes early.
    const first = await fetch(`${server.base}/api/clubs/${clubId}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ card_custom_link_url: "https://example.org/first" }),
    });
    expect(first.status).toBe(200);
    lastLinks = ["https://example.org/first"];
    links++;
    for (let round = 0; round < ROUNDS; round++) {
      // What the load knows of the saved members: the database's state (a change may have been in flight at the kill).
      const known = new Map(checkFile(dbPath).saved.map((m) => [m.id, m]));
      for (const m of saved) {
        m.suspended = known.get(m.id)?.payment_status === "suspended";
        m.busy = false;
        m.acked = null;
      }
      const load = writeLoad(server, key, clubId, `r${round}`, saved);
      // A random moment during 1,000 writes: once a random number of them has been acknowledged.
      const killAt = 1 + Math.floor(Math.random() * 1000);
      const deadline = Date.now() + 30_000;
      const acks = () => load.acked.members.length + load.acked.links.length + load.acked.memberChanges;
      while (acks() < killAt && Date.now() < deadline) await Bun.sleep(2);
      await server.kill9();
      await load.stop();
      allMembers.push(...load.acked.members);
      links += load.acked.links.length;
      memberChanges += load.acked.memberChanges;
      if (load.sentLinks.length) lastLinks = load.sentLinks;
      const after = checkFile(dbPath);
      expect(after.integrity).toBe("ok");
      expect(after.fk).toEqual([]);
      expect(after.orphans).toBe(0);
      const lost = allMembers.filter((e) => !after.emails.has(e));
      // Every acknowledged change of a saved member is in the database (unless a later one was in flight).
      const rows = new Map(after.saved.map((m) => [m.id, m]));
      const lostChanges = saved.filter((m) => {
        const row = rows.get(m.id);
        if (!m.acked || !row) return !row;
        return (m.acked.status === "suspended") !== (row.payment_status === "suspended") || m.acked.membership_end !== row.membership_end;
      });
      console.log(
        `crash round ${round + 1}/${ROUNDS}: killed after ${killAt} acknowledged writes; ${acks()} acknowledged in all (${load.acked.memberChanges} saved-card member changes, ${load.acked.links.length} link changes), ${lost.length + lostChanges.length} lost; jobs pending ${after.jobs.filter((j) => j.status === "pending").length}, deliveries pending ${after.deliveries.filter((j) => j.status === "pending").length}`,
      );
      expect(lost).toEqual([]);
      expect(lostChanges.map((m) => m.id)).toEqual([]);
      // The club's link is one that was sent (an acknowledged one, or one in flight at the kill).
      expect(lastLinks).toContain(after.link as string);
      // Every acknowledged club update queued its job, in the same transaction.
      expect(after.jobs.length).toBeGreaterThanOrEqual(links);
      server = await startServer(dbPath, SERVER_ENV);
    }
    // After the last restart the worker picks the queued jobs up, and their deliveries: each ends done.
    const deadline = Date.now() + 60_000;
    let end = checkFile(dbPath);
    const open = (f: typeof end) =>
      [...f.jobs, ...f.deliveries, ...f.events].filter((j) => j.status !== "done").concat(f.hooks.filter((h) => h.status !== "succeeded") as never[]);
    while (open(end).length && Date.now() < deadline) {
      await Bun.sleep(250);
      end = checkFile(dbPath);
    }
    expect(open(end)).toEqual([]);
    // Each update job fanned out once (its fan-out and its completion are one transaction).
    expect(end.jobs.filter((j) => j.attempts !== 1)).toEqual([]);

    // No delivery lost: each done delivery job was answered 2xx by the fake, and the fake holds,
    // for every saved card, the member's final state, end date and the club's final link.
    const answered = google.requests.filter((r) => r.status >= 200 && r.status < 300);
    const byDelivery = new Map<string, number>();
    for (const r of answered) if (r.deliveryId) byDelivery.set(r.deliveryId, (byDelivery.get(r.deliveryId) ?? 0) + 1);
    const neverDelivered = end.deliveries.filter((j) => !byDelivery.has(j.id));
    expect(neverDelivered).toEqual([]);
    expect(end.deliveries.filter((j) => j.outcome !== "HTTP 200")).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const shown = end.saved.map((m) => {
      const obj = google.object(`${ISSUER_ID}.${m.pass_serial_number}`);
      return {
        id: m.id,
        got: obj ? { state: obj.state, end: obj.validTimeInterval?.end?.date, link: obj.linksModuleData?.uris?.[0]?.uri ?? null } : null,
        want: expectedObject(m, end.link, today),
      };
    });
    expect(end.saved).toHaveLength(SAVED);
    const stale = shown.filter((s) => JSON.stringify(s.got) !== JSON.stringify(s.want));
    expect(stale).toEqual([]);
    // And the acknowledged changes are what the database ended with (the fake matches both).
    for (const m of saved) {
      const row = end.saved.find((r) => r.id === m.id);
      if (m.acked && row) expect(expectedObject(row, null, today).end).toBe(`${m.acked.membership_end}T23:59:59Z`);
    }
    // Webhooks: every acknowledged member was announced (signature verified), none lost.
    const announced = new Set(hooked.map((h) => h.email));
    const unannounced = allMembers.filter((e) => !announced.has(e));
    const hookRepeats = hooked.length - new Set(hooked.map((h) => h.msgId)).size;
    console.log(
      `crash: webhooks: ${end.hooks.length} deliveries all succeeded, ${announced.size} members announced, ${unannounced.length} of ${allMembers.length} acknowledged lost, ${hookRepeats} repeated`,
    );
    expect(unannounced).toEqual([]);
    expect(end.hooks.length).toBeGreaterThanOrEqual(allMembers.length);
    expect(hookRepeats).toBeLessThanOrEqual(ROUNDS * JOB_CONCURRENCY);
    const states = new Set(shown.map((s) => s.want.state));
    expect(states.has("EXPIRED")).toBe(true);
    expect(google.klass(`${ISSUER_ID}.club-${clubId.replace(/-/g, "")}`)).toBeDefined();

    // At least once: a delivery answered twice is one the far end answered just before a kill
    // (up to JOB_CONCURRENCY of them in flight at that moment).
    const repeated = [...byDelivery.values()].reduce((sum, n) => sum + n - 1, 0);
    console.log(
      `crash: ${ROUNDS} rounds, ${allMembers.length + links + memberChanges} writes acknowledged (${memberChanges} saved-card member changes, ${links} link changes), 0 lost; ${end.jobs.length} wallet jobs each done once; ${end.deliveries.length} Google deliveries (${SAVED} saved cards, states ${[...states].join("/")}) all done, ${stale.length} lost, ${repeated} repeated (at most ${ROUNDS * JOB_CONCURRENCY} allowed)`,
    );
    expect(repeated).toBeLessThanOrEqual(ROUNDS * JOB_CONCURRENCY);
  } finally {
    await server.stop();
  }
}, 900_000);

it("an online backup taken under write load restores to a consistent database", async () => {
  const server = await startServer(dbPath, SERVER_ENV);
  // The first start printed its key in the other test; this one makes its own with the CLI.
  const created = Bun.spawnSync(["bun", "scripts/cli.ts", "keys", "create", "--email", "owner@example.org", "--json"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: dbPath },
  });
  const apiKey = (JSON.parse(created.stdout.toString()) as { api_key: string }).api_key;
  const me = (await (await fetch(`${server.base}/api/auth/me`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as { club_id: string };
  const before = checkFile(dbPath).counts.members;
  const load = writeLoad(server, apiKey, me.club_id, "backup");
  try {
    await Bun.sleep(500);
    const target = join(dir, "backup.db");
    const backup = Bun.spawnSync(["bun", "run", "cli", "backup", target, "--json"], { cwd: ROOT, env: { ...process.env, DATABASE_URL: dbPath } });
    expect(backup.exitCode).toBe(0);
    await Bun.sleep(300);
    await load.stop();
    const during = load.acked.members.length;
    const copy = checkFile(target);
    const live = checkFile(dbPath);
    expect(copy.integrity).toBe("ok");
    expect(copy.fk).toEqual([]);
    // The copy is one moment of the live database: between what was there before and after.
    expect(copy.counts.members).toBeGreaterThanOrEqual(before);
    expect(copy.counts.members).toBeLessThanOrEqual(live.counts.members);
    expect(copy.orphans).toBe(0);
    console.log(
      `backup under load: ${during} writes acknowledged meanwhile; members before ${before}, in the copy ${copy.counts.members}, live ${live.counts.members}`,
    );
  } finally {
    await server.stop();
  }
}, 120_000);
