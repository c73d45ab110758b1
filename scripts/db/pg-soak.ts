// PostgreSQL driver soak (issue 26, DESIGN.md section 19 "Driver"; the result is in docs/decisions.md,
// "PostgreSQL driver: chosen by a soak"). Run one driver at a time:
//
//   bun scripts/db/pg-soak.ts --driver pg|pg-bun|postgres|bun --seconds 120 --url postgres://...
//
// pg-bun: node-postgres over the socket the product gives it (db/pg-socket.ts, Bun.connect).
//
// Through Drizzle, as the product uses it: node-postgres (drizzle-orm/node-postgres), postgres.js
// (drizzle-orm/postgres-js) or Bun.SQL (drizzle-orm/bun-sql). Creates its own tables (soak_*) in the
// database the URL names, so give it a throw-away database.
//
// 1. Probes: the known hazards replayed (Bun.SQL's statement cache answering another query,
//    oven-sh/bun#30494, #33627, #32772, on the bare client; postgres.js sending BEGIN without
//    reserving the connection, porsager/postgres#1189, on the bare client and through Drizzle).
// 2. Soak: --workers (64) concurrent workers on a pool of --pool (64) connections, each running a
//    random mix of different queries (named prepared queries with placeholders, builder queries of
//    different shapes and types, transactions that insert and read back their rows, some rolled
//    back on purpose, row-locked increments) and checking EVERY answer against what it must be: the
//    right rows in the right shape, a rolled-back write never visible, a transaction's rows visible
//    only after its commit and all together. Counts ops and statements a second, p50/p99, wrong
//    answers, errors and hangs (an op that has not settled after --hang-ms). --workers 256 --pool 4
//    queues requests behind a busy pool; --mix reads makes transactions rare (one in a hundred).
// 3. Throughput: a row by primary key, a page of 50 rows and a short write transaction (insert and
//    update), at concurrency 1 and 16, --bench-seconds each, with the client's CPU per operation;
//    then which connection the pool hands out to operations one after another.
//
// Exits 1 on any wrong answer, unexpected error, hang or failed probe.
// --json FILE writes the figures; --seed N makes the mix repeatable; --no-probes, --no-soak and
// --no-bench skip a part.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { SQL as BunSQL } from "bun";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { drizzle as drizzleBunSql } from "drizzle-orm/bun-sql";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { bigint, boolean, customType, doublePrecision, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgresJs } from "drizzle-orm/postgres-js";
import pg from "pg";
import postgres from "postgres";
import { bunSocketFor } from "../../db/pg-socket";

const { values: args } = parseArgs({
  options: {
    driver: { type: "string" },
    seconds: { type: "string", default: "120" },
    url: { type: "string", default: process.env.DATABASE_URL },
    workers: { type: "string", default: "64" },
    pool: { type: "string", default: "64" },
    "bench-seconds": { type: "string", default: "5" },
    "hang-ms": { type: "string", default: "15000" },
    seed: { type: "string", default: String(Date.now() % 1_000_000) },
    json: { type: "string" },
    "no-probes": { type: "boolean", default: false },
    "no-bench": { type: "boolean", default: false },
    "no-soak": { type: "boolean", default: false },
    // "reads": transactions 40 times rarer, so long runs of plain queries queue up behind a busy
    // pool (what a burst of page loads does), the case where postgres.js pipelines up to 100.
    mix: { type: "string", default: "default" },
  },
});

type Driver = "pg" | "pg-bun" | "postgres" | "bun";
const DRIVER = args.driver as Driver;
if (!["pg", "pg-bun", "postgres", "bun"].includes(DRIVER) || !args.url) {
  console.error("usage: bun scripts/db/pg-soak.ts --driver pg|pg-bun|postgres|bun --seconds N --url postgres://...");
  process.exit(2);
}
const URL_ = args.url;
const SECONDS = Number(args.seconds);
const WORKERS = Number(args.workers);
const POOL = Number(args.pool);
const BENCH_SECONDS = Number(args["bench-seconds"]);
const HANG_MS = Number(args["hang-ms"]);
const SEED = Number(args.seed);

// ---------------------------------------------------------------------------------------------
// Schema: the column types the product's PostgreSQL twin uses (db/dialect.ts): bigint read as a
// number, boolean, double precision, JSON kept as text, bytea, nullable text.

const bytes = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});
const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => (typeof value === "string" ? JSON.parse(value) : value),
});

const accounts = pgTable("soak_accounts", {
  id: bigint("id", { mode: "number" }).primaryKey(),
  name: text("name").notNull(),
  active: boolean("active").notNull(),
  balance: doublePrecision("balance").notNull(),
  meta: jsonText("meta").notNull(),
  token: bytes("token").notNull(),
});
const items = pgTable(
  "soak_items",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: bigint("account_id", { mode: "number" }).notNull(),
    position: integer("position").notNull(),
    label: text("label").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
  },
  (t) => [unique("soak_items_account_position").on(t.accountId, t.position)],
);
const ledger = pgTable(
  "soak_ledger",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    worker: integer("worker").notNull(),
    tag: text("tag").notNull(),
    k: integer("k").notNull(),
    value: bigint("value", { mode: "number" }).notNull(),
    note: text("note"),
  },
  (t) => [unique("soak_ledger_tag_k").on(t.tag, t.k)],
);
const counters = pgTable("soak_counters", {
  worker: integer("worker").primaryKey(),
  rows: bigint("rows", { mode: "number" }).notNull(),
  txs: bigint("txs", { mode: "number" }).notNull(),
});
const hot = pgTable("soak_hot", {
  id: integer("id").primaryKey(),
  value: bigint("value", { mode: "number" }).notNull(),
});
const probe = pgTable("soak_probe", { id: integer("id").notNull() });
const hotLog = pgTable("soak_hot_log", {
  hotId: integer("hot_id").notNull(),
  seen: bigint("seen", { mode: "number" }).notNull(),
  worker: integer("worker").notNull(),
});

