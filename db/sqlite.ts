// The SQLite engine (the embedded default). It opens the file with two connections — one
// writer behind a FIFO queue (group commit), one reader (WAL lets reads run beside the writer) —
// and hands lib/ a `Db` (db/index.ts). Every write transaction begins IMMEDIATE, so it holds the
// file's write lock from its first statement: across connections and processes, what it reads
// cannot change before it commits.
import { Database } from "bun:sqlite";
import { mkdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Column, getTableName, is, Param, Placeholder, SQL, Subquery } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { DatabaseRefused, type Db, type Queryable, type RowsStatement, schema } from "./index";
import { emailKeyOf, sortNameOf } from "./text";
import { sqliteCodes } from "./unavailable";

const MIGRATIONS = join(import.meta.dir, "migrations");

function configure(conn: Database, writer: boolean) {
  conn.exec("PRAGMA busy_timeout = 5000");
  conn.exec("PRAGMA foreign_keys = ON");
  // Deleted or overwritten content is zeroed in the file, not left in free space: an erased
  // member's name must not be readable from the database file afterwards (GDPR art. 17).
  conn.exec("PRAGMA secure_delete = ON");
  if (writer) {
    conn.exec("PRAGMA journal_mode = WAL");
    // An acknowledged write must survive a power cut: FULL syncs the WAL at each commit.
    conn.exec("PRAGMA synchronous = FULL");
    // A statement that fires a trigger (the members version's, below) inside a transaction keeps
    // a statement journal, and GroupCommit's savepoints keep those until the savepoint ends: on
    // disk (SQLite spills past 64 KiB to a temporary file) a 5,000-line import made 130,000
    // extra writes (0.6 s of system time). In memory they are bounded by one transaction's pages.
    conn.exec("PRAGMA temp_store = MEMORY");
  }
}

type Queued = { fn: (t: Queryable) => Promise<unknown>; resolve: (value: unknown) => void; reject: (err: unknown) => void };
type Outcome = { job: Queued; ok: boolean; value: unknown };

/** Most transactions one commit carries. */
const GROUP_MAX = 256;

/**
 * Group commit. Transactions run one after the other in the order they asked (FIFO), on the one
 * writer connection; those waiting at the same moment (every request that reached its write in
 * the same turn of the event loop) run inside ONE `BEGIN IMMEDIATE ... COMMIT`, each in a
 * savepoint of its own, so that a failing one undoes only its own writes. Nobody hears "done"
 * before the COMMIT: a transaction is as durable as before, and a burst of N writers pays one
 * disk sync (synchronous = FULL) instead of N. Each transaction still sees the writes of those
 * before it (same connection), so rules such as "one `valid` check-in per ticket" hold.
 */
class GroupCommit {
  private queue: Queued[] = [];
  private running = false;

  constructor(
    private readonly conn: Database,
    private readonly writer: Queryable,
  ) {}

  run<T>(fn: (t: Queryable) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) {
        this.running = true;
        // Let the requests already read in this turn of the event loop join the group.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) await this.runGroup(this.queue.splice(0, GROUP_MAX));
    } finally {
      this.running = false;
    }
  }

  private async runGroup(group: Queued[]): Promise<void> {
    const done: Outcome[] = [];
    for (let i = 0; i < group.length; i++) {
      if (!this.conn.inTransaction) {
        try {
          this.conn.exec("BEGIN IMMEDIATE");
        } catch (err) {
          for (const job of group.slice(i)) job.reject(err);
          break;
        }
      }
      const job = group[i];
      // A transaction alone in its group needs no savepoint: its failure rolls back all there is.
      // A savepoint also keeps every statement journal of the transaction until it ends (a
      // statement that fires a trigger journals the pages it touches): megabytes for an import's slice.
      const alone = group.length === 1;
      if (!alone) this.conn.exec("SAVEPOINT tx");
      try {
        const value = await job.fn(this.writer);
        if (!alone) this.conn.exec("RELEASE tx");
        done.push({ job, ok: true, value });
      } catch (err) {
        if (this.conn.inTransaction) {
          if (alone) this.conn.exec("ROLLBACK");
          else {
            this.conn.exec("ROLLBACK TO tx");
            this.conn.exec("RELEASE tx");
          }
          done.push({ job, ok: false, value: err });
        } else {
          // SQLite rolled the whole transaction back itself (disk full, I/O error): the group's
          // earlier work is gone too. They fail; the next ones start a new transaction.
          for (const d of done) if (d.ok) Object.assign(d, { ok: false, value: err });
          done.push({ job, ok: false, value: err });
          this.settle(done.splice(0));
        }
      }
    }
    if (this.conn.inTransaction) {
      try {
        this.conn.exec("COMMIT");
      } catch (err) {
        if (this.conn.inTransaction) this.conn.exec("ROLLBACK");
        for (const d of done) if (d.ok) Object.assign(d, { ok: false, value: err });
      }
    }
    this.settle(done);
  }

  private settle(outcomes: Outcome[]) {
    for (const d of outcomes) d.ok ? d.job.resolve(d.value) : d.job.reject(d.value);
  }
}

