// What lib/ sees of the database, whichever engine holds it: a `Db` with `read` for queries and
// `tx(fn)` for every write. The engine is chosen by DATABASE_URL (db/dialect.ts); db/sqlite.ts
// and db/pg.ts are the two implementations, and nothing outside db/ names either.
import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { fillPlaceholders, inArray, type SQL, sql } from "drizzle-orm";
import { ENGINE, type Engine, engineOf } from "./dialect";
import * as schema from "./schema";
import { codesOf } from "./unavailable";

export { schema };
export type Schema = typeof schema;

/**
 * The query builder lib/ writes with: the part of Drizzle's API that both dialects share
 * (select, insert, update, delete with returning and on-conflict, `$count`, prepared queries).
 * It is typed with SQLite's builder types, one surface to check against, less the methods only
 * SQLite has (`get`, `all`, `run`, `values`, the client): on PostgreSQL the same calls reach
 * Drizzle's PostgreSQL builder, and the whole suite runs on both (test/db/dialect-neutral.test.ts
 * keeps SQLite-only calls out of lib/).
 */
export type Queryable = Omit<BunSQLiteDatabase<Schema>, "run" | "all" | "get" | "values" | "$client" | "transaction">;

/**
 * Statements sent on the connection of the transaction they are given for, ahead of that
 * transaction's next statement, in the same write (db/pg-socket.ts: one round trip less each).
 * `send`: a statement whose only effect is on what runs after it (a lock, a row nothing reads
 * back), its answer unread; false when the connection cannot (SQLite, or a PostgreSQL connection
 * over TLS): the caller runs it as any other. `read`: a select whose rows (as PostgreSQL's text)
 * the caller awaits after its next statement; null when the connection cannot. Set by db/pg.ts
 * for each transaction it runs (`aheadOf`).
 */
export type Ahead = {
  send(query: SQL | { text: string; params: readonly unknown[] }): boolean;
  read(query: { text: string; params: readonly unknown[] }): Promise<(string | null)[][]> | null;
};
export const aheadOf = new WeakMap<Queryable, Ahead>();

/** A table and a column of db/schema.ts, as lib/ names them in a type (the same surface as Queryable). */
export type AnyTable = SQLiteTable;
export type AnyColumn = SQLiteColumn;

