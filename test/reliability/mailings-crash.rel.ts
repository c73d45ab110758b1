// A mailing across kill -9 (issue 29): the real server mails 80 members through a real SMTP
// server and is killed with SIGKILL while it sends, then started again. After the restart the
// mailing ends `sent`, no member got it twice, and its counts add up: every recipient is `sent`
// or `failed`, the failed ones being at most the one the killed process had claimed and not
// recorded (it may or may not have left: lib/mailings/send.ts records it failed rather than
// mailing it again).
import { afterAll, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSmtp } from "../smtp";
import { startServer } from "./server-process";

const MEMBERS = 80;
const dir = mkdtempSync(join(tmpdir(), "club-mailings-crash-"));
const dbPath = join(dir, "club.db");
const smtp = await startSmtp();
afterAll(async () => {
  await smtp.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The addressees of the mailing's mails (a mailing mail carries List-Unsubscribe-Post; the card mails do not). */
const mailed = () => smtp.inbox.filter((m) => /^List-Unsubscribe-Post:/im.test(m.raw)).flatMap((m) => m.to);

async function until(what: string, done: () => boolean | Promise<boolean>, ms = 90_000) {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}

it(`a mailing to ${MEMBERS} members, its server killed with SIGKILL while sending: nobody mailed twice, the counts add up`, async () => {
  // A pace the mail server sets, not the limit: the kill must find the run in the middle.
  const env = { SMTP_URL: smtp.url, RATE_LIMIT_PER_MINUTE: "100000000", MAIL_RATE_PER_MINUTE: "60000", LOG_LEVEL: "warn" };
  let server = await startServer(dbPath, env);
  // Only the first start, which made the club, prints its key.
  const { clubId, key } = server as { clubId: string; key: string };
  const base = `${server.base}/api/clubs/${clubId}`;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  for (let i = 0; i < MEMBERS; i++) {
    const res = await fetch(`${base}/members/manual`, {
      method: "POST",
      headers,
      body: JSON.stringify({ first_name: "Mia", last_name: `N${i}`, email: `mia${i}@example.org`, membership_end: "2031-12-31" }),
    });
    expect(res.status).toBe(201);
  }
  const draft = await fetch(`${base}/mailings`, {
    method: "POST",
    headers,
    body: JSON.stringify({ subject: "Lettre", body_markdown: "Bonjour {{first_name}}" }),
  });
  const id = ((await draft.json()) as { id: string }).id;
  const sent = await fetch(`${base}/mailings/${id}/actions/send`, { method: "POST", headers });
  expect(sent.status).toBe(200);

  await until("the first mails", () => mailed().length >= MEMBERS / 4);
  await server.kill9();
  const beforeRestart = mailed().length;
  server = await startServer(dbPath, env);
  const read = async () =>
    (await (await fetch(`${server.base}/api/clubs/${clubId}/mailings/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      status: string;
      counts: { recipients: number; sent: number; failed: number; bounced: number; skipped_opt_out: number };
    };
  // The killed run's job waits out its lease (30 s), a recipient it held its claim (2 min): a busy machine adds to both.
  await until("the mailing's end", async () => (await read()).status === "sent", 240_000);
  const { counts } = await read();
  await server.stop();

  const times = new Map<string, number>();
  for (const to of mailed()) times.set(to, (times.get(to) ?? 0) + 1);
  console.log(`mailing: ${mailed().length} mails for ${times.size} members (${beforeRestart} before the kill); counts ${JSON.stringify(counts)}`);
  expect(Math.max(...times.values())).toBe(1);
  expect(counts.recipients).toBe(MEMBERS);
  expect(counts.sent + counts.failed + counts.bounced + counts.skipped_opt_out).toBe(MEMBERS);
  expect(counts.failed).toBeLessThanOrEqual(1);
  // A failed one may have left before the kill (answered by SMTP, not yet recorded).
  expect(times.size).toBeGreaterThanOrEqual(counts.sent);
  expect(times.size).toBeLessThanOrEqual(counts.sent + counts.failed);
}, 400_000);