/**
 * Members written before `sort_name` existed (migration 0007) get theirs here, once: the key is
 * made by JS (db/text), which SQL cannot do. Every write since sets it, so this finds nothing.
 * Asked per club, so that the (club_id, sort_name) index answers: a scan of every member at each
 * start read the whole table and left the start-up process megabytes of page cache heavier.
 */
function backfillSortNames(conn: Database): void {
  const rows = conn
    .query<{ id: string; first_name: string; last_name: string }, []>(
      "SELECT id, first_name, last_name FROM members WHERE club_id IN (SELECT id FROM clubs) AND sort_name = ''",
    )
    .all();
  if (!rows.length) return;
  const update = conn.prepare<void, [string, string]>("UPDATE members SET sort_name = ? WHERE id = ?");
  conn.transaction(() => {
    for (const r of rows) update.run(sortNameOf(r), r.id);
  })();
}

/** Free space the database's folder must have at start (the WAL grows before a checkpoint). */
const MIN_FREE_BYTES = 32 * 1024 * 1024;

/** What an error met while opening the file means for the operator. */
function refusal(path: string, err: unknown): DatabaseRefused {
  const codes = sqliteCodes(err).join(" ");
  const said = err instanceof Error ? err.message : String(err);
  if (/SQLITE_(NOTADB|CORRUPT)/.test(codes))
    return new DatabaseRefused(`${path} is not a readable SQLite database (damaged or truncated: ${said}). Restore it from a backup.`);
  if (/SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/.test(codes))
    return new DatabaseRefused(`${path} cannot be opened for writing (${said}). Give the server's user write access to the file and its folder.`);
  if (/SQLITE_FULL/.test(codes)) return new DatabaseRefused(`the disk holding ${path} is full (${said}). Free some space.`);
  if (/SQLITE_IOERR/.test(codes)) return new DatabaseRefused(`${path} cannot be read or written (I/O error: ${said}). Check the disk.`);
  return new DatabaseRefused(`${path} cannot be opened: ${said}`);
}

/**
 * What a server checks before it serves (an answer of 500 to every write, or a stack trace, was
 * all an operator saw before): the file is sound (`PRAGMA quick_check`, unless `sound`: see
 * checkedBefore), can be written (a write transaction is begun and rolled back), and its folder
 * has room. Throws DatabaseRefused.
 */
function checkUsable(conn: Database, path: string, sound: boolean): void {
  const problems = sound
    ? ["ok"]
    : conn
        .query<{ quick_check: string }, []>("PRAGMA quick_check")
        .all()
        .map((r) => r.quick_check);
  if (problems.join() !== "ok") {
    const found = problems.join("; ").replace(/\s+/g, " ").slice(0, 200);
    throw new DatabaseRefused(`${path} is damaged (PRAGMA quick_check: ${found}...). Restore it from a backup.`);
  }
  const version = conn.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0;
  conn.exec("BEGIN IMMEDIATE");
  try {
    // Rewrites the header page: a read-only file, or one SQLite opened read-only, refuses it.
    conn.exec(`PRAGMA user_version = ${version}`);
  } finally {
    conn.exec("ROLLBACK");
  }
  const { bavail, bsize } = statfsSync(dirname(path));
  const free = bavail * bsize;
  if (free < MIN_FREE_BYTES) {
    const mb = (n: number) => `${Math.floor(n / 1024 / 1024)} MB`;
    throw new DatabaseRefused(`the disk holding ${path} has ${mb(free)} free; the server needs at least ${mb(MIN_FREE_BYTES)}. Free some space.`);
  }
}