const DDL = [
  "DROP TABLE IF EXISTS soak_accounts, soak_items, soak_ledger, soak_counters, soak_hot, soak_hot_log, soak_probe",
  "CREATE TABLE soak_accounts (id bigint PRIMARY KEY, name text NOT NULL, active boolean NOT NULL, balance double precision NOT NULL, meta text NOT NULL, token bytea NOT NULL)",
  "CREATE TABLE soak_items (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, account_id bigint NOT NULL, position integer NOT NULL, label text NOT NULL, amount bigint NOT NULL, CONSTRAINT soak_items_account_position UNIQUE (account_id, position))",
  "CREATE TABLE soak_ledger (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, worker integer NOT NULL, tag text NOT NULL, k integer NOT NULL, value bigint NOT NULL, note text, CONSTRAINT soak_ledger_tag_k UNIQUE (tag, k))",
  "CREATE INDEX soak_ledger_worker ON soak_ledger (worker)",
  "CREATE TABLE soak_counters (worker integer PRIMARY KEY, rows bigint NOT NULL, txs bigint NOT NULL)",
  "CREATE TABLE soak_hot (id integer PRIMARY KEY, value bigint NOT NULL)",
  "CREATE TABLE soak_hot_log (hot_id integer NOT NULL, seen bigint NOT NULL, worker integer NOT NULL)",
  "CREATE TABLE soak_probe (id integer NOT NULL)",
];

const ACCOUNTS = 1000;
const ITEMS_PER_ACCOUNT = 60;
const HOT_ROWS = 8;
const BENCH_WORKER_BASE = 10_000;

function tokenOf(id: number): Buffer {
  return Buffer.from([0, 255, (id >> 8) & 255, id & 255, 0x5c, 0x27]);
}
function expectedAccount(id: number) {
  return {
    id,
    name: `acct-${id}`,
    active: id % 3 !== 0,
    balance: id * 1.25,
    meta: { id, tags: [id % 7, "é"], deep: { even: id % 2 === 0, none: null } },
    token: tokenOf(id),
  };
}
function expectedItem(accountId: number, position: number) {
  return { position, label: `item-${accountId}-${position}`, amount: accountId * 10_000_000_000 + position };
}

// ---------------------------------------------------------------------------------------------
// The driver under test.

type Db = PgDatabase<PgQueryResultHKT>;
type Tx = PgTransaction<PgQueryResultHKT>;
type Client = { db: Db; close(): Promise<void> };

function openClient(driver: Driver, url: string, max: number): Client {
  if (driver === "pg" || driver === "pg-bun") {
    const stream = driver === "pg-bun" ? (bunSocketFor as unknown as pg.PoolConfig["stream"]) : undefined;
    const pool = new pg.Pool({ connectionString: url, max, stream });
    // An idle client that errors (the server restarted) must not crash the process.
    pool.on("error", () => {});
    return { db: drizzleNodePg({ client: pool }) as unknown as Db, close: () => pool.end() };
  }
  if (driver === "postgres") {
    const client = postgres(url, { max, onnotice: () => {} });
    return { db: drizzlePostgresJs({ client }) as unknown as Db, close: () => client.end({ timeout: 5 }) };
  }
  const client = new BunSQL({ url, max });
  return { db: drizzleBunSql({ client }) as unknown as Db, close: () => client.close({ timeout: 5 }) };
}

// ---------------------------------------------------------------------------------------------
// Checking answers.

/** One canonical text for a value: sorted keys, buffers as hex, numbers and strings told apart. */
function canon(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (v && typeof v === "object" && v.type === "Buffer" && Array.isArray(v.data)) return `bytes:${Buffer.from(v.data).toString("hex")}`;
    if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString("hex")}`;
    if (typeof v === "bigint") return `bigint:${v}`;
    if (v && typeof v === "object" && !Array.isArray(v))
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, v[k]]),
      );
    return v;
  });
}

class Deliberate extends Error {}
class Hang extends Error {}

type KindStats = { ops: number; statements: number; wrong: number; errors: number; hangs: number; lat: number[] };
const stats = new Map<string, KindStats>();
const wrongSamples: string[] = [];
const errorSamples: string[] = [];
let wrongTotal = 0;
let errorTotal = 0;
let hangTotal = 0;

function kindStats(kind: string): KindStats {
  let s = stats.get(kind);
  if (!s) {
    s = { ops: 0, statements: 0, wrong: 0, errors: 0, hangs: 0, lat: [] };
    stats.set(kind, s);
  }
  return s;
}

function wrong(kind: string, what: string) {
  kindStats(kind).wrong++;
  wrongTotal++;
  if (wrongSamples.length < 30) wrongSamples.push(`${kind}: ${what}`);
  if (wrongTotal <= 5) console.error(`WRONG ${kind}: ${what}`);
}

function expectSame(kind: string, got: unknown, expected: unknown, context = "") {
  const g = canon(got);
  const e = canon(expected);
  if (g !== e) wrong(kind, `${context}expected ${e.slice(0, 300)} got ${g.slice(0, 300)}`);
}

/** The SQLSTATE of a driver error, wherever the driver and Drizzle put it. */
function sqlState(err: unknown): string | undefined {
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && depth < 5; e = e.cause as Record<string, unknown>, depth++) {
    for (const key of ["code", "errno", "sqlState"]) {
      const v = e[key];
      if (typeof v === "string" && /^[0-9A-Z]{5}$/.test(v)) return v;
    }
  }
  return undefined;
}

function explain(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as Record<string, unknown> | undefined, depth = 0; e && depth < 4; e = e.cause as Record<string, unknown>, depth++) {
    parts.push(
      `${(e as { name?: string }).name ?? "Error"}${e.code ? `[${e.code}]` : ""}${e.errno ? `[${e.errno}]` : ""}: ${String(e.message ?? e).slice(0, 200)}`,
    );
  }
  return parts.join(" <- ");
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Hang(`not settled after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

// ---------------------------------------------------------------------------------------------
// Setup.

async function setup(db: Db) {
  for (const statement of DDL) await db.execute(sql.raw(statement));
  for (let from = 1; from <= ACCOUNTS; from += 200) {
    const batch = [];
    for (let id = from; id < from + 200 && id <= ACCOUNTS; id++) batch.push(expectedAccount(id));
    await db.insert(accounts).values(batch);
  }
  await db.execute(
    sql.raw(
      `INSERT INTO soak_items (account_id, position, label, amount) SELECT a, p, 'item-' || a || '-' || p, a::bigint * 10000000000 + p FROM generate_series(1, ${ACCOUNTS}) a, generate_series(1, ${ITEMS_PER_ACCOUNT}) p`,
    ),
  );
  const workerRows = Array.from({ length: WORKERS }, (_, w) => ({ worker: w, rows: 0, txs: 0 }));
  const benchRows = Array.from({ length: 16 }, (_, i) => ({ worker: BENCH_WORKER_BASE + i, rows: 0, txs: 0 }));
  await db.insert(counters).values([...workerRows, ...benchRows]);
  await db.insert(hot).values(Array.from({ length: HOT_ROWS }, (_, i) => ({ id: i + 1, value: 0 })));
  await db.execute(sql.raw("ANALYZE"));
}

