// `Db.othersWrote()` is how an import in one process learns that another process (a server
// beside the CLI) uses the database too, and starts sharing it (lib/members/import-journal `pace`).
import { Database } from "bun:sqlite";
import { afterAll, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { auditLog } from "../../db/schema";
import { onPostgres } from "../databases";

const dir = mkdtempSync(join(tmpdir(), "club-db-others-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (id: string) => ({ id, club_id: "c", method: "GET", path: "/x", status: 200, duration_ms: 1, via: "http", created_at: new Date().toISOString() });

// SQLite only: PostgreSQL writers never wait on one another (Db.othersWrote is false there).
it.skipIf(onPostgres)("tells another connection's commit, once, and never this Db's own writes", async () => {
  const path = join(dir, "club.db");
  const db = await openDb(path);
  try {
    expect(db.othersWrote()).toBe(false);
    await db.tx((t) => t.insert(auditLog).values(row("own")));
    expect(db.othersWrote()).toBe(false);
    const other = new Database(path);
    try {
      other.exec("PRAGMA busy_timeout = 5000");
      other
        .query("INSERT INTO audit_log (id, club_id, method, path, status, duration_ms, via, created_at) VALUES ('other', 'c', 'GET', '/x', 200, 1, 'http', ?)")
        .run(new Date().toISOString());
    } finally {
      other.close();
    }
    expect(db.othersWrote()).toBe(true);
    expect(db.othersWrote()).toBe(false);
  } finally {
    db.close();
  }
});
