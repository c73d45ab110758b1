// The PostgreSQL engine: DATABASE_URL=postgres://... A pool of node-postgres connections (the
// client chosen by the soak in docs/decisions.md), Drizzle's PostgreSQL builders over it, and the
// `Db` of db/index.ts. Transactions run side by side at READ COMMITTED: what must hold under
// concurrency holds by a constraint, a row lock or a conditional write (see db/locks.ts), and a
// transaction that loses a deadlock is run again.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { drizzle, type NodePgDatabase, NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { SQL } from "drizzle-orm";
import { type Ahead, aheadOf, type Db, DatabaseRefused, type Queryable, type Schema, schema } from "./index";
import { BunSocketStream, bunSocketFor, statementMessages } from "./pg-socket";
import { codesOf, unavailability } from "./unavailable";

const MIGRATIONS = join(import.meta.dir, "pg-migrations");

/** Connections one process keeps; several processes share the server's max_connections. */
const POOL_SIZE = 16;
/** How long a request waits for a connection (or a new one) before it is answered 503. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Times a transaction that lost a deadlock or a serialization conflict is tried again. */
const RETRIES = 8;

/**
 * Integers come back as numbers, as from SQLite: `count(*)` and `sum()` are bigint and numeric
 * in PostgreSQL, which node-postgres would hand over as strings. Every value here is a count or
 * an amount in cents, far below 2^53. Set on the driver's own table: Drizzle's queries pass a
 * type table of their own that falls back to it (a pool's `types` option never reaches them).
 */
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value: string) => Number(value));

/** The address without its password, for messages and `Db.path`. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unreadable address)";
  }
}

function where(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || "localhost"}:${u.port || 5432}${u.pathname}`;
  } catch {
    return url;
  }
}

/** What an error met at start means for the operator, in one line. */
function refusal(url: string, err: unknown): DatabaseRefused {
  const said = err instanceof Error ? err.message || String((err as { code?: string }).code) : String(err);
  const code = (err as { code?: string })?.code;
  if (code === "28P01" || code === "28000") return new DatabaseRefused(`PostgreSQL at ${where(url)} refused the user or password of DATABASE_URL (${said}).`);
  if (code === "3D000") return new DatabaseRefused(`PostgreSQL at ${where(url)} has no such database (${said}): create it, or correct DATABASE_URL.`);
  if (unavailability(err) === "down")
    return new DatabaseRefused(`PostgreSQL at ${where(url)} (DATABASE_URL) cannot be reached: ${said}. Start it, or correct DATABASE_URL.`);
  return new DatabaseRefused(`PostgreSQL at ${where(url)} (DATABASE_URL) cannot be used: ${said}`);
}

/** Statement names are at most 63 bytes in PostgreSQL; a longer one is shortened by its hash. */
function statementName(name: string): string {
  if (name.length <= 63) return name;
  return `${name.slice(0, 22)}:${createHash("sha1").update(name).digest("hex")}`;
}

/**
 * The prepared query `base` (built on the pool) run on the connection of the transaction `t`:
 * Drizzle's node-postgres query sends through its `client`, every other part of it (text,
 * parameters, the row mapping) is the same for every transaction. `t` the pool itself: `base`.
 */
function onConnectionOf<P extends { client: unknown }>(base: P, t: Queryable): P {
  const client = (t as unknown as { session?: { client?: unknown } }).session?.client;
  if (client === undefined || client === base.client) return base;
  return Object.create(base, { client: { value: client } });
}

/** Names of statements sent ahead, by their text (db/index.ts `Ahead`). */
const aheadNames = new Map<string, string>();

/**
 * Statements sent ahead of the next one on `client`'s connection (db/index.ts `Ahead`): each
 * prepared under a name of its own the first time on the connection (pg's record of what it has
 * parsed there, so that it is parsed once), bound and run after. A value the text protocol would
 * have to convert (pg's own conversions are for the statements it sends) is not sent ahead.
 */