/**
 * The file beside the database that a checked server's clean close leaves (`<file>-checked`): the
 * state of the file then, and when its content was last checked whole. `PRAGMA quick_check` reads
 * every page: 0.4 s (1.5 s from the disk) for 100,000 members (164 MB), 1.1 s (7.7 s) with a million
 * mailing recipients besides (635 MB), during which the address answers 503. A file no one changed since a
 * server that had checked it stopped cleanly is not read whole again (a restart, an upgrade); one
 * that changed (a crash, a restore, a copy, another process's writes), or whose last whole check is
 * older than CHECK_EVERY_MS (a bit turned on the disk changes none of its times), is.
 */
const checkedMark = (path: string) => `${path}-checked`;
const CHECK_EVERY_MS = 7 * 86_400_000;

type FileState = { ino: number; size: number; mtimeMs: number; ctimeMs: number } | null;
type CheckedMark = { file: FileState; checkedAt: string };

function fileState(path: string): FileState {
  try {
    const s = statSync(path);
    return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs };
  } catch {
    return null;
  }
}

const sameState = (a: FileState, b: FileState) => JSON.stringify(a) === JSON.stringify(b);

/**
 * When the file at `path` was last checked whole, if it is as a checked server's clean close left
 * it (every change then in the file: the close's checkpoint was complete) and no WAL holds a change
 * since, that check no older than CHECK_EVERY_MS; else null (check it now). The mark goes either
 * way, before the file is opened: a stop from now on that is not clean leaves none.
 */
function checkedBefore(path: string, now: Date): string | null {
  let mark: CheckedMark | null = null;
  try {
    mark = JSON.parse(readFileSync(checkedMark(path), "utf8")) as CheckedMark;
  } catch {}
  try {
    rmSync(checkedMark(path), { force: true });
  } catch {
    // A folder it cannot write: the start refuses it a moment later, saying so (checkUsable).
    return null;
  }
  if (!mark?.file || typeof mark.checkedAt !== "string") return null;
  const unchanged = sameState(mark.file, fileState(path)) && !fileState(`${path}-wal`)?.size;
  // A check said to be later than now (a clock set back since) is not taken as recent.
  const age = now.getTime() - Date.parse(mark.checkedAt);
  const recent = age >= 0 && age < CHECK_EVERY_MS;
  return unchanged && recent ? mark.checkedAt : null;
}

/**
 * Opens the database, applies the migrations. `check` (the server's start) also refuses a file
 * that is damaged, read-only or on a full disk (checkUsable). Any failure to open the file is a
 * DatabaseRefused, whose message is one line for the operator.
 */
export function openSqlite(path: string, options: { check?: boolean } = {}): Db {
  // SQLite answers "database is locked" at once, without its busy wait, in a few moments of
  // another process's open or close of the same file (a new file turned to WAL, the last
  // connection's checkpoint removing the WAL): processes starting together, or a server started
  // as the CLI finishes, met it (a CI run: 3 of 6 processes opening a new file at once refused).
  // The start's quick_check also meets another process's migration: preparing it connects FTS5's
  // members_search, and a schema changed meanwhile is answered SQLITE_SCHEMA, "vtable constructor
  // failed" (6 processes opening a new file at once: 5 of 130 rounds had one refused).
  // The open is tried again for as long as a busy wait would last (busy_timeout, 5 s).
  const until = Date.now() + OPEN_BUSY_MS;
  for (;;) {
    try {
      return openSqliteOnce(path, options);
    } catch (err) {
      const passing = err instanceof DatabaseRefused && err.passing;
      if (!passing || Date.now() >= until) throw err;
      Bun.sleepSync(20 + Math.random() * 80);
    }
  }
}

/** How long an open that met another process's open, close or migration is tried again (as its busy_timeout). */
const OPEN_BUSY_MS = 5000;

function openSqliteOnce(path: string, options: { check?: boolean }): Db {
  let writerConn: Database | undefined;
  let readerConn: Database | undefined;
  const checking = !!options.check && path !== ":memory:";
  try {
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    const checkedAt = checking ? checkedBefore(path, new Date()) : null;
    writerConn = new Database(path, { create: true, strict: true });
    configure(writerConn, true);
    if (checking) checkUsable(writerConn, path, checkedAt !== null);
    // An in-memory database cannot be shared between connections: reads use the writer then.
    readerConn = path === ":memory:" ? writerConn : new Database(path, { strict: true });
    if (readerConn !== writerConn) configure(readerConn, false);
    keptStatements(writerConn);
    if (readerConn !== writerConn) keptStatements(readerConn);
    return ready(path, writerConn, readerConn, checking ? (checkedAt ?? new Date().toISOString()) : undefined);
  } catch (err) {
    if (readerConn !== writerConn) readerConn?.close();
    writerConn?.close();
    if (err instanceof DatabaseRefused) throw err;
    const refused = refusal(path, err);
    refused.passing = sqliteCodes(err).some((code) => code.startsWith("SQLITE_BUSY") || code === "SQLITE_SCHEMA");
    throw refused;
  }
}

