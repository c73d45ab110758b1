// db.tx: transactions queued at the same moment share one commit (group commit), each in its
// own savepoint (none when alone): FIFO order, a failing one undoes only its own writes, each sees the writes of
// those before it, and none resolves before its writes are readable on the read connection.
import { afterEach, beforeEach, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count, eq } from "drizzle-orm";
import { type Db, openDb } from "../../db";
import { auditLog } from "../../db/schema";
import { onPostgres } from "../databases";
import { refusalOf } from "../refusal";

let dir: string;
let db: Db;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "club-group-commit-"));
  db = await openDb(join(dir, "club.db"));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const row = (id: string) => ({
  id,
  club_id: "c",
  method: "GET",
  path: "/x",
  status: 200,
  duration_ms: 1,
  via: "http",
  created_at: new Date().toISOString(),
});

const ids = async () => (await db.read.select({ id: auditLog.id }).from(auditLog)).map((r) => r.id).sort();

/** The statements the writer's `exec` runs from now on (BEGIN, SAVEPOINT, COMMIT...), in order. */
function execStatements(): string[] {
  const statements: string[] = [];
  const exec = db.raw.exec.bind(db.raw);
  db.raw.exec = ((sql: string) => {
    statements.push(sql);
    return exec(sql);
  }) as typeof db.raw.exec;
  return statements;
}

// SQLite's group commit (db/sqlite.ts); PostgreSQL runs transactions side by side.
describe.skipIf(onPostgres)("db.tx group commit", () => {
  it("runs simultaneous transactions in order, each rolled back alone when it throws", async () => {
    const order: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        db.tx(async (t) => {
          order.push(i);
          await t.insert(auditLog).values(row(`r${String(i).padStart(2, "0")}`));
          if (i % 5 === 3) throw new Error(`refused ${i}`);
          return i;
        }),
      ),
    );
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 5 === 3 ? "rejected" : "fulfilled")));
    expect((results[4] as PromiseFulfilledResult<number>).value).toBe(4);
    expect(String((results[3] as PromiseRejectedResult).reason)).toContain("refused 3");
    const expected = Array.from({ length: 20 }, (_, i) => i)
      .filter((i) => i % 5 !== 3)
      .map((i) => `r${String(i).padStart(2, "0")}`);
    expect(await ids()).toEqual(expected);
  });

  it("commits simultaneous transactions once", async () => {
    const statements = execStatements();
    await Promise.all(Array.from({ length: 20 }, (_, i) => db.tx((t) => t.insert(auditLog).values(row(`g${i}`)))));
    expect(statements.filter((s) => s === "COMMIT")).toHaveLength(1);
    expect(statements.filter((s) => s === "SAVEPOINT tx")).toHaveLength(20);
    expect(await ids()).toHaveLength(20);
  });

  it("lets each transaction see the writes of those before it in the same group", async () => {
    const seen = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        db.tx(async (t) => {
          const [{ n }] = await t.select({ n: count() }).from(auditLog);
          await t.insert(auditLog).values(row(`s${i}`));
          return n;
        }),
      ),
    );
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it("resolves only once the writes are committed (the read connection sees them)", async () => {
    const reads = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        db
          .tx((t) => t.insert(auditLog).values(row(`c${i}`)))
          .then(
            async () =>
              (
                await db.read
                  .select({ n: count() })
                  .from(auditLog)
                  .where(eq(auditLog.id, `c${i}`))
              )[0].n,
          ),
      ),
    );
    expect(reads).toEqual(Array(10).fill(1));
  });

  it("fails a transaction whose statement breaks a constraint without losing the others", async () => {
    const results = await Promise.allSettled([
      db.tx((t) => t.insert(auditLog).values(row("dup"))),
      db.tx((t) => t.insert(auditLog).values(row("dup"))),
      db.tx((t) => t.insert(auditLog).values(row("after"))),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await ids()).toEqual(["after", "dup"]);
  });

  it("rolls back exactly a lone failing transaction (no savepoint) and keeps the connection usable", async () => {
    await db.tx((t) => t.insert(auditLog).values(row("before")));
    const statements = execStatements();
    // Several writes, then a statement that breaks a constraint halfway (its first row is new).
    const lone = db.tx(async (t) => {
      await t.insert(auditLog).values(row("lone-1"));
      await t.insert(auditLog).values(row("lone-2"));
      await t.insert(auditLog).values([row("lone-3"), row("before")]);
    });
    expect(await refusalOf(lone)).toBeInstanceOf(Error);
    expect(statements).not.toContain("SAVEPOINT tx");
    expect(statements).toContain("ROLLBACK");
    expect(db.raw.inTransaction).toBe(false);
    expect(await ids()).toEqual(["before"]);
    // The next transaction, alone again and then in a group, starts afresh and commits.
    await db.tx((t) => t.insert(auditLog).values(row("next")));
    await Promise.all([db.tx((t) => t.insert(auditLog).values(row("g1"))), db.tx((t) => t.insert(auditLog).values(row("g2")))]);
    expect(db.raw.inTransaction).toBe(false);
    expect(await ids()).toEqual(["before", "g1", "g2", "next"]);
  });

  it("goes on after a group: later transactions start a new one", async () => {
    await db.tx((t) => t.insert(auditLog).values(row("a")));
    await db.tx((t) => t.insert(auditLog).values(row("b")));
    expect(db.raw.inTransaction).toBe(false);
    expect(await ids()).toEqual(["a", "b"]);
  });
});