// ---------------------------------------------------------------------------------------------
// The soak's operations. Each checks every answer it gets and returns how many statements it sent.

type Visible = { tag: string; k: number; kind: "commit" | "rollback"; state: "open" | "committed" | "done" };
/** Transactions of every worker, recent ones, for readers that look at others' writes. */
const recent: Visible[] = [];
function remember(v: Visible) {
  recent.push(v);
  if (recent.length > 512) recent.splice(0, recent.length - 512);
}
const hotCommitted = new Array<number>(HOT_ROWS + 1).fill(0);

type Local = { w: number; rows: number; txs: number; seq: number; rand: () => number };

function preparedQueries(db: Db) {
  return {
    accountById: db
      .select({ id: accounts.id, name: accounts.name, active: accounts.active, balance: accounts.balance, meta: accounts.meta, token: accounts.token })
      .from(accounts)
      .where(eq(accounts.id, sql.placeholder("id")))
      .prepare("soak_account_by_id"),
    itemsPage: db
      .select({ position: items.position, label: items.label, amount: items.amount })
      .from(items)
      .where(eq(items.accountId, sql.placeholder("a")))
      .orderBy(asc(items.position))
      .limit(sql.placeholder("n"))
      .offset(sql.placeholder("o"))
      .prepare("soak_items_page"),
    countersOf: db
      .select({ rows: counters.rows, txs: counters.txs })
      .from(counters)
      .where(eq(counters.worker, sql.placeholder("w")))
      .prepare("soak_counters_of"),
  };
}
type Prepared = ReturnType<typeof preparedQueries>;

/** A transaction's own rows read back on `t` with a statement prepared for it (like Db.prepareTx). */
function readTag(t: Db | Tx, tag: string) {
  return t
    .select({ worker: ledger.worker, tag: ledger.tag, k: ledger.k, value: ledger.value, note: ledger.note })
    .from(ledger)
    .where(eq(ledger.tag, sql.placeholder("tag")))
    .orderBy(asc(ledger.k))
    .prepare("soak_ledger_by_tag")
    .execute({ tag });
}

function ledgerRows(local: Local, tag: string, k: number) {
  // Nulls in changing places: Bun.SQL keyed its statements on the null pattern (oven-sh/bun#28980).
  return Array.from({ length: k }, (_, i) => ({
    worker: local.w,
    tag,
    k: i,
    value: local.w * 1_000_000_000 + local.seq * 10 + i,
    note: local.rand() < 0.5 ? null : `n-${local.seq}-${i}`,
  }));
}

const pick = (rand: () => number, n: number) => 1 + Math.floor(rand() * n);

type Op = { kind: string; weight: number; run(db: Db, p: Prepared, local: Local): Promise<number> };