/**
 * Members without a page token (DESIGN.md section 14: /m/<manage_token>) get one here, once: every
 * member created since has one; this covers rows written by older versions or by hand. Random,
 * 32 bytes, base64url, like lib/members' own. Only where the row still has none: processes starting
 * at once all read the same rows without one, and the last to write replaced the tokens an earlier
 * one had written, and could already have mailed (test/db/migrate-at-once.test.ts).
 */
function backfillManageTokens(conn: Database): void {
  const rows = conn.query<{ id: string }, []>("SELECT id FROM members WHERE manage_token IS NULL").all();
  if (!rows.length) return;
  const update = conn.prepare<void, [string, string]>("UPDATE members SET manage_token = ? WHERE id = ? AND manage_token IS NULL");
  conn.transaction(() => {
    for (const r of rows) update.run(Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url"), r.id);
  })();
}

/**
 * Registrations written before `email_key` existed get theirs here (JS makes the key, as for
 * sort_name), so `max_per_email` counts them too. Asked per event, so that the (event_id,
 * email_key) index answers and a start does not read the whole table.
 */
function backfillEmailKeys(conn: Database): void {
  const events = conn.query<{ id: string }, []>("SELECT id FROM events").all();
  const find = conn.query<{ id: string; email: string }, [string]>(
    "SELECT id, email FROM event_registrations WHERE event_id = ? AND email_key IS NULL AND email IS NOT NULL",
  );
  const update = conn.prepare<void, [string, string]>("UPDATE event_registrations SET email_key = ? WHERE id = ?");
  for (const { id } of events) {
    const rows = find.all(id);
    if (!rows.length) continue;
    conn.transaction(() => {
      for (const r of rows) update.run(emailKeyOf(r.email), r.id);
    })();
  }
}

/** Raises a club's members version (`member_versions`, SQLite's one writer: stripe 0), creating its row at the first write. */
const bumpVersion = (club: string, when = "true") =>
  `INSERT INTO member_versions (club_id, stripe, version) SELECT ${club}, 0, 1 WHERE ${when} ON CONFLICT (club_id, stripe) DO UPDATE SET version = version + 1;`;

/**
 * Every insert, update and delete of a member raises its club's members version in the same
 * transaction (rolled back with it), whoever writes: the list's kept counts and pages
 * (lib/members/kept.ts) cannot miss a write, today's or one added later. So does what else a page
 * of the list shows: a tier's name (each item's tier_name) and the club's grace period (each
 * item's status). Triggers are not something drizzle-kit generates from schema.ts, hence here, at
 * every open (IF NOT EXISTS: once per file).
 */
function memberVersionTriggers(conn: Database): void {
  conn.exec(`CREATE TRIGGER IF NOT EXISTS members_version_insert AFTER INSERT ON members BEGIN ${bumpVersion("NEW.club_id")} END`);
  conn.exec(`CREATE TRIGGER IF NOT EXISTS members_version_delete AFTER DELETE ON members BEGIN ${bumpVersion("OLD.club_id")} END`);
  conn.exec(
    `CREATE TRIGGER IF NOT EXISTS members_version_update AFTER UPDATE ON members BEGIN ${bumpVersion("NEW.club_id")} ${bumpVersion("OLD.club_id", "OLD.club_id IS NOT NEW.club_id")} END`,
  );
  conn.exec(
    `CREATE TRIGGER IF NOT EXISTS members_version_tier_name AFTER UPDATE OF name ON tiers WHEN OLD.name IS NOT NEW.name BEGIN ${bumpVersion("NEW.club_id")} END`,
  );
  conn.exec(
    `CREATE TRIGGER IF NOT EXISTS members_version_grace AFTER UPDATE OF grace_period_days ON clubs WHEN OLD.grace_period_days IS NOT NEW.grace_period_days BEGIN ${bumpVersion("NEW.id")} END`,
  );
}

/** A selected field as Drizzle's prepared query holds it (internal: `fields`). */
type Selected = { path: string[]; field: unknown };
type Decoder = { mapFromDriverValue(value: unknown): unknown };
type PreparedSelect = {
  fields?: Selected[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: unknown;
  values(placeholders?: Record<string, unknown>): unknown[][];
  all(placeholders?: Record<string, unknown>): unknown[];
  get(placeholders?: Record<string, unknown>): unknown;
};

/** How Drizzle decodes a selected field's value (its mapResultRow's choice, made once). */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  // `decoder` is internal to Drizzle's SQL.
  type Decoded = { decoder: Decoder };
  if (is(field, SQL)) return (field as unknown as Decoded).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: Decoded } })._.sql.decoder;
  return (field as { sql: Decoded }).sql.decoder;
}

