// lib/idempotency `KeyedWrite`: the one transaction a keyed request and its kept answer commit in.
// On the run's engine (SQLite: a file, a reader beside the writer, as the server runs): nothing is held before the
// request's first write; from it, the request's reads see its writes and nobody else's writes go
// between; its answer commits with it or nothing does; a write that failed inside undoes it all.
import { afterAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDb, type Queryable } from "../../db";
import { idempotencyKeys } from "../../db/schema";
import { holdsWriter, IdempotencyKeyInUse, idempotencyStore, KeyedWrite, KeyedWriteUndone } from "../../lib/idempotency";
import { dropDatabase, freshDatabaseUrl, onPostgres } from "../databases";
import { refusalOf } from "../refusal";

const dir = mkdtempSync(join(tmpdir(), "club-keyed-write-"));
const url = await freshDatabaseUrl(dir);
const db = await openDb(url);
afterAll(async () => {
  await db.close();
  await dropDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

/** A row to write: the kept-answers table needs no other row beside it. */
const row = (key: string, status = 200) => ({
  owner: "test",
  key,
  club_id: "club",
  method: "POST",
  path: "/x",
  request_hash: "h",
  status,
  headers: {},
  body: Buffer.from(key),
  created_at: new Date().toISOString(),
});
const insert = (t: Queryable, key: string, status?: number) => t.insert(idempotencyKeys).values(row(key, status));
const stored = async (key: string) => (await db.read.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).map((r) => r.status);

describe("KeyedWrite", () => {
  it("holds nothing before its first write: another writer commits meanwhile (a verb's network call comes first)", async () => {
    const write = new KeyedWrite(db);
    expect(write.db.read).toBe(db.read);
    await db.tx((t) => insert(t, "other-before"));
    expect(await stored("other-before")).toEqual([200]);
    expect(holdsWriter(write.db)).toBe(false);
    await write.commit();
  });

  it("from its first write its transaction is held until its answer; its reads see its writes, others' reads do not until it commits", async () => {
    const write = new KeyedWrite(db);
    try {
      await write.db.tx((t) => insert(t, "held-write"));
      expect(holdsWriter(write.db)).toBe(true);
      expect((await write.db.read.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "held-write"))).length).toBe(1);
      expect(await stored("held-write")).toEqual([]);
      let otherDone = false;
      const other = db
        .tx((t) => insert(t, "other-during"))
        .then(() => {
          otherDone = true;
        });
      await Bun.sleep(50);
      // SQLite has one writer: the others wait for the answer. PostgreSQL's transactions run side by side.
      expect(otherDone).toBe(onPostgres);
      await write.commit((t) => insert(t, "held-answer", 201));
      await other;
    } finally {
      await write.rollback();
    }
    expect([await stored("held-write"), await stored("held-answer"), await stored("other-during")]).toEqual([[200], [201], [200]]);
    expect(holdsWriter(write.db)).toBe(false);
  });

  it("its answer failing to be written undoes its write: neither stays", async () => {
    const write = new KeyedWrite(db);
    await write.db.tx((t) => insert(t, "undone-write"));
    const failed = await write
      .commit(async () => {
        throw new Error("disk full");
      })
      .catch((err: Error) => err.message);
    expect(failed).toBe("disk full");
    expect(await stored("undone-write")).toEqual([]);
  });

  it("rollback undoes every write of the request (a refusal)", async () => {
    const write = new KeyedWrite(db);
    await write.db.tx((t) => insert(t, "refused-1"));
    await write.db.tx((t) => insert(t, "refused-2"));
    await write.rollback();
    expect([await stored("refused-1"), await stored("refused-2")]).toEqual([[], []]);
  });

  it("its writes started at once run one after the other, as the writer runs transactions", async () => {
    const write = new KeyedWrite(db);
    const order: string[] = [];
    const step = (name: string) =>
      write.db.tx(async (t) => {
        order.push(`${name} begins`);
        await Bun.sleep(5);
        await insert(t, `turn-${name}`);
        order.push(`${name} ends`);
      });
    await Promise.all([step("a"), step("b"), step("c")]);
    await write.commit();
    expect(order).toEqual(["a begins", "a ends", "b begins", "b ends", "c begins", "c ends"]);
  });

  it("a write that failed inside cannot be undone alone: committing undoes all, 503 KEYED_WRITE_UNDONE", async () => {
    const write = new KeyedWrite(db);
    await write.db.tx((t) => insert(t, "before-failure"));
    const failed = await write.db
      .tx(async (t) => {
        await insert(t, "half-done");
        throw new Error("refused half-way");
      })
      .catch((err: Error) => err.message);
    expect(failed).toBe("refused half-way");
    const refused = await write.commit((t) => insert(t, "its-answer")).catch((err) => err);
    expect(refused).toBeInstanceOf(KeyedWriteUndone);
    expect((refused as KeyedWriteUndone).status).toBe(503);
    expect([await stored("before-failure"), await stored("half-done"), await stored("its-answer")]).toEqual([[], [], []]);
    // The writer is free again.
    await db.tx((t) => insert(t, "after-undone"));
    expect(await stored("after-undone")).toEqual([200]);
  });

  it("with nothing written, its answer is kept in a transaction of its own", async () => {
    const write = new KeyedWrite(db);
    await write.commit((t) => insert(t, "answer-alone"));
    expect(await stored("answer-alone")).toEqual([200]);
  });
});

describe("a key run by two processes at once (the keys in flight are each process's own)", () => {
  it("the second to commit is undone whole and refused IDEMPOTENCY_KEY_IN_USE; its retry replays the first", async () => {
    const other = await openDb(url);
    try {
      const asked = { clubId: "club", method: "POST", path: "/pay", hash: "same" };
      const [a, b] = [idempotencyStore(db), idempotencyStore(other)];
      const claimA = await a.claim("owner", "twice", asked);
      const claimB = await b.claim("owner", "twice", asked);
      if (claimA.kind !== "run" || claimB.kind !== "run") throw new Error("both processes run the key");
      const answer = (text: string) => ({ status: 201, headers: {}, body: new TextEncoder().encode(text) });
      const first = new KeyedWrite(db);
      await first.db.tx((t) => insert(t, "paid-by-a"));
      await first.commit((t) => claimA.running.writeDone(t, answer("a")));
      claimA.running.release();
      const second = new KeyedWrite(other);
      await second.db.tx((t) => insert(t, "paid-by-b"));
      expect(await refusalOf(second.commit((t) => claimB.running.writeDone(t, answer("b"))))).toBeInstanceOf(IdempotencyKeyInUse);
      expect(await stored("paid-by-a")).toEqual([200]);
      expect(await stored("paid-by-b")).toEqual([]);
      claimB.running.release();
      const retry = await b.claim("owner", "twice", asked);
      expect(retry.kind === "replay" && new TextDecoder().decode(retry.answer.body)).toBe("a");
    } finally {
      await other.close();
    }
  });
});
