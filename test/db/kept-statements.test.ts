// SQLite keeps its compiled statements per connection (db/sqlite.ts keptStatements): the same SQL
// text gets the same statement back, at most 512 are kept (the least recently used dropped), and
// a bound LIMIT is written so that it does not make the statement expire.
import { afterAll, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { onPostgres } from "../databases";

const dir = mkdtempSync(join(tmpdir(), "kept-statements-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it.skipIf(onPostgres)("gives the same compiled statement for the same SQL text, keeps 512, and answers as before", async () => {
  const db = await openDb(join(dir, "club.db"));
  try {
    const conn = db.raw;
    const first = conn.prepare("select ? + 1 as n limit ?");
    expect(conn.prepare("select ? + 1 as n limit ?")).toBe(first);
    expect(first.get(41, 1)).toEqual({ n: 42 });
    // 512 other texts later, the first was the least recently used: compiled anew.
    for (let i = 0; i < 512; i++) conn.prepare(`select ${i} as n`);
    const again = conn.prepare("select ? + 1 as n limit ?");
    expect(again).not.toBe(first);
    expect(again.get(1, 1)).toEqual({ n: 2 });
    // A statement used meanwhile stays: the most recent of the 512 is still the same object.
    expect(conn.prepare("select 511 as n")).toBe(conn.prepare("select 511 as n"));
  } finally {
    await db.close();
  }
});