export type Db = {
  engine: Engine;
  /** Reads; never write through it. */
  read: Queryable;
  /**
   * Runs `fn` in one transaction and resolves once it is durable. Rolls back (only `fn`'s own
   * writes) when `fn` throws. `fn` may await, but must not do network I/O: queue a job instead.
   * Every statement of `fn` runs on `t`. On PostgreSQL a transaction that lost a deadlock or a
   * serialization conflict is run again from the start, so `fn` must only touch the database;
   * `once` is for a `fn` that keeps state outside (an import's reader and counts): it is not run
   * again, and the conflict is the caller's (a 503 to retry). `single`: `fn` runs exactly one
   * statement, which PostgreSQL then runs as its own transaction, without BEGIN and COMMIT (two
   * round trips fewer); SQLite runs it as any other.
   */
  tx<T>(fn: (t: Queryable) => Promise<T>, options?: { once?: boolean; single?: boolean }): Promise<T>;
  /**
   * A read query built once per database and kept prepared, for hot paths: building a select of a
   * wide table (clubs has 100+ columns) costs ten times more than running it. `name` identifies
   * the query; values come through `sql.placeholder("x")` and `.execute({ x })`.
   */
  prepareRead<P>(name: string, build: (q: Queryable) => { prepare(): P }): P;
  /**
   * The same for a statement of a hot write path: `prepareTx(name, build)(t)` is the statement
   * prepared for the transaction `t`, run with `.execute({ x })` inside it.
   */
  prepareTx<P>(name: string, build: (q: Queryable) => { prepare(): P }): (t: Queryable) => P;
  /**
   * A statement of a hot write path that writes `rows` rows at once, run in the transaction `t`
   * with every value in one flat array (row `i`'s `j`th of `width` values at `i * width + j`, then
   * any values after the rows'). `build(q, n)` makes Drizzle's statement of `n` rows whose
   * placeholders are named by those positions, with the rows as one multi-row `VALUES` or one
   * list of `SELECT`s joined by `UNION ALL`. PostgreSQL runs it built for `rows` (prepareTx).
   * SQLite builds it for one row and repeats that row's part of the text and its parameters:
   * Drizzle's statement of 200 member rows (10,000 parameters) took longer to build than a
   * 100,000-line import spends writing a thousand members, left tens of MB of garbage at an
   * import's start, and filling its placeholders asked Drizzle's `is()` of every parameter of
   * every run (docs/benchmarks.md, "import17").
   */
  prepareRows(name: string, rows: number, width: number, build: (q: Queryable, rows: number) => { prepare(): unknown }): (t: Queryable) => RowsStatement;
  /**
   * Whether another process has committed to the database since the previous call (the first:
   * since it was opened), for an import that yields to others. SQLite only; PostgreSQL writers do
   * not wait on one another's locks for other rows, so it says false.
   */
  othersWrote(): boolean;
  /**
   * Readies the engine for a long run of writes (a member import) until the function it answers
   * is called: on SQLite a larger page cache and rarer checkpoints for the writer (db/sqlite.ts),
   * for as long as any such run of the process lasts; nothing on PostgreSQL.
   */
  bulkWrites(): () => void;
  /** Where the database is: the SQLite file (`:memory:` for none), or the PostgreSQL address without its password. */
  path: string;
  /**
   * Opened with `check` (SQLite): when its content was last checked whole, now or, for a file no
   * one changed since a checked server closed it cleanly, then (db/sqlite.ts `checkedBefore`).
   */
  checkedAt?: string;
  /** The SQLite connection, for SQLite-only work (backup, integrity check); undefined on PostgreSQL. */
  raw: Database;
  /**
   * Runs a statement of the engine's own SQL outside lib/ concerns (tests, tools, db/'s own
   * statements, and a hot path written for one engine, lib/events/checkin): the rows. `name`:
   * kept prepared under it (PostgreSQL; SQLite keeps every statement it is given), for a
   * statement every request runs. It runs on the pool, never in a transaction: see `within`.
   */
  query<R = Record<string, unknown>>(text: string, params?: unknown[], name?: string): Promise<R[]>;
  /**
   * Set on the copy `withinTx` makes: its writes belong to a transaction already open, which
   * `query` (on the pool) would not be part of. A verb with a path of its own through `query`
   * takes its transaction's path instead.
   */
  within?: true;
  /**
   * PostgreSQL: this database with its transactions committed without waiting for the disk
   * (synchronous_commit off, sent with the COMMIT), marked `lateCommit`. Only for a caller that
   * commits once more, waiting for the disk, before anything it wrote is answered: that commit
   * writes PostgreSQL's log to the disk up to itself, so past every commit before it (server/: a
   * key's request, whose audit row commits after its verb and before the answer leaves). A crash
   * before then loses only what was never answered; any other process acting on it commits first
   * (a job's claim), which writes the log past it too. One disk sync a keyed write instead of two.
   * Absent on SQLite, where the writer's group commit already shares one sync among them.
   */
  lateCommits?: () => Db;
  /** Set on the copy `lateCommits` makes: a one-statement write through `query` may commit late too. */
  lateCommit?: true;
  close(): Promise<void>;
};

/** A statement of Db.prepareRows: `run` writes its rows, from their values as one flat array. */
export type RowsStatement = { run(values: unknown[]): Promise<void> };

/**
 * `db` as seen from inside its transaction `t`: `tx(fn)` runs `fn` in `t` rather than queueing a
 * new transaction (which would wait behind the one running it), and reads run in `t`. A caller that must write its own
 * row in the same transaction as a verb's change (the Stripe webhook's "handled once" row) hands
 * the verb this; everything commits, or is undone, together.
 */
export function withinTx(db: Db, t: Queryable): Db {
  // Its reads too: they see the transaction's writes (a reader connection would not, before the commit).
  return { ...db, read: t, prepareRead: (name, build) => db.prepareTx(`read:${name}`, build)(t), tx: (fn) => fn(t), within: true };
}

