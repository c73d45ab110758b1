// The only module that knows the dialect. It opens the SQLite file with two connections — one
// writer behind a FIFO mutex, one reader (WAL lets reads run beside the writer) — and hands lib/
// a `Db`: `read` for queries, `tx(fn)` for every write. Moving to PostgreSQL means a new
// implementation of this file, not of lib/.
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { type BunSQLiteDatabase, drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import * as schema from "./schema";

export { schema };
export type Schema = typeof schema;
export type Queryable = BunSQLiteDatabase<Schema>;

export type Db = {
  /** Reads; never write through it (a write here would wait on the writer's lock and fail). */
  read: Queryable;
  /**
   * Runs `fn` in one transaction (`BEGIN IMMEDIATE`) on the writer connection, after every
   * transaction queued before it. Rolls back when `fn` throws. `fn` may await, but must not do
   * network I/O: queue a job instead.
   */
  tx<T>(fn: (t: Queryable) => Promise<T>): Promise<T>;
  /**
   * A read query built once per database and kept prepared, for hot paths: building a select of a
   * wide table (clubs has 100+ columns) costs ten times more than running it. `name` identifies
   * the query; values come through `sql.placeholder("x")` and `.execute({ x })`. The builder is
   * handed unprepared so each dialect prepares it its own way (PostgreSQL needs the name).
   */
  prepareRead<P>(name: string, build: (q: Queryable) => { prepare(): P }): P;
  /** Path of the database file (`:memory:` for none). */
  path: string;
  /** Runs a SQLite-only statement outside lib/ concerns (backup, integrity check). */
  raw: Database;
  close(): void;
};

const MIGRATIONS = join(import.meta.dir, "migrations");

function configure(conn: Database, writer: boolean) {
  conn.exec("PRAGMA busy_timeout = 5000");
  conn.exec("PRAGMA foreign_keys = ON");
  if (writer) {
    conn.exec("PRAGMA journal_mode = WAL");
    // An acknowledged write must survive a power cut: FULL syncs the WAL at each commit.
    conn.exec("PRAGMA synchronous = FULL");
  }
}

/** A FIFO mutex: transactions run one after the other in the order they asked. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

export function openDb(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const writerConn = new Database(path, { create: true, strict: true });
  configure(writerConn, true);
  // An in-memory database cannot be shared between connections: reads use the writer then.
  const readerConn = path === ":memory:" ? writerConn : new Database(path, { strict: true });
  if (readerConn !== writerConn) configure(readerConn, false);
  const writer = drizzle({ client: writerConn, schema });
  const reader = drizzle({ client: readerConn, schema });
  migrate(writer, { migrationsFolder: MIGRATIONS });
  const mutex = new Mutex();
  const preparedReads = new Map<string, unknown>();
  return {
    read: reader,
    prepareRead<P>(name: string, build: (q: Queryable) => { prepare(): P }): P {
      let query = preparedReads.get(name) as P | undefined;
      if (query === undefined) {
        query = build(reader).prepare();
        preparedReads.set(name, query);
      }
      return query;
    },
    path,
    raw: writerConn,
    tx: (fn) =>
      mutex.run(async () => {
        writerConn.exec("BEGIN IMMEDIATE");
        try {
          const result = await fn(writer);
          writerConn.exec("COMMIT");
          return result;
        } catch (err) {
          if (writerConn.inTransaction) writerConn.exec("ROLLBACK");
          throw err;
        }
      }),
    close() {
      if (readerConn !== writerConn) readerConn.close();
      writerConn.close();
    },
  };
}
