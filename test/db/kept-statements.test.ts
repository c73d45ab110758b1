// SQLite keeps its compiled statements per connection (db/sqlite.ts keptStatements): the same SQL
// text gets the same statement back, at most 512 are kept (the least recently used dropped), and
// a bound LIMIT, and a bound value compared with `=`, are written so that they do not make the
// statement expire.
import { afterAll, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { boundAsPlanned } from "../../db/sqlite";
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

it.skipIf(onPostgres)("writes a bound value compared with `=` as `+?`, so a join's plan does not depend on it, and answers as before", async () => {
  // The text Drizzle gives for a lookup across a join: the comparison's bound value made `+?`.
  expect(boundAsPlanned('select "a"."id" from "a" inner join "b" on "b"."id" = "a"."b_id" where "a"."key" = ? limit ?')).toBe(
    'select "a"."id" from "a" inner join "b" on "b"."id" = "a"."b_id" where "a"."key" = +? limit (? + 0)',
  );
  const db = await openDb(join(dir, "bound.db"));
  try {
    const conn = db.raw;
    conn.exec("CREATE TABLE t (id TEXT PRIMARY KEY, i INTEGER, s TEXT, b BLOB, u TEXT)");
    conn.exec("CREATE TABLE p (id TEXT PRIMARY KEY, t_id TEXT NOT NULL)");
    conn.prepare("INSERT INTO t (id, i, s, b) VALUES (?, ?, ?, ?)").run("t1", 5, "07", new Uint8Array([1, 2]));
    conn.prepare("INSERT INTO p (id, t_id) VALUES (?, ?)").run("p1", "t1");
    const count = (where: string, value: unknown) =>
      (conn.prepare(`SELECT count(*) AS n FROM p JOIN t ON t.id = p.t_id WHERE ${where} = ?`).get(value as string) as { n: number }).n;
    // The column's affinity still applies to the value: text "5" finds the integer 5, the number 7 not the text "07".
    expect([count("t.i", "5"), count("t.i", 5), count("t.s", 7), count("t.s", "07"), count("t.b", new Uint8Array([1, 2])), count("t.u", null)]).toEqual([
      1, 1, 0, 1, 1, 0,
    ]);
    conn.prepare("UPDATE t SET u = ? WHERE id = ?").run("x", "t1");
    expect(conn.prepare("SELECT p.id, t.u FROM p JOIN t ON t.id = p.t_id WHERE t.id = ?").get("t1")).toEqual({ id: "p1", u: "x" });
  } finally {
    await db.close();
  }
});