/**
 * Runs a prepared select and reads its rows as arrays, in the select's order: SQLite's `values()`
 * skips building an object per row (a page of the member list, see lib/members). PostgreSQL's
 * prepared queries have no such call: their rows' values, which keep the select's order.
 */
export async function rowsAsArrays(prepared: { execute(params: unknown): Promise<unknown> }, params: unknown): Promise<unknown[][]> {
  const lite = prepared as { values?: (params: unknown) => Promise<unknown[][]> };
  if (typeof lite.values === "function") return lite.values(params);
  return ((await prepared.execute(params)) as Record<string, unknown>[]).map((row) => Object.values(row));
}

/**
 * Inserts `row` into `table` in the transaction `t` (the pool itself for a write on its own)
 * through a statement prepared once per table and set of columns given (`undefined` ones take
 * their defaults), answering the inserted row when `returning`. Drizzle builds an insert anew at
 * every call: a member's 50 columns and their `returning` were a third of adding a member's CPU
 * on PostgreSQL (docs/benchmarks.md, session 17).
 */
export async function insertRow<TTable extends AnyTable>(
  db: Db,
  t: Queryable,
  table: TTable,
  name: string,
  row: TTable["$inferInsert"],
  returning = false,
): Promise<TTable["$inferSelect"] | undefined> {
  const { statement, values } = insertStatement(db, t, table, name, row, returning);
  const out = await statement.execute(values);
  return returning ? (out as TTable["$inferSelect"][])[0] : undefined;
}

/** insertRow's statement for `row`'s columns on `t`, and the values it is run with. */
function insertStatement<TTable extends AnyTable>(db: Db, t: Queryable, table: TTable, name: string, row: TTable["$inferInsert"], returning: boolean) {
  const given = row as Record<string, unknown>;
  const columns = Object.keys(given).filter((c) => given[c] !== undefined);
  const statement = db.prepareTx(`insert:${name}:${returning ? "r" : ""}:${columns.join(",")}`, (q) => {
    const insert = q.insert(table).values(Object.fromEntries(columns.map((c) => [c, sql.placeholder(c)])) as never);
    return (returning ? insert.returning() : insert) as unknown as { prepare(): { execute(values: unknown): Promise<unknown> } };
  })(t);
  return { statement, values: Object.fromEntries(columns.map((c) => [c, given[c]])) };
}

/**
 * As insertRow without `returning`, but sent ahead of `t`'s next statement where the connection
 * can (`Ahead`: a round trip less on PostgreSQL). Only for a row nothing reads back and nothing
 * expects to be refused (a history row, its id fresh): should it be, the statement behind it
 * fails with its error, not this call.
 */
export async function insertRowAhead<TTable extends AnyTable>(db: Db, t: Queryable, table: TTable, name: string, row: TTable["$inferInsert"]): Promise<void> {
  const { statement, values } = insertStatement(db, t, table, name, row, false);
  const query = preparedQuery(statement, values);
  if (query && aheadOf.get(t)?.send(query)) return;
  await statement.execute(values);
}

/** A statement prepared by Db.prepareTx on PostgreSQL (Drizzle's node-postgres query): its text, and its parameters filled as `execute` fills them. */
function preparedQuery(statement: unknown, values: Record<string, unknown>): { text: string; params: unknown[] } | null {
  const prepared = statement as { rawQueryConfig?: { text: string }; params?: unknown[] };
  return prepared.rawQueryConfig && prepared.params ? { text: prepared.rawQueryConfig.text, params: fillPlaceholders(prepared.params, values) } : null;
}

/**
 * The rows of the select `statement` (prepared by Db.prepareTx for `t`) with `values`, read ahead
 * of `t`'s next statement where the connection can (`Ahead.read`): each row its columns in the
 * select's order as PostgreSQL's text. Null where it cannot: the caller executes it as usual.
 * Start it before the caller's next statement and await it after, or it saves nothing.
 */
export function readAhead(t: Queryable, statement: unknown, values: Record<string, unknown>): Promise<(string | null)[][]> | null {
  const ahead = aheadOf.get(t);
  const query = ahead && preparedQuery(statement, values);
  return query ? (ahead.read(query) ?? null) : null;
}