function aheadOn(client: pg.PoolClient, stream: BunSocketStream, dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } }): Ahead {
  const messages = (query: SQL | { text: string; params: readonly unknown[] }): Buffer | null => {
    const { text, params } = "text" in query ? query : (({ sql, params }) => ({ text: sql, params }))(dialect.sqlToQuery(query));
    // As pg writes them: a number or a boolean as its text.
    if (!params.every((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean" || v === null)) return null;
    let name = aheadNames.get(text);
    if (name === undefined) {
      name = `ahead:${createHash("sha1").update(text).digest("hex")}`;
      aheadNames.set(text, name);
    }
    const parsed = (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
    const first = parsed[name] === undefined;
    if (first) parsed[name] = text;
    return statementMessages(
      name,
      first ? text : null,
      params.map((v) => (v === null ? null : String(v))),
    );
  };
  return {
    send(query) {
      const bytes = messages(query);
      if (bytes) stream.sendAhead(bytes, "a statement sent ahead");
      return bytes !== null;
    },
    read(query) {
      const bytes = messages(query);
      if (!bytes) return null;
      const rows = stream.readAhead(bytes, "a select read ahead");
      // A caller that awaits the rows before its next statement writes nothing to carry them: by
      // the end of this job an empty query takes them, through pg's queue (after whatever query
      // is in flight, whose answer comes first), never waiting for a write that will not come.
      queueMicrotask(() => {
        if (stream.waitingAhead) client.query("").catch(() => {});
      });
      return rows;
    },
  };
}

/** A deadlock or a serialization conflict: the transaction may simply be run again. */
const retryable = (err: unknown) => codesOf(err).some((code) => code === "40001" || code === "40P01");

/**
 * Runs `fn` in one transaction on a connection of `pool`, as Drizzle's `db.transaction` does,
 * but with BEGIN, COMMIT and ROLLBACK sent as plain text: Drizzle builds a statement object for
 * each (and for COMMIT a round of its query pipeline), a part of every short transaction's CPU.
 * The transaction `t` is Drizzle's own, on the connection. A connection whose BEGIN or ROLLBACK
 * failed is dropped from the pool (its state is unknown), not handed to the next request.
 */
function transactions(db: NodePgDatabase<Schema>, pool: pg.Pool) {
  const inner = db as unknown as { dialect: ConstructorParameters<typeof NodePgSession>[1]; session: { schema: never; options: never } };
  const { dialect } = inner;
  const { schema: relations, options } = inner.session;
  // `late`: COMMIT without waiting for the disk (Db.lateCommits); the setting is read at COMMIT,
  // so it goes in the same message, no round trip more.
  return async <T>(fn: (t: Queryable) => Promise<T>, late = false): Promise<T> => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      // Over Bun's socket, BEGIN leaves in the same write as the first statement (one round trip
      // less: db/pg-socket.ts); a BEGIN that fails fails that statement and drops the connection.
      const stream = (client as unknown as { connection: { stream: unknown } }).connection.stream;
      if (stream instanceof BunSocketStream) stream.beginWithNext();
      else
        await client.query("BEGIN").catch((err) => {
          broken = err;
          throw err;
        });
      const t = new NodePgTransaction(dialect, new NodePgSession(client, dialect, relations, options), relations);
      if (stream instanceof BunSocketStream) aheadOf.set(t as unknown as Queryable, aheadOn(client, stream, dialect));
      let result: T;
      try {
        result = await fn(t as unknown as Queryable);
        await client.query(late ? "SET LOCAL synchronous_commit TO off; COMMIT" : "COMMIT");
      } catch (err) {
        // After a failed COMMIT the server has rolled back already; ROLLBACK then only warns.
        await client.query("ROLLBACK").catch((rollbackErr) => {
          broken = rollbackErr;
        });
        throw err;
      }
      return result;
    } finally {
      client.release(broken);
    }
  };
}

/** Migrates under an advisory lock: several processes starting at once migrate once. */
async function migrated(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    // Any fixed number: the lock is the whole server's, held only while migrating.
    await client.query("SELECT pg_advisory_lock(7261001)");
    try {
      await migrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS });
    } finally {
      await client.query("SELECT pg_advisory_unlock(7261001)");
    }
  } finally {
    client.release();
  }
}

