// Transactions on PostgreSQL whose BEGIN leaves in the same write as their first statement
// (db/pg-socket.ts `beginWithNext`, db/pg.ts): the first statement is inside the transaction, and
// the BEGIN's answers, taken off the data before pg reads it, never reach another query. On SQLite
// the same transactions run as any other (they must hold there too).
import { afterAll, beforeAll, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import { aheadOf, insertRowAhead, type Queryable, readAhead } from "../../db";
import { lockName, lockNames } from "../../db/locks";
import { codesOf } from "../../db/unavailable";
import { auditLog } from "../../db/schema";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const row = (id: string) => ({
  id,
  club_id: env.clubId,
  method: "GET",
  path: "/tx",
  status: 200,
  duration_ms: 1,
  via: "http",
  created_at: new Date().toISOString(),
});
const stored = async (id: string) => (await env.db.read.select({ id: auditLog.id }).from(auditLog).where(sql`${auditLog.id} = ${id}`)).length;

it("a transaction's first statement is undone with it when the transaction fails", async () => {
  const failed = await env.db
    .tx(async (t) => {
      await t.insert(auditLog).values(row("first-undone"));
      throw new Error("refused after the first statement");
    })
    .catch((err: Error) => err.message);
  expect(failed).toBe("refused after the first statement");
  expect(await stored("first-undone")).toBe(0);
});

it.skipIf(!onPostgres)("the first statement and the next see the same transaction (its start time, its id)", async () => {
  const seen = await env.db.tx(async (t) => {
    const q = t as unknown as { execute(query: ReturnType<typeof sql>): Promise<{ rows: Record<string, unknown>[] }> };
    const first = (await q.execute(sql`select now()::text as at, txid_current()::text as id`)).rows[0];
    await Bun.sleep(20);
    const second = (await q.execute(sql`select now()::text as at, txid_current()::text as id, current_setting('transaction_isolation') as level`)).rows[0];
    return { first, second };
  });
  expect(seen.second.at).toBe(seen.first.at);
  expect(seen.second.id).toBe(seen.first.id);
});

it("transactions with no statement, one, or several, side by side with plain reads: every answer is its own", async () => {
  const runs = Array.from({ length: 120 }, (_, i) => {
    if (i % 4 === 0) return env.db.tx(async () => `none-${i}`);
    if (i % 4 === 1)
      return env.db.read
        .select({ n: sql<number>`cast(${i} as integer)` })
        .from(sql`(select 1) as one`)
        .then((r) => `read-${r[0].n}`);
    return env.db.tx(async (t: Queryable) => {
      await t.insert(auditLog).values(row(`side-${i}`));
      const [n] = await t.select({ n: sql<number>`cast(${i} as integer)` }).from(sql`(select 1) as one`);
      if (i % 4 === 3) await t.insert(auditLog).values(row(`side-${i}-again`));
      return `tx-${n.n}`;
    });
  });
  const answers = await Promise.all(runs);
  expect(answers).toEqual(Array.from({ length: 120 }, (_, i) => (i % 4 === 0 ? `none-${i}` : i % 4 === 1 ? `read-${i}` : `tx-${i}`)));
  expect(await stored("side-2")).toBe(1);
  expect(await stored("side-119-again")).toBe(1);
});

// Statements sent ahead of the next one in the same write (db/pg-socket.ts `sendAhead`, db/locks.ts
// `lock`, db/index.ts `insertRowAhead`): nobody reads their answer, so they must have run, in order,
// before the statement behind them, and a refusal must fail that statement with its own SQLSTATE.
type Raw = { execute(query: ReturnType<typeof sql>): Promise<{ rows: Record<string, unknown>[] }> };

it.skipIf(!onPostgres)("a lock sent ahead is held when the statement behind it runs, and is sent with it", async () => {
  const held = await env.db.tx(async (t) => {
    // Over Bun's socket (no TLS here): the locks leave with the select below.
    expect(aheadOf.has(t)).toBe(true);
    await lockNames(t, [{ name: "ahead-a", shared: true }, { name: "ahead-b" }]);
    const [{ n }] = (
      await (t as unknown as Raw).execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid() and granted`)
    ).rows as { n: number }[];
    return n;
  });
  expect(held).toBe(2);
});

it.skipIf(!onPostgres)("a statement sent ahead that the server refuses fails the one behind it with its SQLSTATE, and the transaction is undone", async () => {
  const failed = await env.db
    .tx(
      async (t) => {
        await t.insert(auditLog).values(row("ahead-undone"));
        expect(aheadOf.get(t)?.send(sql`select 1 / 0`)).toBe(true);
        await t.insert(auditLog).values(row("ahead-behind"));
        return "committed";
      },
      { once: true },
    )
    .catch((err: Error) => codesOf(err));
  expect(failed).toContain("22012");
  expect(await stored("ahead-undone")).toBe(0);
  expect(await stored("ahead-behind")).toBe(0);
  // The connection it broke is gone from the pool: the next transactions run as usual.
  const after = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      env.db.tx(async (t) => {
        await t.insert(auditLog).values(row(`after-${i}`));
        return i;
      }),
    ),
  );
  expect(after).toEqual(Array.from({ length: 20 }, (_, i) => i));
});

it.skipIf(!onPostgres)("two transactions whose locks, sent ahead, deadlock: the loser's deadlock is run again, both commit", async () => {
  const crossed = (first: string, second: string, id: string) =>
    env.db.tx(async (t) => {
      await lockName(t, first);
      await (t as unknown as Raw).execute(sql`select pg_sleep(0.2)`);
      await lockName(t, second);
      await t.insert(auditLog).values(row(id));
      return id;
    });
  expect(await Promise.all([crossed("dead-x", "dead-y", "crossed-1"), crossed("dead-y", "dead-x", "crossed-2")])).toEqual(["crossed-1", "crossed-2"]);
  expect(await stored("crossed-1")).toBe(1);
  expect(await stored("crossed-2")).toBe(1);
});

it("a row inserted ahead is stored and seen by the statement behind it; with the transaction undone it is gone", async () => {
  const seen = await env.db.tx(async (t) => {
    await insertRowAhead(env.db, t, auditLog, "audit_log", row("ahead-row"));
    return (await t.select({ id: auditLog.id }).from(auditLog).where(sql`${auditLog.id} = ${"ahead-row"}`)).length;
  });
  expect(seen).toBe(1);
  expect(await stored("ahead-row")).toBe(1);
  await env.db
    .tx(async (t) => {
      await insertRowAhead(env.db, t, auditLog, "audit_log", row("ahead-row-undone"));
      throw new Error("undone");
    })
    .catch(() => {});
  expect(await stored("ahead-row-undone")).toBe(0);
});

/** An audit row's id, ip and status by its id (placeholder `id`), prepared for `t`: a select to read ahead. */
const auditRowById = (t: Queryable) =>
  env.db.prepareTx("test.read-ahead", (q) =>
    q
      .select({ id: auditLog.id, ip: auditLog.ip, status: auditLog.status })
      .from(auditLog)
      .where(sql`${auditLog.id} = ${sql.placeholder("id")}`),
  )(t);

it.skipIf(!onPostgres)("a select read ahead answers its rows as text (NULL as null), with the statement behind it or, awaited at once, alone", async () => {
  const answers = await env.db.tx(async (t) => {
    const byId = auditRowById(t);
    await t.insert(auditLog).values(row("read-ahead"));
    const later = readAhead(t, byId, { id: "read-ahead" });
    expect(later).not.toBeNull();
    // This insert carries the read (which runs ahead of it).
    await t.insert(auditLog).values(row("read-ahead-2"));
    const first = await later;
    const alone = await readAhead(t, byId, { id: "read-ahead-2" });
    return { first, alone };
  });
  expect(answers).toEqual({ first: [["read-ahead", null, "200"]], alone: [["read-ahead-2", null, "200"]] });
});

it.skipIf(!onPostgres)("a read ahead asked while another statement of the transaction is in flight: each gets its own answer", async () => {
  const answers = await env.db.tx(async (t) => {
    const byId = auditRowById(t);
    await t.insert(auditLog).values(row("read-ahead-3"));
    // Not awaited: on the wire while the read is asked.
    const slow = (t as unknown as Raw).execute(sql`select pg_sleep(0.1), 'slow'::text as said`).then((r) => r.rows[0].said);
    await Bun.sleep(20);
    const read = readAhead(t, byId, { id: "read-ahead-3" });
    return { slow: await slow, read: await read };
  });
  expect(answers).toEqual({ slow: "slow", read: [["read-ahead-3", null, "200"]] });
});