/**
 * `rows` cut into pieces of `sizes` (largest first, ending in 1), for statements writing several
 * rows: each statement text is compiled once and kept for the process's life (db/sqlite.ts,
 * `keptStatements`), and one writing hundreds of rows costs SQLite megabytes, so a statement for
 * every count a caller happens to write would keep hundreds of MB. A few sizes keep a few.
 */
export function inPieces<T>(rows: T[], sizes: readonly number[]): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (const size of sizes) {
    while (rows.length - at >= size) {
      out.push(rows.slice(at, at + size));
      at += size;
    }
  }
  return out;
}

/**
 * The placeholder of row `i`'s `j`th of `width` values in a Db.prepareRows statement: named by its
 * position in the flat array of values (an object of thousands of named keys per batch cost a
 * tenth of an import).
 */
export const rowSlot = (i: number, j: number, width: number) => sql.placeholder(String(i * width + j));

/** `n` rows of `columns`, each value its rowSlot: the rows a Db.prepareRows `build` inserts. */
export const slotRows = (columns: readonly string[], n: number) =>
  Array.from({ length: n }, (_, i) => Object.fromEntries(columns.map((c, j) => [c, rowSlot(i, j, columns.length)]))) as never;

/** The values of `rows` for `columns`, as one flat array in rowSlot's order (a missing one null). */
export function slotValues(columns: readonly string[], rows: readonly Record<string, unknown>[]): unknown[] {
  const values: unknown[] = [];
  for (const row of rows) for (const c of columns) values.push(row[c] ?? null);
  return values;
}

/**
 * The club's members among `ids` (a few, named by the caller), found by their primary key. On
 * SQLite, which keeps no statistics, `club_id = ? and id in (...)` was planned as a scan of the
 * club's range of an index that carries the id (members_club_sort_name_idx, "covering"): every
 * member of the club read to find a few, 26 ms at 100,000 members, inside the writer's
 * transaction for a pass update. The club's condition written `+club_id` (no index for it) leaves
 * SQLite the primary key. PostgreSQL plans by its statistics and takes the condition as it is.
 */
export function clubMembersIn(clubId: string | SQL, ids: readonly string[]): SQL {
  const { members } = schema;
  const club = ENGINE === "postgres" ? sql`${members.club_id} = ${clubId}` : sql`+${members.club_id} = ${clubId}`;
  return sql`(${club} and ${inArray(members.id, [...ids])})`;
}

/** The database cannot be used as it is; `message` says why and what to do, in one line. */
export class DatabaseRefused extends Error {
  /**
   * SQLite met another process's open, close or migration of the same file (locked, or its schema
   * changed under a statement being prepared): trying again may succeed.
   */
  passing = false;
}

/**
 * Opens the database DATABASE_URL names and applies the migrations. `check` (the server's start)
 * also refuses a database that cannot serve (damaged, read-only, full disk, unreachable). Any
 * failure is a DatabaseRefused, whose message is one line for the operator.
 */
export async function openDb(url: string, options: { check?: boolean } = {}): Promise<Db> {
  const engine = engineOf(url);
  // The tables were built for one engine when the process started (db/dialect.ts).
  if (engine !== ENGINE) throw new DatabaseRefused(`this process was started for ${ENGINE} (DATABASE_URL at start) and cannot open a ${engine} database`);
  if (engine === "postgres") return (await import("./pg")).openPostgres(url);
  return (await import("./sqlite")).openSqlite(url, options);
}

/** Whether `err` is a unique key refusing a row (SQLite's SQLITE_CONSTRAINT_UNIQUE, PostgreSQL's 23505). */
export function isUniqueViolation(err: unknown): boolean {
  return codesOf(err).some((code) => code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY");
}

/**
 * Whether `err` is the database being unable to serve, not a fault of the request or of our code:
 * `busy` (try again in a moment), or `down` (until an operator or the network acts). Null for
 * anything else. http/errors.ts answers 503 for both.
 */
export { unavailability } from "./unavailable";
