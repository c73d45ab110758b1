// Crashes (issue 6, item 4): the real server on a temp database, writes with many in flight
// (member creates, and club updates whose new card link queues a wallet pass update job), killed
// with SIGKILL at a random moment. After each kill: `PRAGMA integrity_check` is ok and every
// acknowledged write is there. After each restart the queued jobs resume, and at the end each one
// is done exactly once. Then an online backup (`bun run cli backup`) taken under write load
// restores to a consistent database. CRASH_ROUNDS (default 2; README: 20) sets the rounds.
import { Database } from "bun:sqlite";
import { afterAll, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, type ServerProcess, startServer } from "./server-process";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 2);
const IN_FLIGHT = 16;

const dir = mkdtempSync(join(tmpdir(), "club-crash-"));
const dbPath = join(dir, "club.db");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Acked = { members: string[]; links: string[] };

/** Writes until stopped or the server dies; returns what the server acknowledged. */
function writeLoad(server: ServerProcess, key: string, clubId: string, tag: string) {
  const acked: Acked = { members: [], links: [] };
  let stopped = false;
  let n = 0;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const worker = async () => {
    while (!stopped) {
      const i = n++;
      try {
        if (i % 10 === 9) {
          const link = `https://example.org/${tag}/${i}`;
          const res = await fetch(`${server.base}/api/clubs/${clubId}`, { method: "PUT", headers, body: JSON.stringify({ card_custom_link_url: link }) });
          if (res.status === 200) acked.links.push(link);
          else if (res.status !== 429) throw new Error(`club update answered ${res.status}`);
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
    return { integrity: integrity.map((r) => r.integrity_check).join(","), fk, emails, jobs, counts, orphans };
  } finally {
    db.close();
  }
}

it(`${ROUNDS} rounds of kill -9 under write load: no acknowledged write lost, integrity ok, jobs resumed and done once`, async () => {
  let server = await startServer(dbPath, { RATE_LIMIT_PER_MINUTE: "100000000" });
  const key = server.key as string;
  const clubId = server.clubId as string;
  expect(key).toMatch(/^mk_live_/);
  const allMembers: string[] = [];
  let links = 0;
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const load = writeLoad(server, key, clubId, `r${round}`);
      // A random moment during 1,000 writes: once a random number of them has been acknowledged.
      const killAt = 1 + Math.floor(Math.random() * 1000);
      const deadline = Date.now() + 30_000;
      while (load.acked.members.length + load.acked.links.length < killAt && Date.now() < deadline) await Bun.sleep(2);
      await server.kill9();
      await load.stop();
      allMembers.push(...load.acked.members);
      links += load.acked.links.length;
      const after = checkFile(dbPath);
      expect(after.integrity).toBe("ok");
      expect(after.fk).toEqual([]);
      expect(after.orphans).toBe(0);
      const lost = allMembers.filter((e) => !after.emails.has(e));
      console.log(
        `crash round ${round + 1}/${ROUNDS}: killed after ${killAt} acknowledged writes; ${load.acked.members.length + load.acked.links.length} acknowledged in all, ${lost.length} lost; jobs pending ${after.jobs.filter((j) => j.status === "pending").length}`,
      );
      expect(lost).toEqual([]);
      // Every acknowledged club update queued its job, in the same transaction.
      expect(after.jobs.length).toBeGreaterThanOrEqual(links);
      server = await startServer(dbPath, { RATE_LIMIT_PER_MINUTE: "100000000" });
    }
    // After the last restart the worker picks the queued jobs up: each ends done, after one attempt.
    const deadline = Date.now() + 30_000;
    let jobs = checkFile(dbPath).jobs;
    while (jobs.some((j) => j.status !== "done") && Date.now() < deadline) {
      await Bun.sleep(500);
      jobs = checkFile(dbPath).jobs;
    }
    expect(jobs.filter((j) => j.status !== "done")).toEqual([]);
    expect(jobs.filter((j) => j.attempts !== 1)).toEqual([]);
    console.log(`crash: ${ROUNDS} rounds, ${allMembers.length + links} writes acknowledged, 0 lost, ${jobs.length} wallet jobs each done once`);
  } finally {
    await server.stop();
  }
}, 600_000);

it("an online backup taken under write load restores to a consistent database", async () => {
  const server = await startServer(dbPath, { RATE_LIMIT_PER_MINUTE: "100000000" });
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
