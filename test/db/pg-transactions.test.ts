// Transactions on PostgreSQL whose BEGIN leaves in the same write as their first statement
// (db/pg-socket.ts `beginWithNext`, db/pg.ts): the first statement is inside the transaction, and
// the BEGIN's answers, taken off the data before pg reads it, never reach another query. On SQLite
// the same transactions run as any other (they must hold there too).
import { afterAll, beforeAll, expect, it } from "bun:test";
import { sql } from "drizzle-orm";
import type { Queryable } from "../../db";
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
