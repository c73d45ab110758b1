// A graceful stop (issue 18, item 7): SIGTERM sent to the real server while 24 clients keep
// requests in flight (reads and writes, on kept-alive connections). Every request sent before the
// signal is answered or, on a new connection, refused (never reset); one sent after it may find
// the server gone (refused, or reset by the closing listener before the server took it), but every
// request the server took was answered: the audit log, whose row each keyed request writes just
// before its answer leaves, holds exactly as many rows as the clients got answers. The process
// exits 0, every acknowledged write is in the file, and the database was closed cleanly: the
// WAL is checkpointed into the file (no -wal content left) and it passes `integrity_check`.
import { Database } from "bun:sqlite";
import { afterAll, expect, it } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../reliability/server-process";

const dir = mkdtempSync(join(tmpdir(), "club-stop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const described = (err: unknown) => `${(err as { code?: string }).code} ${String(err)}`;
/** A connection refused: the server had stopped listening, it never took the request. */
const refused = (err: unknown) => /ECONNREFUSED|ConnectionRefused|Unable to connect/i.test(described(err));
const reset = (err: unknown) => /ECONNRESET|closed unexpectedly/i.test(described(err));

it("SIGTERM under load: every request sent before it, and every request taken, is answered; exit 0; the WAL is checkpointed", async () => {
  const dbPath = join(dir, "club.db");
  const server = await startServer(dbPath, { RATE_LIMIT_PER_MINUTE: "100000000" });
  const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  const answered: Record<string, number> = {};
  const failures: string[] = [];
  const created: string[] = [];
  let sent = 0;
  let signalled = false;
  let markSignalReady!: () => void;
  const readyToSignal = new Promise<void>((resolve) => {
    markSignalReady = resolve;
  });
  const worker = async (w: number) => {
    for (let i = 0; ; i++) {
      const n = sent++;
      const before = !signalled;
      if (n === 400) markSignalReady();
      try {
        let res: Response;
        if (i % 2) {
          const email = `stop-${w}-${i}@example.org`;
          res = await fetch(`${server.base}/api/clubs/${server.clubId}/members/manual`, {
            method: "POST",
            headers,
            body: JSON.stringify({ first_name: "Stop", last_name: `W${w}`, email, membership_end: "2030-01-01" }),
          });
          if (res.status === 201) created.push(email);
        } else res = await fetch(`${server.base}/api/auth/me`, { headers });
        await res.arrayBuffer();
        answered[res.status] = (answered[res.status] ?? 0) + 1;
      } catch (err) {
        // After the signal the server may be gone; before it, a new connection may still come too late.
        if (refused(err) || (!before && reset(err))) return;
        failures.push(String(err));
        if (failures.length > 20) return;
      }
    }
  };
  const load = Promise.all(Array.from({ length: 24 }, (_, w) => worker(w)));
  await readyToSignal;
  signalled = true;
  server.proc.kill("SIGTERM");
  const code = await server.proc.exited;
  await load;

  expect(failures).toEqual([]);
  expect(code).toBe(0);
  // Only answers of a working server: nothing cut short into a 5xx.
  expect(Object.keys(answered).sort()).toEqual(["200", "201"]);
  expect(existsSync(`${dbPath}-wal`) ? statSync(`${dbPath}-wal`).size : 0).toBe(0);
  const db = new Database(dbPath);
  try {
    expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    const stored = new Set((db.query("SELECT email FROM members").all() as { email: string }[]).map((r) => r.email));
    expect(created.filter((e) => !stored.has(e))).toEqual([]);
    expect(created.length).toBeGreaterThan(0);
    const audited = (db.query("SELECT count(*) AS n FROM audit_log").get() as { n: number }).n;
    expect(audited).toBe(Object.values(answered).reduce((a, b) => a + b, 0));
  } finally {
    db.close();
  }
});
