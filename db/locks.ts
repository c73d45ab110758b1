// Row locks for the rules that read, then write on what they read (places left, uses left). On
// SQLite every write transaction already holds the database's write lock from its first
// statement (BEGIN IMMEDIATE, db/sqlite.ts), across connections and processes, so nothing more is
// needed there. On PostgreSQL transactions run side by side: the first statement of such a rule
// locks the row that stands for what it counts (`SELECT ... FOR UPDATE`), and a second
// transaction for the same row waits until the first has committed, then reads what it wrote.
import { inArray, type SQL, sql } from "drizzle-orm";
import { type AnyColumn, type AnyTable, aheadOf, clubMembersIn, type Queryable } from "./index";
import { members } from "./schema";
import { onPostgres } from "./dialect";

/**
 * Runs the lock statement `query` in `t`: sent ahead of `t`'s next statement when the connection
 * can (db/index.ts `Ahead`: one round trip less on PostgreSQL; the next statement runs after the
 * lock is taken, and a lock refused fails it), else now. Nothing is read from it.
 */
async function lock(t: Queryable, query: SQL): Promise<void> {
  if (aheadOf.get(t)?.send(query)) return;
  await (t as unknown as { execute(q: SQL): Promise<unknown> }).execute(query);
}

/**
 * Locks the rows of `table` where `column` is `value` (or one of the values, within `scope`) until
 * the transaction `t` ends (PostgreSQL;
 * nothing to do on SQLite). Lock parents before children and in one order (event, then ticket,
 * then promo code) so two rules never wait on each other.
 */
export async function lockRows(t: Queryable, table: AnyTable, column: AnyColumn, value: string | readonly string[], scope?: SQL): Promise<void> {
  if (!onPostgres) return;
  const values = typeof value === "string" ? [value] : value;
  if (!values.length) return;
  const key = (table as unknown as Record<string, AnyColumn>).id ?? column;
  // In the order of the rows' ids, so that two lockers of overlapping sets never wait on each other.
  await lock(t, sql`select 1 from ${table} where ${inArray(column, [...values])} ${scope ? sql`and ${scope}` : sql``} order by ${key} for update`);
}

/**
 * `query` (a select of rows to claim) locking the rows it returns and passing over those another
 * transaction has locked (PostgreSQL's `FOR UPDATE SKIP LOCKED`): claimers side by side take
 * different rows instead of waiting on one another. SQLite's write lock serializes them already.
 */
export function skipLocked<Q>(query: Q): Q {
  if (!onPostgres) return query;
  return (query as unknown as { for(strength: "update", config: { skipLocked: true }): Q }).for("update", { skipLocked: true });
}

/**
 * `query` (a select of rows a rule reads, then writes on) locking the rows it returns until the
 * transaction ends (PostgreSQL's `FOR UPDATE`): lockRows and the read in one statement, one round
 * trip instead of two. SQLite's write lock serializes the writers already.
 */
export function forUpdate<Q>(query: Q): Q {
  if (!onPostgres) return query;
  return (query as unknown as { for(strength: "update"): Q }).for("update");
}

/**
 * Locks the name `name` until the transaction `t` ends (PostgreSQL's transaction-level advisory
 * lock on the name's 64-bit hash; nothing to do on SQLite), for a rule about rows that may not
 * exist yet, which no row lock can cover: "no member of this club has this email yet, so insert".
 */
export async function lockName(t: Queryable, name: string): Promise<void> {
  if (!onPostgres) return;
  await lock(t, sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}

/**
 * Locks several names until the transaction `t` ends, in one statement (one round trip instead of
 * one each), in the order given, each as `lockNameShared` (`shared`) or `lockName` would.
 * PostgreSQL evaluates a select list from left to right; were two lockers ever to meet in another
 * order, the deadlock is detected and the loser's transaction run again (db/pg.ts).
 */
export async function lockNames(t: Queryable, names: readonly { name: string; shared?: boolean }[]): Promise<void> {
  if (!onPostgres || !names.length) return;
  const locks = names.map(({ name, shared }) =>
    shared ? sql`pg_advisory_xact_lock_shared(hashtextextended(${name}, 0))` : sql`pg_advisory_xact_lock(hashtextextended(${name}, 0))`,
  );
  await lock(t, sql`select ${sql.join(locks, sql`, `)}`);
}

/**
 * Locks the name `name` shared until the transaction `t` ends (PostgreSQL's shared advisory lock;
 * nothing on SQLite): holders of the shared lock run side by side, and wait for (and hold off)
 * one who takes it exclusively with `lockName`.
 */
export async function lockNameShared(t: Queryable, name: string): Promise<void> {
  if (!onPostgres) return;
  await lock(t, sql`select pg_advisory_xact_lock_shared(hashtextextended(${name}, 0))`);
}

/**
 * `query` (a select of rows another row is about to name) locking the rows of `table` it returns
 * FOR KEY SHARE until the transaction ends (PostgreSQL; as it is on SQLite, whose write lock
 * already keeps every other writer out). Holders of KEY SHARE run side by side and beside plain
 * updates of the rows; they wait for (and hold off) FOR UPDATE and DELETE: whoever deletes a row
 * after looking for what names it (an import's undo) locks it FOR UPDATE first. `of`: only
 * `table`'s rows (a left-joined table's may be null, which no lock can take).
 */
export function keyShare<Q>(query: Q, table: AnyTable): Q {
  if (!onPostgres) return query;
  return (query as unknown as { for(strength: "key share", config: { of: AnyTable }): Q }).for("key share", { of: table });
}

/** The locking clause `keyShare` adds, for a sub-select written in SQL (nothing on SQLite). */
export const keyShareClause = (): SQL => (onPostgres ? sql` for key share` : sql``);

/**
 * The read of a member (or members) that a row about to name them is written from (a payment, a
 * registration, a scan, a wallet, an invoice, a mailing's recipient, a member they referred: the
 * columns of lib/members/import-journal `NAMING`), made inside that row's transaction: it locks
 * the members' rows FOR KEY SHARE until the transaction ends (PostgreSQL). Whoever deletes a
 * member after asking what names them (an import's undo, an erasure) locks the row FOR UPDATE
 * first, so one of the two waits for the other and then sees what it committed: the undo finds
 * the new row and keeps the member, or the writer finds the member gone and writes nothing.
 * Writers of such rows do not wait for one another (KEY SHARE does not conflict with itself nor
 * with plain updates). Lock order: a writer locking an event's places or the club's email lock
 * takes it before the member, and writes a promo code's row after; the undo locks members only.
 * SQLite needs none of it: every write transaction holds the database's write lock from its
 * first statement (the top of this file).
 */
export const namingRead = <Q>(query: Q): Q => keyShare(query, members);

/**
 * Of `ids`, the members of the club `clubId` that still exist, locked as `namingRead` (in the
 * order of their ids, so that two such lockers of overlapping sets and the undo never wait in a
 * circle), for a writer that holds their ids from a read made before its transaction.
 */
export async function lockNamedMembers(t: Queryable, clubId: string, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await namingRead(t.select({ id: members.id }).from(members).where(clubMembersIn(clubId, ids)).orderBy(members.id));
  return new Set(rows.map((r) => r.id));
}