export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    application_name: "club-api",
    // Bun's own socket, not node:net's emulation: a fifth of a check-in's CPU (db/pg-socket.ts).
    // pg passes the connection's config (typed as taking none) and types the answer as a Duplex.
    stream: bunSocketFor as unknown as pg.PoolConfig["stream"],
  });
  // A connection cut while idle (the server restarted) is dropped from the pool; the next query
  // opens a new one. Without a listener the error would end the process. A connection cut while
  // checked out (a transaction holds it) emits its error on the client itself, where the pool
  // listens no more: each client gets a listener of its own (its queries fail anyway, answered
  // 503, and the pool drops it when it is released).
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  try {
    await migrated(pool);
  } catch (err) {
    await pool.end().catch(() => {});
    throw refusal(url, err);
  }
  const db: NodePgDatabase<Schema> = drizzle({ client: pool, schema });
  const prepared = new Map<string, unknown>();
  const transaction = transactions(db, pool);
  function prepareTx<P>(name: string, build: (q: Queryable) => { prepare(): P }): (t: Queryable) => P {
    // Built once (building it was most of a check-in's CPU in our process), then run on the
    // transaction's own connection: a statement prepared on the pool would run on whichever
    // connection is free, outside the transaction. The server keeps the parsed statement per
    // connection by its name.
    const named = statementName(`tx:${name}`);
    return (t) => {
      let base = prepared.get(named) as (P & { client: unknown }) | undefined;
      if (base === undefined) {
        base = (build(db as unknown as Queryable) as unknown as { prepare(name: string): P & { client: unknown } }).prepare(named);
        prepared.set(named, base);
      }
      return onConnectionOf(base, t);
    };
  }
  const tx = async <T>(fn: (t: Queryable) => Promise<T>, options: { once?: boolean; single?: boolean } | undefined, late: boolean): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      try {
        // One statement is a transaction of its own: atomic and durable when it answers.
        return options?.single ? await fn(db as unknown as Queryable) : await transaction(fn, late);
      } catch (err) {
        if (options?.once || attempt >= RETRIES || !retryable(err)) throw err;
        // Both sides of a deadlock are retried; a random wait lets one of them pass first.
        await Bun.sleep(Math.random() * 5 * (attempt + 1));
      }
    }
  };
  const durable: Db = {
    engine: "postgres",
    read: db as unknown as Queryable,
    tx: (fn, options) => tx(fn, options, false),
    lateCommits: () => late,
    prepareRead<P>(name: string, build: (q: Queryable) => { prepare(): P }): P {
      let query = prepared.get(name) as P | undefined;
      if (query === undefined) {
        query = (build(db as unknown as Queryable) as unknown as { prepare(name: string): P }).prepare(statementName(name));
        prepared.set(name, query);
      }
      return query;
    },
    prepareTx,
    prepareRows(name, rows, _width, build) {
      const statement = prepareTx(`${name}:${rows}`, (q) => build(q, rows) as { prepare(): { execute(values: unknown): Promise<unknown> } });
      return (t) => ({
        async run(values) {
          await statement(t).execute(values);
        },
      });
    },
    othersWrote: () => false,
    bulkWrites: () => () => {},
    path: shown(url),
    // SQLite's connection: there is none (a getter that threw would break `{ ...db }`).
    raw: undefined as never,
    async query<R>(text: string, params: unknown[] = [], name?: string) {
      return (await pool.query(name ? { name: statementName(name), text, values: params } : { text, values: params })).rows as R[];
    },
    async close() {
      await pool.end();
    },
  };
  const late: Db = { ...durable, tx: (fn, options) => tx(fn, options, true), lateCommit: true };
  return durable;
}