const ops: Op[] = [
  {
    kind: "prepared.pk",
    weight: 16,
    async run(_db, p, local) {
      const id = pick(local.rand, ACCOUNTS);
      expectSame("prepared.pk", await p.accountById.execute({ id }), [expectedAccount(id)], `id ${id}: `);
      return 1;
    },
  },
  {
    kind: "prepared.page",
    weight: 8,
    async run(_db, p, local) {
      const a = pick(local.rand, ACCOUNTS);
      const n = pick(local.rand, 50);
      const o = Math.floor(local.rand() * 30);
      const expected = [];
      for (let pos = o + 1; pos <= Math.min(o + n, ITEMS_PER_ACCOUNT); pos++) expected.push(expectedItem(a, pos));
      expectSame("prepared.page", await p.itemsPage.execute({ a, n, o }), expected, `a ${a} n ${n} o ${o}: `);
      return 1;
    },
  },
  {
    kind: "builder.pk",
    weight: 12,
    async run(db, _p, local) {
      // One in ten asks for a row that does not exist: the answer must be empty.
      const id = local.rand() < 0.1 ? ACCOUNTS + pick(local.rand, 1000) : pick(local.rand, ACCOUNTS);
      const rows = await db.select({ n: accounts.name, on: accounts.active, b: accounts.balance }).from(accounts).where(eq(accounts.id, id));
      const e = id <= ACCOUNTS ? [{ n: `acct-${id}`, on: id % 3 !== 0, b: id * 1.25 }] : [];
      expectSame("builder.pk", rows, e, `id ${id}: `);
      return 1;
    },
  },
  {
    kind: "builder.in",
    weight: 6,
    async run(db, _p, local) {
      // A different number of parameters each time: a different statement text.
      const ids = [...new Set(Array.from({ length: pick(local.rand, 8) }, () => pick(local.rand, ACCOUNTS)))].sort((x, y) => x - y);
      const rows = await db
        .select({ id: accounts.id, name: accounts.name, token: accounts.token })
        .from(accounts)
        .where(inArray(accounts.id, ids))
        .orderBy(asc(accounts.id));
      expectSame(
        "builder.in",
        rows,
        ids.map((id) => ({ id, name: `acct-${id}`, token: tokenOf(id) })),
        `ids ${ids}: `,
      );
      return 1;
    },
  },
  {
    kind: "builder.agg",
    weight: 6,
    async run(db, _p, local) {
      const a = pick(local.rand, ACCOUNTS);
      const rows = await db
        .select({
          c: count(),
          s: sql<string>`sum(${items.amount})::text`,
          avg: sql<number>`avg(${items.position})::float8`.mapWith(Number),
        })
        .from(items)
        .where(eq(items.accountId, a));
      const sum = BigInt(a) * 10_000_000_000n * BigInt(ITEMS_PER_ACCOUNT) + BigInt((ITEMS_PER_ACCOUNT * (ITEMS_PER_ACCOUNT + 1)) / 2);
      expectSame("builder.agg", rows, [{ c: ITEMS_PER_ACCOUNT, s: String(sum), avg: (ITEMS_PER_ACCOUNT + 1) / 2 }], `a ${a}: `);
      return 1;
    },
  },
  {
    kind: "builder.join",
    weight: 6,
    async run(db, _p, local) {
      const a = pick(local.rand, ACCOUNTS);
      const pos = pick(local.rand, ITEMS_PER_ACCOUNT);
      const rows = await db
        .select({ label: items.label, owner: accounts.name, amount: items.amount, meta: accounts.meta })
        .from(items)
        .innerJoin(accounts, eq(items.accountId, accounts.id))
        .where(and(eq(items.accountId, a), eq(items.position, pos)));
      const item = expectedItem(a, pos);
      expectSame("builder.join", rows, [{ label: item.label, owner: `acct-${a}`, amount: item.amount, meta: expectedAccount(a).meta }], `a ${a} p ${pos}: `);
      return 1;
    },
  },
  {
    kind: "tx.commit",
    weight: 12,
    async run(db, p, local) {
      const k = pick(local.rand, 4);
      const tag = `c-${SEED}-${local.w}-${local.seq}`;
      const rows = ledgerRows(local, tag, k);
      const visible: Visible = { tag, k, kind: "commit", state: "open" };
      remember(visible);
      await db.transaction(async (t) => {
        const inserted = await t.insert(ledger).values(rows).returning({ k: ledger.k, value: ledger.value });
        expectSame(
          "tx.commit",
          inserted.sort((x, y) => x.k - y.k),
          rows.map((r) => ({ k: r.k, value: r.value })),
          "returning: ",
        );
        expectSame("tx.commit", await readTag(t, tag), rows, "own rows inside: ");
        const after = await t
          .update(counters)
          .set({ rows: sql`${counters.rows} + ${k}`, txs: sql`${counters.txs} + 1` })
          .where(eq(counters.worker, local.w))
          .returning({ rows: counters.rows, txs: counters.txs });
        expectSame("tx.commit", after, [{ rows: local.rows + k, txs: local.txs + 1 }], "counter inside: ");
      });
      visible.state = "committed";
      local.rows += k;
      local.txs += 1;
      expectSame("tx.commit", await readTag(db, tag), rows, "rows after commit: ");
      expectSame("tx.commit", await p.countersOf.execute({ w: local.w }), [{ rows: local.rows, txs: local.txs }], "counter after commit: ");
      return 7;
    },
  },
  {
    kind: "tx.rollback",
    weight: 5,
    async run(db, p, local) {
      const k = pick(local.rand, 4);
      const tag = `r-${SEED}-${local.w}-${local.seq}`;
      const rows = ledgerRows(local, tag, k);
      remember({ tag, k, kind: "rollback", state: "open" });
      // Half throw our own error, half use Drizzle's tx.rollback().
      const viaDrizzle = local.rand() < 0.5;
      try {
        await db.transaction(async (t) => {
          await t.insert(ledger).values(rows);
          expectSame("tx.rollback", await readTag(t, tag), rows, "own rows inside: ");
          const after = await t
            .update(counters)
            .set({ rows: sql`${counters.rows} + ${k}`, txs: sql`${counters.txs} + 1` })
            .where(eq(counters.worker, local.w))
            .returning({ rows: counters.rows, txs: counters.txs });
          expectSame("tx.rollback", after, [{ rows: local.rows + k, txs: local.txs + 1 }], "counter inside: ");
          if (viaDrizzle) t.rollback();
          throw new Deliberate("roll back");
        });
        wrong("tx.rollback", `transaction ${tag} resolved instead of rolling back`);
      } catch (err) {
        const name = (err as Error)?.constructor?.name;
        if (!(err instanceof Deliberate) && name !== "TransactionRollbackError") throw err;
      }
      expectSame("tx.rollback", await readTag(db, tag), [], "rows after rollback: ");
      expectSame("tx.rollback", await p.countersOf.execute({ w: local.w }), [{ rows: local.rows, txs: local.txs }], "counter after rollback: ");
      return 7;
    },
  },
  {
    kind: "tx.conflict",
    weight: 3,
    async run(db, p, local) {
      // A unique key refuses the last insert: the whole transaction must be undone, and the
      // connection must come back to the pool usable (PostgreSQL aborted the transaction).
      const k = 1 + pick(local.rand, 3);
      const tag = `u-${SEED}-${local.w}-${local.seq}`;
      const rows = ledgerRows(local, tag, k);
      remember({ tag, k, kind: "rollback", state: "open" });
      try {
        await db.transaction(async (t) => {
          await t.insert(ledger).values(rows);
          await t
            .update(counters)
            .set({ rows: sql`${counters.rows} + ${k}` })
            .where(eq(counters.worker, local.w));
          await t.insert(ledger).values({ ...rows[k - 1], value: -1 });
        });
        wrong("tx.conflict", `transaction ${tag} resolved despite a duplicate key`);
      } catch (err) {
        if (sqlState(err) !== "23505") throw err;
      }
      expectSame("tx.conflict", await readTag(db, tag), [], "rows after refused transaction: ");
      expectSame("tx.conflict", await p.countersOf.execute({ w: local.w }), [{ rows: local.rows, txs: local.txs }], "counter after refused transaction: ");
      return 7;
    },
  },
  {
    kind: "tx.savepoint",
    weight: 2,
    async run(db, _p, local) {
      const tag = `s-${SEED}-${local.w}-${local.seq}`;
      const [outer, inner] = ledgerRows(local, tag, 2);
      const visible: Visible = { tag, k: 1, kind: "commit", state: "open" };
      remember(visible);
      await db.transaction(async (t) => {
        await t.insert(ledger).values(outer);
        try {
          await t.transaction(async (s) => {
            await s.insert(ledger).values(inner);
            throw new Deliberate("inner");
          });
        } catch (err) {
          if (!(err instanceof Deliberate)) throw err;
        }
        expectSame("tx.savepoint", await readTag(t, tag), [outer], "outer after inner rollback: ");
        await t
          .update(counters)
          .set({ rows: sql`${counters.rows} + 1`, txs: sql`${counters.txs} + 1` })
          .where(eq(counters.worker, local.w));
      });
      visible.state = "committed";
      local.rows += 1;
      local.txs += 1;
      expectSame("tx.savepoint", await readTag(db, tag), [outer], "after commit: ");
      return 9;
    },
  },
  {
    kind: "tx.lock",
    weight: 8,
    async run(db, _p, local) {
      // Increments of a few hot rows under SELECT ... FOR UPDATE: if a transaction's statements
      // did not all run on its one connection, two would see the same value (checked at the end).
      const h = pick(local.rand, HOT_ROWS);
      await db.transaction(async (t) => {
        const [row] = await t.select({ value: hot.value }).from(hot).where(eq(hot.id, h)).for("update");
        await t
          .update(hot)
          .set({ value: row.value + 1 })
          .where(eq(hot.id, h));
        await t.insert(hotLog).values({ hotId: h, seen: row.value, worker: local.w });
      });
      hotCommitted[h]++;
      return 5;
    },
  },
  {
    kind: "read.others",
    weight: 8,
    async run(db, _p, local) {
      // Another transaction's rows: none while it is open, all of them once it committed, never
      // some; a rolled-back transaction's rows never.
      if (!recent.length) return 0;
      const v = recent[Math.floor(local.rand() * recent.length)];
      const before = v.state;
      const [{ c }] = await db.select({ c: count() }).from(ledger).where(eq(ledger.tag, v.tag));
      const ok = v.kind === "rollback" ? c === 0 : before === "committed" ? c === v.k : c === 0 || c === v.k;
      if (!ok) wrong("read.others", `${v.kind} ${v.tag} (${v.k} rows, ${before} before the read): saw ${c} rows`);
      return 1;
    },
  },
  {
    kind: "read.snapshot",
    weight: 6,
    async run(db, _p, local) {
      // A worker's counter and its rows, in one statement (one snapshot): always equal, because
      // each transaction writes both, all together.
      const w = Math.floor(local.rand() * WORKERS);
      const rows = await db
        .select({
          rows: counters.rows,
          // Qualified by hand: Drizzle leaves the table name out of a one-table select's columns.
          n: sql<number>`(select count(*) from soak_ledger l where l.worker = soak_counters.worker)`.mapWith(Number),
        })
        .from(counters)
        .where(eq(counters.worker, w));
      if (rows.length !== 1 || rows[0].rows !== rows[0].n) wrong("read.snapshot", `worker ${w}: ${canon(rows)}`);
      if (w === local.w) expectSame("read.snapshot", rows, [{ rows: local.rows, n: local.rows }], "own counter: ");
      return 1;
    },
  },
];
// One transaction in about a hundred operations: the likeliest to fill a pipeline of 100 with
// plain queries and put a BEGIN right after them.
if (args.mix === "reads") for (const op of ops) if (op.kind.startsWith("tx.")) op.weight /= 40;
const totalWeight = ops.reduce((sum, op) => sum + op.weight, 0);
function chooseOp(rand: () => number): Op {
  let r = rand() * totalWeight;
  for (const op of ops) {
    r -= op.weight;
    if (r < 0) return op;
  }
  return ops[ops.length - 1];
}

