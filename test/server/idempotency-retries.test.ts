// Idempotency-Key against the real server (`bun server/index.ts`) over HTTP: 20 retries of one
// key sent at once record exactly one payment (counted in the database file); and after a kill -9,
// a key the dead process left running is taken over by the restarted server, not 409 for ever.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { sha256Hex } from "../../lib/idempotency";
import { addDays, todayUtc } from "../members-fixtures";
import { type ServerProcess, startServer } from "../reliability/server-process";

const dir = mkdtempSync(join(tmpdir(), "club-idempotency-"));
const dbPath = join(dir, "club.db");
const ENV = { RATE_LIMIT_PER_MINUTE: "1000000", OUTBOX_DIR: join(dir, "outbox") };
let server: ServerProcess;
let key: string;
let clubId: string;

beforeAll(async () => {
  server = await startServer(dbPath, ENV);
  key = server.key as string;
  clubId = server.clubId as string;
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const count = (sql: string, ...params: string[]) => {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.query(sql).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
};
const membersWith = (email: string) => count("SELECT count(*) AS n FROM members WHERE email = ?", email);

function post(body: string, idempotencyKey: string) {
  return fetch(`${server.base}/api/clubs/${clubId}/members/manual`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": idempotencyKey },
    body,
  });
}

const member = (email: string) => JSON.stringify({ first_name: "Rita", last_name: "Retry", email, membership_end: addDays(todayUtc(), 100) });

it("20 concurrent retries of one key: exactly one payment; each answer is the one 200, its replay, or 409 IN_USE", async () => {
  const created = await post(member("rita.retry@test.org"), "create-rita");
  expect(created.status).toBe(201);
  const memberId = ((await created.json()) as { id: string }).id;
  const payments = () => count("SELECT count(*) AS n FROM payments WHERE member_id = ?", memberId);
  const before = payments();
  const pay = () =>
    fetch(`${server.base}/api/clubs/${clubId}/members/${memberId}/actions/mark-paid`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": "twenty-at-once" },
      body: JSON.stringify({ amount_cents: 4200, reason: "Paid at the desk" }),
    });
  const answers = await Promise.all(
    Array.from({ length: 20 }, async () => {
      const res = await pay();
      return { status: res.status, replayed: res.headers.get("idempotent-replayed"), text: await res.text() };
    }),
  );
  expect(payments()).toBe(before + 1);
  const ran = answers.filter((a) => a.status === 200 && a.replayed === null);
  expect(ran.length).toBe(1);
  for (const a of answers) {
    if (a.status === 200) expect(a.text).toBe(ran[0].text);
    else expect([a.status, JSON.parse(a.text).code]).toEqual([409, "IDEMPOTENCY_KEY_IN_USE"]);
  }
  const later = await pay();
  expect([later.status, later.headers.get("idempotent-replayed"), await later.text()]).toEqual([200, "true", ran[0].text]);
  expect(payments()).toBe(before + 1);
});

it("after a kill -9, a key the dead process left running is taken over by the restarted server", async () => {
  const deadPid = server.proc.pid;
  await server.kill9();
  const body = member("after.crash@test.org");
  // What the killed server leaves when it dies between claiming the key and answering.
  const db = new Database(dbPath);
  const keyId = (db.query("SELECT id FROM api_keys ORDER BY created_at LIMIT 1").get() as { id: string }).id;
  db.query("INSERT INTO idempotency_keys (owner, key, club_id, method, path, request_hash, locked_by, created_at) VALUES (?, ?, ?, 'POST', ?, ?, ?, ?)").run(
    `key:${keyId}`,
    "left-running",
    clubId,
    `/api/clubs/${clubId}/members/manual`,
    sha256Hex(body),
    `${hostname()}/${deadPid}/killed`,
    new Date().toISOString(),
  );
  db.close();
  server = await startServer(dbPath, ENV);
  const res = await post(body, "left-running");
  expect(res.status).toBe(201);
  expect(membersWith("after.crash@test.org")).toBe(1);
  // And the kept answers of before the kill still replay.
  const before = await post(member("rita.retry@test.org"), "create-rita");
  expect([before.status, before.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
  // A purge is queued at start.
  expect(count("SELECT count(*) AS n FROM jobs WHERE kind = 'idempotency.purge' AND status = 'pending'")).toBe(1);
});