/**
 * A kept select's rows made objects by a reader built once: Drizzle's `mapResultRow` works out
 * each field's decoder and walks its path for every value of every row, which for the club row
 * (119 columns, read by most requests) cost more than SQLite reading it (docs/benchmarks.md
 * "floor16"). Same objects, same decoders, a left join's missing table as null as Drizzle makes
 * it. Anything not a select keeps Drizzle's.
 */
function compiledRows<P>(prepared: P): P {
  const q = prepared as unknown as PreparedSelect;
  if (!q.fields || q.customResultMapper || typeof q.values !== "function") return prepared;
  // A column that keeps the driver's value as it is (text, most of them) is not asked.
  const asIs = Column.prototype.mapFromDriverValue;
  const fields = q.fields.map(({ path, field }) => {
    const decoder = decoderOf(field);
    return { path, last: path[path.length - 1], decoder: decoder.mapFromDriverValue === asIs ? null : decoder };
  });
  // Drizzle's rule for a table a row may lack (a left join's: not true in `joinsNotNullableMap`),
  // decided by the first column of an object of its columns (`{ reg: table's columns }`): that
  // column null, the object is null, unless the object mixes columns of several tables.
  const objects = new Map<string, { first: number; table: string; mixed: boolean }>();
  q.fields.forEach(({ path, field }, i) => {
    if (!q.joinsNotNullableMap || path.length !== 2 || !is(field, Column)) return;
    const table = getTableName(field.table);
    const seen = objects.get(path[0]);
    if (!seen) objects.set(path[0], { first: i, table, mixed: false });
    else if (seen.table !== table) seen.mixed = true;
  });
  const nulled = [...objects].filter(([, o]) => !o.mixed && !q.joinsNotNullableMap?.[o.table]).map(([name, o]) => ({ name, first: o.first }));
  const row = (values: unknown[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const { path, last, decoder } = fields[i];
      let node = out;
      for (let j = 0; j < path.length - 1; j++) {
        node[path[j]] ??= {};
        node = node[path[j]] as Record<string, unknown>;
      }
      const value = values[i];
      node[last] = value === null || decoder === null ? value : decoder.mapFromDriverValue(value);
    }
    for (const { name, first } of nulled) if (values[first] === null) out[name] = null;
    return out;
  };
  q.all = (placeholders) => q.values(placeholders).map(row);
  q.get = (placeholders) => {
    const [first] = q.values(placeholders);
    return first === undefined ? undefined : row(first);
  };
  return prepared;
}

/** Statements kept compiled per connection (`keptStatements`); beyond, the least recently used is dropped. */
const KEPT_STATEMENTS = 512;

/**
 * Drizzle prepares every query it runs anew (`client.prepare(sql)`), and SQLite compiling the
 * statement was a fifth of the server's CPU for a member added by hand: here a connection keeps
 * its compiled statements by SQL text (a query built again gives the same text), the least
 * recently used dropped past KEPT_STATEMENTS (an IN list of each length is a text of its own).
 * Sharing one is safe: a bun:sqlite statement runs to its end in one synchronous call
 * (all/values/get/run), and nothing here iterates one across an await.
 *
 * Also: Drizzle binds LIMIT and OFFSET (`limit ?`); SQLite (3.47 on) reads a bare bound LIMIT
 * while planning, so binding one marks the statement expired and every execution prepares it
 * again: reading the 111-column club row took five times as long, a page of members 15 % longer.
 * As `(? + 0)` the value is the same and the plan no longer depends on it.
 *
 * The same for a column compared with a bound value (`= ?`) in a statement that joins tables:
 * SQLite carries the value across the join's equalities while planning, and every execution
 * prepared the statement again. A key's lookup (three tables) cost 35-40 µs of CPU instead of
 * 8-10, a scan at the door's select 42-53 instead of 10-15 (docs/benchmarks.md "floor16"). As
 * `= +?` (unary plus changes no value, type or affinity of a comparison) the plan stands.
 */