async function soak(db: Db) {
  const p = preparedQueries(db);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const end = started + SECONDS * 1000;
  let opsDone = 0;
  let lastOps = 0;
  const stuck: number[] = [];
  const ticker = setInterval(() => {
    const rate = (opsDone - lastOps) / 10;
    lastOps = opsDone;
    console.error(
      `  ${Math.round((performance.now() - started) / 1000)}s: ${rate.toFixed(0)} ops/s, wrong ${wrongTotal}, errors ${errorTotal}, hangs ${hangTotal}${rate === 0 ? "  STALLED" : ""}`,
    );
  }, 10_000);

  async function worker(w: number) {
    const local: Local = { w, rows: 0, txs: 0, seq: 0, rand: mulberry32(SEED * 1000 + w) };
    while (performance.now() < end) {
      const op = chooseOp(local.rand);
      const s = kindStats(op.kind);
      const t0 = performance.now();
      try {
        const statements = await withTimeout(op.run(db, p, local), HANG_MS);
        s.lat.push(performance.now() - t0);
        s.ops++;
        s.statements += statements;
        opsDone++;
      } catch (err) {
        if (err instanceof Hang) {
          // This worker's expectations (its counter) are unknown from here: it stops.
          s.hangs++;
          hangTotal++;
          stuck.push(w);
          if (errorSamples.length < 30) errorSamples.push(`HANG ${op.kind} worker ${w} seq ${local.seq}`);
          console.error(`HANG ${op.kind} worker ${w} seq ${local.seq}`);
          return;
        }
        s.errors++;
        errorTotal++;
        if (errorSamples.length < 30) errorSamples.push(`${op.kind}: ${explain(err)}`);
        if (errorTotal <= 5) console.error(`ERROR ${op.kind}: ${explain(err)}`);
      }
      local.seq++;
    }
    // The counter a worker kept is what the database holds.
    expectSame("final.counter", await p.countersOf.execute({ w }), [{ rows: local.rows, txs: local.txs }], `worker ${w}: `);
  }

  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  clearInterval(ticker);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);

  // Every locked increment counted once, each seen value once.
  const hotRows = await db.select({ id: hot.id, value: hot.value }).from(hot).orderBy(asc(hot.id));
  const logs = await db
    .select({
      h: hotLog.hotId,
      n: count(),
      distinct: sql<number>`count(distinct ${hotLog.seen})`.mapWith(Number),
      max: sql<number>`max(${hotLog.seen})`.mapWith(Number),
    })
    .from(hotLog)
    .groupBy(hotLog.hotId)
    .orderBy(asc(hotLog.hotId));
  for (const row of hotRows) {
    const log = logs.find((l) => l.h === row.id) ?? { n: 0, distinct: 0, max: -1 };
    const ok = row.value === hotCommitted[row.id] && log.n === row.value && log.distinct === row.value && log.max === row.value - 1;
    if (!ok && stuck.length === 0) wrong("final.hot", `row ${row.id}: value ${row.value}, committed ${hotCommitted[row.id]}, log ${canon(log)}`);
  }
  return { elapsed, stuck, cpuMicros: cpu.user + cpu.system };
}

// ---------------------------------------------------------------------------------------------
// Throughput.

// CPU of this process per operation too: on a shared machine the wall clock says as much about
// the neighbours as about the driver, while the client's own CPU is the driver's cost.
type BenchResult = { name: string; concurrency: number; opsPerSecond: number; p50: number; p99: number; cpuMicrosPerOp: number; wrong: number; errors: number };

/** node-postgres answers execute() with a result object, the two others with the rows. */
function rowsOf(answer: unknown): Record<string, unknown>[] {
  return Array.isArray(answer) ? answer : (answer as { rows: Record<string, unknown>[] }).rows;
}

let backendsUsed: { transactions: number; plain: number } | undefined;

