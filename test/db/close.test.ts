// A clean close leaves the database file complete on its own: what was committed is in it, not
// only in the -wal file beside it (a copy of club.db after a stop is a whole database).
import { afterEach, expect, it } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { auditLog } from "../../db/schema";
import { onPostgres } from "../databases";

const dir = mkdtempSync(join(tmpdir(), "club-db-close-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it.skipIf(onPostgres)("close() checkpoints the WAL: a copy of the database file alone holds every committed row", async () => {
  const path = join(dir, "club.db");
  const db = await openDb(path);
  const now = new Date().toISOString();
  await db.tx((t) =>
    t.insert(auditLog).values({ id: "a1", club_id: "c", method: "GET", path: "/x", status: 200, duration_ms: 1, via: "http", created_at: now }),
  );
  // Reads through the prepared-statement cache: the case where a lazy close skipped the checkpoint.
  expect(await db.read.select().from(auditLog)).toHaveLength(1);
  db.close();
  const copy = join(dir, "copy.db");
  copyFileSync(path, copy);
  const again = await openDb(copy);
  expect((await again.read.select().from(auditLog)).map((r) => r.id)).toEqual(["a1"]);
  again.close();
});