export function boundAsPlanned(sql: string): string {
  return sql.replace(/ (limit|offset) \?/g, " $1 (? + 0)").replace(/ = \?/g, " = +?");
}

/** Drizzle's prepared statement of one row (internal: its text and its parameters as built). */
type OneRow = { query: { sql: string; params: unknown[] } };

/** Where the parenthesis opened at `open` in `text` closes (a quoted name or string skipped whole). */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") i = text.indexOf(c, i + 1);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
    if (i < 0) break;
  }
  throw new Error(`prepareRows: no end to the row at ${open} in ${text.slice(0, 80)}`);
}

/**
 * Db.prepareRows on SQLite: Drizzle's statement of one row made a statement of `rows` rows by
 * repeating that row's part of the text, a `VALUES` tuple (`insert ... values (?, ?, ...)`, any
 * `on conflict` clause after the last) or
 * the `SELECT` of a list of rows (`from (select ? as "id", ...) as "v"`), joined as Drizzle joins
 * its rows. A parameter is a placeholder named by its position in the flat array of values (the
 * row's `j`th value for one inside the repeated part, a value after the rows' for one outside
 * it), encoded by its column as Drizzle's `fillPlaceholders` does, or a value Drizzle bound
 * (a column's default), repeated as it is.
 */
function manyRows(conn: Database, one: OneRow["query"], rows: number, width: number): RowsStatement {
  const text = one.sql;
  const tuple = text.lastIndexOf(" values (");
  const list = text.indexOf(" from (select ");
  let head: string;
  let part: string;
  let tail: string;
  let joiner: string;
  if (tuple >= 0 && list < 0) {
    head = text.slice(0, tuple + " values ".length);
    // What follows the tuple (`on conflict do nothing`) is said once, after the last row.
    const end = closingParen(text, head.length) + 1;
    part = text.slice(head.length, end);
    tail = text.slice(end);
    joiner = ", ";
  } else if (list >= 0 && tuple < 0) {
    head = text.slice(0, list + " from (".length);
    const end = text.indexOf(') as "v"', head.length);
    if (end < 0) throw new Error(`prepareRows: no end to the list of rows in ${text.slice(0, 80)}`);
    part = text.slice(head.length, end);
    tail = text.slice(end);
    joiner = " union all ";
  } else throw new Error(`prepareRows: neither one VALUES tuple nor one list of rows in ${text.slice(0, 80)}`);
  const count = (s: string) => s.split("?").length - 1;
  const before = count(head);
  const inPart = count(part);
  if (before + inPart + count(tail) !== one.params.length)
    throw new Error(`prepareRows: ${one.params.length} parameters, ${count(text)} in ${text.slice(0, 80)}`);
  /** Where each parameter's value is in the flat array (-1: Drizzle's own, kept in `fixed`), and its column's encoder. */
  type Slot = { at: number; fixed: unknown; encode: ((v: unknown) => unknown) | null };
  const slotOf = (p: unknown, rowPart: boolean): Slot => {
    const encoder = is(p, Param) && is(p.value, Placeholder) ? (p.encoder as { mapToDriverValue(v: unknown): unknown }) : null;
    const placeholder = is(p, Placeholder) ? p : encoder ? ((p as Param).value as Placeholder) : null;
    if (!placeholder) return { at: -1, fixed: p, encode: null };
    const at = Number(placeholder.name);
    // A row's placeholders are its values' positions (0..width-1); any other comes after the rows' values.
    if (!Number.isInteger(at) || (rowPart ? at >= width : at < width)) throw new Error(`prepareRows: placeholder "${placeholder.name}" out of place`);
    return { at: rowPart ? at : at - width + rows * width, fixed: undefined, encode: encoder ? (v) => encoder.mapToDriverValue(v) : null };
  };
  const slots: Slot[] = [];
  one.params.forEach((p, k) => {
    const rowPart = k >= before && k < before + inPart;
    if (!rowPart) slots.push(slotOf(p, false));
  });
  const headSlots = slots.splice(0, before);
  const tailSlots = slots;
  const partSlots = one.params.slice(before, before + inPart).map((p) => slotOf(p, true));
  const statement = conn.prepare(head + Array.from({ length: rows }, () => part).join(joiner) + tail);
  const fill = (out: unknown[], slot: Slot, values: unknown[], offset: number) => {
    if (slot.at < 0) out.push(slot.fixed);
    else out.push(slot.encode ? slot.encode(values[slot.at + offset]) : values[slot.at + offset]);
  };
  return {
    async run(values) {
      if (values.length !== rows * width + tailSlots.filter((x) => x.at >= 0).length + headSlots.filter((x) => x.at >= 0).length)
        throw new Error(`prepareRows: ${values.length} values for ${rows} rows of ${width}`);
      const params: unknown[] = [];
      for (const slot of headSlots) fill(params, slot, values, 0);
      for (let i = 0; i < rows; i++) for (const slot of partSlots) fill(params, slot, values, i * width);
      for (const slot of tailSlots) fill(params, slot, values, 0);
      statement.run(...(params as []));
    },
  };
}