async function bench(db: Db): Promise<BenchResult[]> {
  const cases: { name: string; run(i: number, n: number): Promise<void> }[] = [
    {
      name: "row by primary key",
      async run(_i, n) {
        const id = 1 + (n % ACCOUNTS);
        const rows = await db.select().from(accounts).where(eq(accounts.id, id));
        if (rows.length !== 1 || rows[0].id !== id || rows[0].name !== `acct-${id}`) wrong("bench.pk", `id ${id}: ${canon(rows).slice(0, 200)}`);
      },
    },
    {
      name: "page of 50 rows",
      async run(_i, n) {
        const a = 1 + (n % ACCOUNTS);
        const rows = await db.select().from(items).where(eq(items.accountId, a)).orderBy(asc(items.position)).limit(50);
        if (rows.length !== 50 || rows[49].label !== `item-${a}-50`) wrong("bench.page", `a ${a}: ${rows.length} rows`);
      },
    },
    {
      name: "write transaction (insert + update)",
      async run(i, n) {
        const w = BENCH_WORKER_BASE + i;
        await db.transaction(async (t) => {
          await t.insert(ledger).values({ worker: w, tag: `b-${SEED}-${i}-${n}-${Math.random()}`, k: 0, value: n, note: null });
          await t
            .update(counters)
            .set({ rows: sql`${counters.rows} + 1`, txs: sql`${counters.txs} + 1` })
            .where(eq(counters.worker, w));
        });
      },
    },
  ];
  const results: BenchResult[] = [];
  for (const c of cases) {
    for (const concurrency of [1, 16]) {
      const lat: number[] = [];
      let errors = 0;
      const wrongBefore = wrongTotal;
      const end = performance.now() + BENCH_SECONDS * 1000;
      const cpuBefore = process.cpuUsage();
      let n = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async (_, i) => {
          while (performance.now() < end) {
            const t0 = performance.now();
            try {
              await withTimeout(c.run(i, n++), HANG_MS);
              lat.push(performance.now() - t0);
            } catch (err) {
              errors++;
              errorTotal++;
              if (errorSamples.length < 30) errorSamples.push(`bench ${c.name}: ${explain(err)}`);
              if (err instanceof Hang) return;
            }
          }
        }),
      );
      const cpu = process.cpuUsage(cpuBefore);
      lat.sort((x, y) => x - y);
      const r = {
        name: c.name,
        concurrency,
        opsPerSecond: lat.length / BENCH_SECONDS,
        p50: percentile(lat, 50),
        p99: percentile(lat, 99),
        cpuMicrosPerOp: (cpu.user + cpu.system) / Math.max(1, lat.length),
        wrong: wrongTotal - wrongBefore,
        errors,
      };
      results.push(r);
      console.error(
        `  ${c.name} at ${concurrency}: ${r.opsPerSecond.toFixed(0)}/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, client CPU ${r.cpuMicrosPerOp.toFixed(0)} µs/op`,
      );
    }
  }
  // Which connection a pool hands out when it has several idle: the most recently used (its
  // backend process is awake and warm) or each in turn (64 backends to wake, one per request).
  const pids = new Set<unknown>();
  for (let i = 0; i < 50; i++) await db.transaction(async (t) => pids.add(rowsOf(await t.execute(sql`select pg_backend_pid() as pid`))[0].pid));
  const plainPids = new Set<unknown>();
  for (let i = 0; i < 50; i++) plainPids.add(rowsOf(await db.execute(sql`select pg_backend_pid() as pid`))[0].pid);
  backendsUsed = { transactions: pids.size, plain: plainPids.size };
  console.error(`  50 transactions one after another used ${pids.size} connection(s); 50 plain queries ${plainPids.size}`);
  return results;
}

// ---------------------------------------------------------------------------------------------
// Probes: the known hazards, replayed on the bare client with the shapes their threads give.

type ProbeResult = { name: string; ok: boolean; detail: string };

async function settle<T>(promise: Promise<T>, ms = 5000): Promise<{ value?: T; error?: unknown; hung?: boolean }> {
  try {
    return { value: await withTimeout(promise, ms) };
  } catch (error) {
    return error instanceof Hang ? { hung: true } : { error };
  }
}

