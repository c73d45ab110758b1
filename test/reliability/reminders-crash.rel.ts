// Reminders across kill -9 (issue 14): a club whose members all reach their renewal reminder day,
// a reminder run (`bun run cli reminders run`) killed with SIGKILL part-way, run again, then the
// real server sending the queued mails to a real SMTP server and killed with SIGKILL while it
// sends. After the restart every member has had the reminder, a later run queues nothing, the
// database holds one reminder (and one mail job) per member, and a mail went out twice at most
// for the deliveries the killed server had in hand (answered by SMTP, not yet recorded: the
// at-least-once window of every mail job, docs/decisions.md).
import { Database } from "bun:sqlite";
import { afterAll, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSmtp } from "../smtp";
import { ROOT, startServer } from "./server-process";

const MEMBERS = 120;
/** Mails the server sends at once (its default job concurrency): what one kill can catch in hand. */
const JOB_CONCURRENCY = 8;
const dir = mkdtempSync(join(tmpdir(), "club-reminders-crash-"));
const dbPath = join(dir, "club.db");
const smtp = await startSmtp();
afterAll(async () => {
  await smtp.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]) {
  return Bun.spawn(["bun", "scripts/cli.ts", ...args, "--json"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: dbPath, SMTP_URL: smtp.url },
    stdout: "pipe",
    stderr: "pipe",
  });
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const recipients = () => smtp.inbox.flatMap((m) => m.to);

/** How many jobs of `kind` are in `status` (pending: not yet done, claimed or not). */
function jobsIn(kind: string, status: "pending" | "done"): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.query<{ n: number }, [string, string]>("SELECT count(*) AS n FROM jobs WHERE kind = ? AND status = ?").get(kind, status)?.n ?? 0;
  } finally {
    db.close();
  }
}

/** What the mail queue holds, for a timeout's message: a failure in CI says why, not only that. */
function queueState(): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db
      .query(
        "SELECT status, count(*) AS n, max(attempts) AS attempts, min(run_after) AS run_after, max(lease_until) AS lease_until, max(last_error) AS last_error FROM jobs WHERE kind = 'mail' GROUP BY status",
      )
      .all();
    return `${JSON.stringify(rows)}; ${new Set(recipients()).size} members received; now ${new Date().toISOString()}`;
  } finally {
    db.close();
  }
}

async function until(what: string, done: () => boolean, ms = 90_000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${queueState()}`);
    await Bun.sleep(50);
  }
}

it(`a reminder run and the mail queue killed with SIGKILL: each of ${MEMBERS} members reminded, none queued twice`, async () => {
  const env = { SMTP_URL: smtp.url, RATE_LIMIT_PER_MINUTE: "100000000", JOB_CONCURRENCY: String(JOB_CONCURRENCY), LOG_LEVEL: "warn" };
  let server = await startServer(dbPath, env);
  const clubId = server.clubId as string;
  const base = `${server.base}/api/clubs/${clubId}`;
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  // The server's own reminder run at its first start, done before any member exists: late on a
  // busy machine, it would remind members mid-creation, and the clearing below would lose those mails.
  await until("the server's first reminder run", () => jobsIn("reminders_run", "done") > 0);
  // Every member ends in 7 days: the club's default reminder days are 30 and 7, so the 7-day one is due today.
  for (let i = 0; i < MEMBERS; i++) {
    const res = await fetch(`${base}/members/manual`, {
      method: "POST",
      headers,
      body: JSON.stringify({ first_name: "Rémi", last_name: `N${i}`, email: `r${i}@example.org`, membership_end: day(7) }),
    });
    expect(res.status).toBe(201);
  }
  // The card mails of the creates are not what is counted here: each sent, then forgotten.
  await until("the card mails", () => jobsIn("member.card_email", "pending") === 0 && jobsIn("mail", "pending") === 0);
  smtp.inbox.length = 0;

  // 1. A run killed part-way: whatever it committed stays, nothing is half done.
  const killed = cli(["reminders", "run", "--club", clubId]);
  await Bun.sleep(150 + Math.floor(Math.random() * 200));
  killed.kill("SIGKILL");
  await killed.exited;
  // 2. Run again: it queues what the killed run had not.
  const again = cli(["reminders", "run", "--club", clubId]);
  expect(await again.exited).toBe(0);

  // 3. The server sends; killed with SIGKILL while it does, then started again.
  await until("the first mails", () => recipients().length >= MEMBERS / 4);
  await server.kill9();
  const beforeRestart = recipients().length;
  server = await startServer(dbPath, env);
  // The mails the killed server had claimed wait out their lease (30 s, lib/jobs) first; a busy machine adds to it.
  await until("every member's reminder", () => new Set(recipients()).size >= MEMBERS, 180_000);
  await Bun.sleep(1_000);

  // 4. A later run finds nothing left to send.
  const later = cli(["reminders", "run", "--club", clubId]);
  expect(await later.exited).toBe(0);
  expect(JSON.parse(await new Response(later.stdout).text())).toMatchObject({ sent: 0 });
  await server.stop();

  const counts = new Map<string, number>();
  for (const to of recipients()) counts.set(to, (counts.get(to) ?? 0) + 1);
  const twice = [...counts.values()].filter((n) => n > 1).length;
  console.log(`reminder mails: ${recipients().length} for ${counts.size} members (${beforeRestart} before the kill), ${twice} sent twice`);
  expect(counts.size).toBe(MEMBERS);
  expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
  expect(twice).toBeLessThanOrEqual(JOB_CONCURRENCY);

  const db = new Database(dbPath, { readonly: true });
  try {
    // One row per member and reminder day reached (30 and 7: the 7-day reminder marks the missed 30-day one), one mail job each.
    const sent = db
      .query<{ n: number; subjects: number }, []>("SELECT count(*) AS n, count(DISTINCT subject_id) AS subjects FROM reminders_sent WHERE kind = 'renewal'")
      .get();
    expect(sent).toEqual({ n: 2 * MEMBERS, subjects: MEMBERS });
    expect(db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE kind = 'mail'").get()?.n).toBe(MEMBERS);
    const unfinished = db.query<{ n: number }, []>("SELECT count(*) AS n FROM jobs WHERE kind = 'mail' AND status != 'done'").get();
    expect(unfinished?.n).toBe(0);
    expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check).toBe("ok");
  } finally {
    db.close();
  }
}, 300_000);