function keptStatements(conn: Database): void {
  const prepare = conn.prepare.bind(conn) as (sql: string, ...rest: unknown[]) => ReturnType<Database["prepare"]>;
  const kept = new Map<string, ReturnType<Database["prepare"]>>();
  conn.prepare = ((sql: string, ...rest: unknown[]) => {
    // Bound parameters at prepare time (bun:sqlite's second argument) make a statement of its own.
    if (rest.length) return prepare(boundAsPlanned(sql), ...rest);
    let stmt = kept.get(sql);
    if (stmt) {
      kept.delete(sql);
    } else {
      stmt = prepare(boundAsPlanned(sql));
      if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value as string);
    }
    kept.set(sql, stmt);
    return stmt;
  }) as typeof conn.prepare;
}

/**
 * The writer while an import writes (Db.bulkWrites). A member touches a dozen indexes at random
 * places: at 100,000 members SQLite's default 2 MB page cache read most of those pages again
 * from the file for every batch (10,000 new members read 550 MB), and each commit of a 100 ms
 * slice, past the 1,000 pages of the WAL that start a checkpoint, copied the pages into the file
 * and synced it (370 MB written). Measured: a 32 MB cache and a checkpoint every 16,000 pages
 * (64 MB of WAL) read 74 MB and wrote 229 MB; 16 MB and every 8,000 pages 138 and 257; either in
 * about half the time. 16 MB and 16,000 pages here: the cache counts in a 100,000-line import's
 * memory growth, held under 100 MB (92-95 MB seen with 32 MB). Both go back to the defaults when
 * the last import of the process ends, and the cache gives its memory back.
 */
const BULK_CACHE_KIB = 16_384;
const BULK_CHECKPOINT_PAGES = 16_000;

/** Drizzle's record of the migrations applied (its layout, so that drizzle-kit reads it too). */
const MIGRATIONS_TABLE = "CREATE TABLE IF NOT EXISTS __drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)";

/**
 * Applies the migrations not yet applied, as drizzle's migrator does (each after the last one
 * recorded, by its time), but under the database's write lock from before it looks: drizzle's
 * looks first and begins after, so several processes starting at once on an empty file each found
 * nothing applied, and all but one failed on a table the first had made ("three processes started
 * at once" in test/server-start.test.ts; test/db/migrate-at-once.test.ts). A file already up to
 * date takes no write lock (every start but an upgrade's).
 */
function migrate(conn: Database): void {
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS });
  const newest = Math.max(...migrations.map((m) => m.folderMillis));
  const lastApplied = () =>
    Number(conn.query<{ created_at: number }, []>("SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1").get()?.created_at ?? 0);
  const recorded = conn.query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE name = '__drizzle_migrations'").get()?.n;
  if (recorded && lastApplied() >= newest) return;
  // Waits (busy_timeout) for another process migrating the same file, then sees what it applied.
  conn.exec("BEGIN IMMEDIATE");
  try {
    conn.exec(MIGRATIONS_TABLE);
    const last = lastApplied();
    const record = conn.prepare<void, [string, number]>("INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)");
    for (const migration of migrations) {
      if (migration.folderMillis <= last) continue;
      for (const statement of migration.sql) conn.run(statement);
      record.run(migration.hash, migration.folderMillis);
    }
    conn.exec("COMMIT");
  } catch (err) {
    if (conn.inTransaction) conn.exec("ROLLBACK");
    throw err;
  }
}