async function probesBun(url: string): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];

  // oven-sh/bun#33627 (one cause behind #30494 and #33665): a prepared statement's Bind+Execute
  // written ahead of a queued statement that still has to be parsed; replies are matched in order.
  {
    const s = new BunSQL({ url, max: 1 });
    let bad = "";
    for (let i = 0; i < 200 && !bad; i++) {
      await s.unsafe("SELECT $1::text AS v", ["warm"]);
      const a = s.unsafe("SELECT $1::text AS v", [`A${i}`]);
      const b = s.unsafe(`SELECT $1::text AS v, $2::int AS w${i}`, [`B${i}`, i]);
      const c = s.unsafe("SELECT $1::text AS v", [`C${i}`]);
      const [ra, rb, rc] = await Promise.all([settle(a), settle(b), settle(c)]);
      const got = [ra, rb, rc].map((r) => (r.hung ? "HANG" : r.error ? explain(r.error) : canon([...(r.value as unknown[])])));
      const expected = [canon([{ v: `A${i}` }]), canon([{ v: `B${i}`, [`w${i}`]: i }]), canon([{ v: `C${i}` }])];
      if (got.some((g, j) => g !== expected[j])) bad = `iteration ${i}: got ${got.join(" | ")}`;
    }
    await s.close({ timeout: 1 }).catch(() => {});
    results.push({ name: "bun#33627 prepared burst (max 1, 200 rounds)", ok: !bad, detail: bad || "all answers right" });
  }

  // oven-sh/bun#32772: a simple-protocol query (no parameters, as BEGIN/COMMIT are sent) next to a
  // parameterized query seen for the first time.
  {
    const s = new BunSQL({ url, max: 1 });
    let bad = "";
    for (let i = 0; i < 200 && !bad; i++) {
      const a = s.unsafe(`SELECT 'A${i}'::text AS v`);
      const b = s.unsafe(`SELECT $1::text AS v${i}`, [`B${i}`]);
      const c = s.unsafe(`SELECT 'C${i}'::text AS v`);
      const [ra, rb, rc] = await Promise.all([settle(a), settle(b), settle(c)]);
      const got = [ra, rb, rc].map((r) => (r.hung ? "HANG" : r.error ? explain(r.error) : canon([...(r.value as unknown[])])));
      const expected = [canon([{ v: `A${i}` }]), canon([{ [`v${i}`]: `B${i}` }]), canon([{ v: `C${i}` }])];
      if (got.some((g, j) => g !== expected[j])) bad = `iteration ${i}: got ${got.join(" | ")}`;
    }
    await s.close({ timeout: 1 }).catch(() => {});
    results.push({ name: "bun#32772 simple + first-use parameterized (max 1, 200 rounds)", ok: !bad, detail: bad || "all answers right" });
  }

  // The same burst with 64 concurrent different statements on a pool of 4 (pipelining on).
  {
    const s = new BunSQL({ url, max: 4 });
    let bad = "";
    let asked = 0;
    for (let round = 0; round < 50 && !bad; round++) {
      const pending = Array.from({ length: 64 }, (_, i) => {
        const shape = (round * 64 + i) % 7;
        asked++;
        const text = `SELECT $1::int AS n${shape}, $2::text AS t, ${shape % 2 ? "$3::bigint" : "$3::float8"} AS x, ${shape}::int AS s`;
        return settle(s.unsafe(text, [i, `r${round}-${i}`, i * 3])).then((r) => {
          const got = r.hung ? "HANG" : r.error ? explain(r.error) : canon([...(r.value as unknown[])]);
          const x = shape % 2 ? String(i * 3) : i * 3;
          const want = canon([{ [`n${shape}`]: i, t: `r${round}-${i}`, x, s: shape }]);
          // Bun.SQL reads bigint as a string or a BigInt depending on its options: accept either.
          const wantBig = canon([{ [`n${shape}`]: i, t: `r${round}-${i}`, x: BigInt(i * 3), s: shape }]);
          if (got !== want && got !== wantBig && !bad) bad = `round ${round} query ${i}: expected ${want} got ${got}`;
        });
      });
      await Promise.all(pending);
    }
    await s.close({ timeout: 1 }).catch(() => {});
    results.push({ name: `mixed shapes, 64 in flight on 4 connections (${asked} queries)`, ok: !bad, detail: bad || "all answers right" });
  }

  // oven-sh/bun#28980: one server-side statement per null pattern of the same text (memory on the
  // server grows with it). Informative: not a wrong answer.
  {
    const s = new BunSQL({ url, max: 1 });
    for (let i = 0; i < 16; i++)
      await s.unsafe("SELECT $1::text AS a, $2::text AS b, $3::text AS c, $4::text AS d", [
        i & 1 ? null : "x",
        i & 2 ? null : "x",
        i & 4 ? null : "x",
        i & 8 ? null : "x",
      ]);
    const [{ n }] = [...(await s.unsafe("SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%$4::text AS d%'"))] as { n: number }[];
    await s.close({ timeout: 1 }).catch(() => {});
    results.push({
      name: "bun#28980 statements for one text with 16 null patterns (informative)",
      ok: true,
      detail: `${n} prepared statement(s) on the server`,
    });
  }
  return results;
}