function ready(path: string, writerConn: Database, readerConn: Database, checkedAt?: string): Db {
  const writer = drizzle({ client: writerConn, schema });
  const reader = drizzle({ client: readerConn, schema });
  migrate(writerConn);
  backfillSortNames(writerConn);
  backfillManageTokens(writerConn);
  backfillEmailKeys(writerConn);
  memberVersionTriggers(writerConn);
  const group = new GroupCommit(writerConn, writer);
  const dataVersion = writerConn.prepare<{ data_version: number }, []>("PRAGMA data_version");
  let seenVersion = dataVersion.get()?.data_version;
  const defaultCache = writerConn.query<{ cache_size: number }, []>("PRAGMA cache_size").get()?.cache_size ?? -2000;
  const defaultCheckpoint = writerConn.query<{ wal_autocheckpoint: number }, []>("PRAGMA wal_autocheckpoint").get()?.wal_autocheckpoint ?? 1000;
  let bulkRuns = 0;
  const preparedReads = new Map<string, unknown>();
  const preparedWrites = new Map<string, unknown>();
  const preparedRows = new Map<string, RowsStatement>();
  return {
    engine: "sqlite",
    read: reader,
    prepareRead<P>(name: string, build: (q: Queryable) => { prepare(): P }): P {
      let query = preparedReads.get(name) as P | undefined;
      if (query === undefined) {
        query = compiledRows(build(reader).prepare());
        preparedReads.set(name, query);
      }
      return query;
    },
    prepareTx<P>(name: string, build: (q: Queryable) => { prepare(): P }): (t: Queryable) => P {
      // Every transaction runs on the writer connection (GroupCommit), so the statement prepared
      // there once serves each `t`.
      let query = preparedWrites.get(name) as P | undefined;
      if (query === undefined) {
        query = compiledRows(build(writer).prepare());
        preparedWrites.set(name, query);
      }
      const prepared = query;
      return () => prepared;
    },
    prepareRows(name, rows, width, build) {
      const key = `${name}:${rows}`;
      let statement = preparedRows.get(key);
      if (statement === undefined) {
        const one = build(writer, 1).prepare() as unknown as OneRow;
        statement = manyRows(writerConn, one.query, rows, width);
        preparedRows.set(key, statement);
      }
      const kept = statement;
      return () => kept;
    },
    bulkWrites() {
      if (bulkRuns++ === 0) {
        writerConn.exec(`PRAGMA cache_size = -${BULK_CACHE_KIB}`);
        writerConn.exec(`PRAGMA wal_autocheckpoint = ${BULK_CHECKPOINT_PAGES}`);
      }
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        if (--bulkRuns > 0) return;
        writerConn.exec(`PRAGMA cache_size = ${defaultCache}`);
        writerConn.exec(`PRAGMA wal_autocheckpoint = ${defaultCheckpoint}`);
        writerConn.exec("PRAGMA shrink_memory");
      };
    },
    othersWrote() {
      const now = dataVersion.get()?.data_version;
      const changed = now !== seenVersion;
      seenVersion = now;
      return changed;
    },
    path,
    checkedAt,
    raw: writerConn,
    tx: (fn) => group.run(fn),
    async query<R>(text: string, params: unknown[] = []) {
      return readerConn.query(text).all(...(params as [])) as R[];
    },
    async close() {
      if (readerConn !== writerConn) readerConn.close();
      // Cached statements make close() lazy (sqlite3_close_v2), which skips the checkpoint a
      // last close does: without this the database file alone, copied after a clean stop, would
      // miss what is still in the -wal file. PASSIVE never waits: a CLI command closing while
      // the server writes is not held up (the server checkpoints when it stops).
      let whole = false;
      try {
        if (path !== ":memory:") {
          const done = writerConn.query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)").get();
          whole = done?.busy === 0 && done.log === done.checkpointed;
        }
      } finally {
        writerConn.close();
      }
      // A checked file closed cleanly, all of it in the file: its next start need not read it whole (checkedBefore).
      if (checkedAt !== undefined && whole) {
        const mark: CheckedMark = { file: fileState(path), checkedAt };
        try {
          writeFileSync(checkedMark(path), `${JSON.stringify(mark)}\n`);
        } catch {
          // No room, or no write: the next start checks the file whole, as without the mark.
        }
      }
    },
  };
}