async function probesPostgresJs(url: string): Promise<ProbeResult[]> {
  // porsager/postgres#1189: with the connection's pipeline full (max_pipeline, 100), BEGIN is sent
  // but the connection is not reserved for the transaction. One connection, N plain queries then
  // a transaction, for N around the boundary. Then a plain insert: is it visible to another
  // connection (committed), or did it land inside the stray transaction?
  const results: ProbeResult[] = [];
  const other = postgres(url, { max: 1, onnotice: () => {} });
  await other`DELETE FROM soak_probe`;
  const found: string[] = [];
  for (let n = 97; n <= 103; n++) {
    const s = postgres(url, { max: 1, onnotice: () => {} });
    await s`SELECT 1`;
    const plain = Array.from({ length: n }, (_, i) => settle(s`SELECT ${i}::int AS i`.then((r) => r[0].i === i)));
    const tx = settle(s.begin((t) => t`SELECT 1 AS one`));
    const [txResult, ...plainResults] = await Promise.all([tx, ...plain]);
    const plainBad = plainResults.filter((r) => r.value !== true).length;
    const marker = 1000 + n;
    const write = await settle(s`INSERT INTO soak_probe VALUES (${marker})`);
    const [{ c }] = await other`SELECT count(*)::int AS c FROM soak_probe WHERE id = ${marker}`;
    const [{ stray }] =
      await other`SELECT count(*)::int AS stray FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
    if (txResult.error || txResult.hung || plainBad || write.error || c !== 1 || stray)
      found.push(
        `${n} queries then BEGIN: transaction ${txResult.hung ? "HANG" : txResult.error ? explain(txResult.error) : "ok"}; later INSERT acknowledged=${!write.error} but visible to others=${c === 1}; sessions idle in transaction: ${stray}`,
      );
    await s.end({ timeout: 1 }).catch(() => {});
  }
  results.push({
    name: "postgres#1189 BEGIN at the pipeline boundary (max 1, 97..103 queued)",
    ok: !found.length,
    detail: found.join("\n      ") || "no stray transaction",
  });

  // The same through Drizzle, as the product would meet it: a burst of reads larger than the
  // pool, then a transaction (db.transaction is sql.begin underneath).
  const viaDrizzle: string[] = [];
  for (let n = 97; n <= 103; n++) {
    const s = postgres(url, { max: 1, onnotice: () => {} });
    const db = drizzlePostgresJs({ client: s });
    // A named prepared read (Db.prepareRead's hot paths): postgres.js pipelines those once
    // described; an unnamed parameterized query waits for its Describe and fills no pipeline.
    const read = db
      .select({ id: accounts.id })
      .from(accounts)
      .where(eq(accounts.id, sql.placeholder("id")))
      .prepare("soak_probe_read");
    await read.execute({ id: 1 });
    const reads = Array.from({ length: n }, (_, i) => settle(read.execute({ id: 1 + i }).then((r) => r.length === 1 && r[0].id === 1 + i)));
    // Drizzle reaches the client a few microtasks after execute(); requests of a server arrive in
    // later turns anyway. Let the reads reach the connection before the transaction starts.
    for (let hop = 0; hop < 50; hop++) await null;
    const marker = 2000 + n;
    const tx = settle(db.transaction(async (t) => t.insert(probe).values({ id: marker })));
    const [txResult, ...readResults] = await Promise.all([tx, ...reads]);
    const readsBad = readResults.filter((r) => r.value !== true).length;
    const [{ c }] = await other`SELECT count(*)::int AS c FROM soak_probe WHERE id = ${marker}`;
    const later = 3000 + n;
    const write = await settle(db.transaction(async (t) => t.insert(probe).values({ id: later })));
    const [{ c: laterSeen }] = await other`SELECT count(*)::int AS c FROM soak_probe WHERE id = ${later}`;
    if (txResult.error || txResult.hung || readsBad || c !== 1 || write.error || laterSeen !== 1)
      viaDrizzle.push(
        `${n} reads then db.transaction: ${txResult.hung ? "HANG" : txResult.error ? explain(txResult.error) : "resolved"}, its row visible=${c === 1}; the next db.transaction ${write.error ? explain(write.error) : "resolved"}, its row visible=${laterSeen === 1}`,
      );
    await s.end({ timeout: 1 }).catch(() => {});
  }
  await other.end({ timeout: 1 });
  results.push({
    name: "postgres#1189 through Drizzle: a burst of prepared reads, then db.transaction (pool of 1)",
    ok: !viaDrizzle.length,
    detail: viaDrizzle.join("\n      ") || "no stray transaction",
  });
  return results;
}

// ---------------------------------------------------------------------------------------------

const packageVersion = async (name: string) =>
  ((await Bun.file(`${import.meta.dir}/../../node_modules/${name}/package.json`).json()) as { version: string }).version;
const versions: Record<Driver, string> = {
  pg: `pg ${await packageVersion("pg")}`,
  "pg-bun": `pg ${await packageVersion("pg")} over Bun.connect`,
  postgres: `postgres ${await packageVersion("postgres")}`,
  bun: `Bun.SQL (bun ${Bun.version})`,
};
console.log(`driver: ${versions[DRIVER]}, drizzle-orm ${await packageVersion("drizzle-orm")}; seed ${SEED}`);

const client = openClient(DRIVER, URL_, POOL);
const [{ version }] = rowsOf(await client.db.execute(sql`select version() as version`));
console.log(`server: ${String(version).split(" on ")[0]}`);
await setup(client.db);

let probes: ProbeResult[] = [];
if (!args["no-probes"]) {
  console.log("\nprobes (bare client):");
  probes = DRIVER === "bun" ? await probesBun(URL_) : DRIVER === "postgres" ? await probesPostgresJs(URL_) : [];
  if (!probes.length) console.log("  none known for this driver");
  for (const p of probes) console.log(`  ${p.ok ? "ok  " : "FAIL"} ${p.name}: ${p.detail}`);
}

let soakResult: { elapsed: number; stuck: number[]; cpuMicros: number } | undefined;
const rows: { kind: string; ops: number; opsPerSecond: number; p50: number; p99: number; wrong: number; errors: number; hangs: number }[] = [];
let overall:
  | { ops: number; statements: number; opsPerSecond: number; statementsPerSecond: number; p50: number; p99: number; cpuMicrosPerStatement: number }
  | undefined;
if (!args["no-soak"]) {
  console.log(`\nsoak: ${WORKERS} workers, pool ${POOL}, ${SECONDS}s, mix ${args.mix}`);
  soakResult = await soak(client.db);
  const all: number[] = [];
  let opsTotal = 0;
  let statementsTotal = 0;
  for (const [kind, s] of [...stats].sort((x, y) => x[0].localeCompare(y[0]))) {
    s.lat.sort((x, y) => x - y);
    all.push(...s.lat);
    opsTotal += s.ops;
    statementsTotal += s.statements;
    rows.push({
      kind,
      ops: s.ops,
      opsPerSecond: s.ops / soakResult.elapsed,
      p50: percentile(s.lat, 50),
      p99: percentile(s.lat, 99),
      wrong: s.wrong,
      errors: s.errors,
      hangs: s.hangs,
    });
  }
  all.sort((x, y) => x - y);
  overall = {
    ops: opsTotal,
    statements: statementsTotal,
    opsPerSecond: opsTotal / soakResult.elapsed,
    statementsPerSecond: statementsTotal / soakResult.elapsed,
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    cpuMicrosPerStatement: soakResult.cpuMicros / Math.max(1, statementsTotal),
  };
  console.log("  kind            ops      ops/s   p50 ms   p99 ms  wrong  errors  hangs");
  for (const r of rows)
    console.log(
      `  ${r.kind.padEnd(14)} ${String(r.ops).padStart(8)} ${r.opsPerSecond.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${String(r.wrong).padStart(6)} ${String(r.errors).padStart(7)} ${String(r.hangs).padStart(6)}`,
    );
  console.log(
    `  all: ${overall.ops} ops (${overall.opsPerSecond.toFixed(0)}/s), ${overall.statements} statements (${overall.statementsPerSecond.toFixed(0)}/s), p50 ${overall.p50.toFixed(2)} ms, p99 ${overall.p99.toFixed(2)} ms, client CPU ${overall.cpuMicrosPerStatement.toFixed(0)} µs/statement, wrong ${wrongTotal}, errors ${errorTotal}, hangs ${hangTotal}`,
  );
}

let benchResults: BenchResult[] = [];
if (!args["no-bench"] && hangTotal === 0) {
  console.log(`\nthroughput (${BENCH_SECONDS}s each, pool ${POOL}):`);
  benchResults = await bench(client.db);
}

if (wrongSamples.length) console.log(`\nwrong answers (first ${wrongSamples.length}):\n  ${wrongSamples.join("\n  ")}`);
if (errorSamples.length) console.log(`\nerrors (first ${errorSamples.length}):\n  ${errorSamples.join("\n  ")}`);

const probeFailures = probes.filter((p) => !p.ok).length;
if (args.json)
  writeFileSync(
    args.json,
    JSON.stringify(
      {
        driver: DRIVER,
        version: versions[DRIVER],
        seed: SEED,
        workers: WORKERS,
        pool: POOL,
        seconds: SECONDS,
        probes,
        soak: { overall, kinds: rows, stuck: soakResult?.stuck },
        bench: benchResults,
        backendsUsed,
        wrongTotal,
        errorTotal,
        hangTotal,
        wrongSamples,
        errorSamples,
      },
      null,
      2,
    ),
  );

// A hung transaction holds its connection: do not wait for it to close.
await withTimeout(client.close(), 10_000).catch(() => console.error("the pool did not close within 10 s"));
const failed = wrongTotal + errorTotal + hangTotal + probeFailures > 0;
console.log(`\n${failed ? "FAIL" : "PASS"}: ${wrongTotal} wrong answers, ${errorTotal} errors, ${hangTotal} hangs, ${probeFailures} failed probes`);
process.exit(failed ? 1 : 0);
