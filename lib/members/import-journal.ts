// The journal of a member import that writes in short transactions (issue 18: an import must
// never hold the single writer for long). It owns the club's import lock (a `running` row of
// member_imports, held with a lease that its process renews), the undo rows each batch writes beside its members (member_import_undo), and
// undoing: an import that stops on an error found while writing, or that throws, or whose
// process died (kill -9, power cut: `recoverImports` at the next start), is undone batch by batch,
// so no half import stays. Only lib/members/import.ts writes through it.
import { hostname } from "node:os";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { AnyColumn, Db, Queryable } from "../../db";
import { lockRows } from "../../db/locks";
import {
  appleRegistrations,
  eventRegistrations,
  flaggedPayments,
  invoices,
  mailingRecipients,
  memberHistory,
  memberImports,
  memberImportUndo,
  members,
  payments,
  promoRedemptions,
  scans,
} from "../../db/schema";
import { Conflict } from "../errors";
import { stepwiseDb } from "../idempotency";
import { newId, nowIso } from "../ids";
import { queueMarkedPassUpdate } from "../passes";
import { emitter } from "../webhooks/emit";
import { emitMemberChange, loadItems, searchTextOf, sortNameOf } from "./internal";
import type { MemberAdminItem } from "./schemas";

/** One member an import wrote: its id, its history row's id, and the member as it was (null: created). */
export type UndoEntry = [memberId: string, historyId: string, before: Record<string, unknown> | null];

const HOST = hostname();
/**
 * How long a running import's lease holds unrenewed; its process renews it every quarter of
 * that. An import of a process on another machine that stopped renewing (kill -9, power cut) is
 * undone by the next import of its club, or the next start, once it has lapsed.
 */
export const IMPORT_LEASE_MS = 60_000;
/**
 * Undo rows (a batch each: up to 200 members written alone, 50 under contention) read, and their
 * members restored, per transaction: up to 400 members, where 5 rows of 50 were 250 before
 * batches of 200 (a short hold of the writer either way; fewer rows would undo an import written
 * under contention in several times as many transactions).
 */
const UNDO_ROWS = 2;
/** Undo rows deleted per transaction once an import is done. */
const PURGE_ROWS = 40;
/** The columns an import writes, restored from `before` (id, email and referral code it never changes). */
const RESTORED = [
  "first_name",
  "last_name",
  "membership_start",
  "membership_end",
  "payment_status",
  "status_before_suspension",
  "payment_method",
  "tier_id",
  "custom_fields",
] as const;

/** The imports of one club in this process run one after the other; ids of those running here. */
const clubChains = new Map<string, Promise<unknown>>();
const runningHere = new Set<string>();

/**
 * Whether requests of this process wait besides the import's own: the server says
 * (`whenOthersWait`); a process that serves no requests (the CLI) has none of its own.
 */
let othersWaiting: (() => boolean) | null = null;

/** The server's answer to "is anyone else waiting?", asked after each slice of an import (null: nobody asks). */
export function whenOthersWait(check: (() => boolean) | null): void {
  othersWaiting = check;
}

/**
 * The longest an import works before it lets other requests go, in the writer (a transaction)
 * or on the event loop (checking lines), while others wait: in time rather than lines, so that a
 * slower or busier machine makes shorter batches, not longer waits.
 */
export const SLICE_MS = 25;
/**
 * The same while nobody waits. Each commit of an import writes every page its slice touched
 * (a member touches five indexes at random places) and syncs the disk: 5,000 lines made some 45
 * commits of 25 ms slices, 0.7-1 s of a 2 s import. A request that comes meanwhile waits for the
 * rest of one slice at most; from then on it is waiting, and slices are short.
 */
export const LONE_SLICE_MS = 100;
/**
 * Alone, the import leaves the write lock free this long once every GAP_EVERY_MS of work: longer
 * than the longest sleep of SQLite's busy handler (100 ms), so that another process waiting for
 * the lock (which it cannot see before that process commits) gets it, well within its timeout.
 */
const GAP_MS = 110;
/** How often an import asks the database whether another process wrote (Db.othersWrote). */
const ASK_EVERY_MS = 5;
const GAP_EVERY_MS = 1000;

/** The rhythm of one import: when to end a slice, and how long to rest after it. */
export type Pace = {
  /** Whether the slice begun at `since` (performance.now()) is used up. */
  sliceOver(since: number): boolean;
  /**
   * Lets waiting work go after `worked` ms of import holding the writer (see `pace`). `atGap`
   * runs when the import leaves the lock free for another process (GAP_MS, counted from before it):
   * work of this process's own that holds no lock (a forced collection) done there rather than
   * beside it.
   */
  pause(worked: number, atGap?: () => void): Promise<void>;
  /**
   * A pause once per slice of work that holds no lock (checking, planning): call it between two
   * pieces of work. It lets this process's waiting requests go; no gap, as no other process can be
   * waiting for this work.
   */
  turn(): Promise<void>;
  /** Whether nobody else waits for the writer or the event loop now (the import may take larger bites). */
  alone(): boolean;
};

/**
 * How an import on `db` shares its process and its database. Others wait when the server has
 * requests in hand besides the import's own, or when another process has written to the
 * database since the import began (a server beside the CLI: from then on, for the rest of the
 * import). Then slices are short and, after each, the import rests as long as the slice took: a
 * request takes several turns of the event loop (body, key, query, audit row), and one turn
 * between two slices left each of those turns behind a whole slice (another club's p99 was
 * 360-400 ms during a 100,000-line import on a busy machine). The import then gives up at most
 * half of the time; alone, it takes long slices and only the short gaps of GAP_MS.
 */
export function pace(db: Db): Pace {
  let shared = false;
  let sinceGap = 0;
  let askedAt = Number.NEGATIVE_INFINITY;
  const others = () => {
    // The database asked at most every ASK_EVERY_MS: asked for each line of a slice's last 75 ms,
    // its 10 µs came to 34,000 asks and 0.9 s of a 100,000-line import.
    if (!shared && performance.now() - askedAt >= ASK_EVERY_MS) {
      askedAt = performance.now();
      if (db.othersWrote()) shared = true;
    }
    return shared || (othersWaiting?.() ?? false);
  };
  const sliceOver = (since: number) => {
    const took = performance.now() - since;
    return took >= SLICE_MS && (took >= LONE_SLICE_MS || others());
  };
  const rest = (worked: number) => (worked > 0 && others() ? Bun.sleep(Math.min(worked, SLICE_MS)) : null);
  const pause = (worked: number, atGap?: () => void) => {
    const resting = rest(worked);
    if (resting) return resting;
    sinceGap += worked;
    if (sinceGap < GAP_EVERY_MS) return nextTurn();
    sinceGap = 0;
    // The lock is free from here on: what runs first counts in the gap (a forced collection of
    // 25-45 ms was paid beside the gap, some 1.5 s of a 100,000-line import), the sleep the rest.
    const began = performance.now();
    atGap?.();
    const left = GAP_MS - (performance.now() - began);
    return left > 0 ? Bun.sleep(left) : nextTurn();
  };
  let since = performance.now();
  return {
    sliceOver,
    pause,
    alone: () => !others(),
    async turn() {
      if (!sliceOver(since)) return;
      await (rest(performance.now() - since) ?? nextTurn());
      since = performance.now();
    },
  };
}

/** One turn of the event loop: what is waiting on it goes first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes what undoes a batch, in the batch's transaction: ONE row holding every member's entry
 * (a row per member, then deleted one by one once the import was done, cost about a sixth of a
 * 5,000-line import), and the instant the batch wrote its members (their `updated_at`).
 */
export async function journal(t: Queryable, importId: string, entries: UndoEntry[], writtenAt: string): Promise<void> {
  if (!entries.length) return;
  const [memberId, historyId] = entries[0];
  await t.insert(memberImportUndo).values({ import_id: importId, member_id: memberId, history_id: historyId, entries, written_at: writtenAt });
}

/** A row's entries, newest last; a row written before the batched form holds one member in its own columns. */
function entriesOf(row: typeof memberImportUndo.$inferSelect): UndoEntry[] {
  return row.entries ?? [[row.member_id, row.history_id, row.before ?? null]];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === "EPERM";
  }
}

/**
 * Whether the process that ran an import is gone: on this machine, its pid no longer runs (or is
 * ours while this process runs no such import); on another machine (several processes on one
 * PostgreSQL), its lease has lapsed unrenewed.
 */
function ownerGone(row: { id: string; host: string; pid: number; lease_until: string | null }, now: string): boolean {
  if (row.host !== HOST) return row.lease_until !== null && row.lease_until < now;
  if (row.pid === process.pid) return !runningHere.has(row.id);
  return !alive(row.pid);
}

const leaseFrom = (now: number) => new Date(now + IMPORT_LEASE_MS).toISOString();

/**
 * The columns that name a member in another row: what refers to a member the import created
 * (test/lib/members-import-contention checks that every `member_id` of the schema is here).
 */
export const NAMING: AnyColumn[] = [
  payments.member_id,
  flaggedPayments.member_id,
  scans.member_id,
  eventRegistrations.member_id,
  promoRedemptions.member_id,
  appleRegistrations.member_id,
  invoices.member_id,
  mailingRecipients.member_id,
  members.referred_by_member_id,
];

/** The distinct values among `ids` of one NAMING column: the members its rows name. */
export const namingRows = (q: Queryable, column: AnyColumn, ids: string[]) => q.selectDistinct({ id: column }).from(column.table).where(inArray(column, ids));

/**
 * Which of `ids` (members an import created) a row of another kind names since: a payment, a
 * registration, a card scan, a wallet, an invoice, a mailing, a member they referred. Asked
 * before deleting rather than caught after: only the wallet's reference is a foreign key, and on
 * PostgreSQL a failed statement aborts the whole transaction. Asked with the members locked
 * (`undoImport`): no such row can be committed between the question and the delete.
 */
async function namedSince(t: Queryable, ids: string[]): Promise<Set<string>> {
  const named = new Set<string>();
  if (!ids.length) return named;
  for (const column of NAMING) {
    const rows = await namingRows(t, column, ids);
    for (const { id } of rows) named.add(id as string);
  }
  return named;
}

/**
 * Undoes what import `importId` wrote, newest first, in short transactions: a member it created
 * is deleted, a member it updated gets its columns back, with the import's history rows, unless
 * someone changed the member since (its `updated_at` moved on): that later, acknowledged change
 * is kept. A created member something else names since (`namedSince`) is kept too, with its
 * history.
 */
async function undoImport(db: Db, importId: string, clubId: string): Promise<void> {
  for (;;) {
    const left = await db.tx(async (t) => {
      const rows = await t.select().from(memberImportUndo).where(eq(memberImportUndo.import_id, importId)).orderBy(desc(memberImportUndo.seq)).limit(UNDO_ROWS);
      if (!rows.length) return 0;
      const entries = rows.flatMap((row) =>
        entriesOf(row)
          .map((entry) => ({ entry, writtenAt: row.written_at }))
          .reverse(),
      );
      // Locked before anything is read of them or of what names them: a writer naming one of
      // them (db/locks `namingRead`, FOR KEY SHARE) has committed, and is seen by
      // `namedSince`, or waits and then finds the member gone (PostgreSQL; SQLite's write lock
      // already keeps every other writer out). The same lock waits for a change of the member.
      await lockRows(
        t,
        members,
        members.id,
        entries.map((e) => e.entry[0]),
      );
      const current = await t
        .select({ id: members.id, updated_at: members.updated_at, payment_status: members.payment_status, membership_end: members.membership_end })
        .from(members)
        .where(
          inArray(
            members.id,
            entries.map((e) => e.entry[0]),
          ),
        );
      const updatedAt = new Map(current.map((m) => [m.id, m.updated_at]));
      const found = new Map(current.map((m) => [m.id, m]));
      const now = nowIso();
      const kept = await namedSince(
        t,
        entries.filter(({ entry: [id, , before], writtenAt }) => before === null && updatedAt.get(id) === writtenAt).map(({ entry: [id] }) => id),
      );
      const restored: string[] = [];
      // The import told the club's webhooks what it wrote: its undo tells them it is gone.
      const out = await emitter(db, t, clubId);
      const changes: { before: (typeof current)[number]; after: (typeof current)[number] }[] = [];
      for (const {
        entry: [memberId, historyId, before],
        writtenAt,
      } of entries) {
        if (updatedAt.get(memberId) !== writtenAt || kept.has(memberId)) continue;
        await t.delete(memberHistory).where(eq(memberHistory.id, historyId));
        if (before === null) {
          await t.delete(members).where(eq(members.id, memberId));
          await out.emit("member.deleted", () => ({ id: memberId, deleted_at: now }));
          continue;
        }
        const back: Record<string, unknown> = Object.fromEntries(RESTORED.map((c) => [c, before[c] ?? null]));
        const names = {
          first_name: before.first_name as string,
          last_name: before.last_name as string,
          email: before.email as string,
          referral_code: before.referral_code as string,
        };
        await t
          .update(members)
          .set({ ...back, search_text: searchTextOf(names), sort_name: sortNameOf(names), pass_updated_at: now, updated_at: now })
          .where(eq(members.id, memberId));
        restored.push(memberId);
        const was = found.get(memberId) as (typeof current)[number];
        changes.push({ before: was, after: { ...was, payment_status: back.payment_status as string, membership_end: back.membership_end as string } });
      }
      await queueMarkedPassUpdate(t, clubId, restored, "import_undone", now);
      if (changes.length) {
        const items = new Map((await loadItems(t, clubId, restored)).map((i) => [i.id, i]));
        for (const c of changes) await emitMemberChange(out, c.before, c.after, async () => items.get(c.after.id) as MemberAdminItem);
      }
      await t.delete(memberImportUndo).where(
        inArray(
          memberImportUndo.seq,
          rows.map((r) => r.seq),
        ),
      );
      return rows.length;
    });
    if (!left) break;
    await nextTurn();
  }
  await db.tx((t) => t.update(memberImports).set({ status: "undone", finished_at: nowIso() }).where(eq(memberImports.id, importId)));
}

/** Deletes a finished import's undo rows, a batch per transaction. */
async function purgeUndo(db: Db, importId: string): Promise<void> {
  for (;;) {
    const seqs = await db.read.select({ seq: memberImportUndo.seq }).from(memberImportUndo).where(eq(memberImportUndo.import_id, importId)).limit(PURGE_ROWS);
    if (!seqs.length) return;
    await db.tx((t) =>
      t.delete(memberImportUndo).where(
        inArray(
          memberImportUndo.seq,
          seqs.map((s) => s.seq),
        ),
      ),
    );
    await nextTurn();
  }
}

/**
 * Undoes every running import whose process is gone (a crash cut it short), of `clubId` or of
 * every club. The server runs it at start, an import before it takes the club's lock.
 */
export async function recoverImports(db: Db, clubId?: string): Promise<number> {
  const running = await db.read
    .select({ id: memberImports.id, club_id: memberImports.club_id, host: memberImports.host, pid: memberImports.pid, lease_until: memberImports.lease_until })
    .from(memberImports)
    .where(and(eq(memberImports.status, "running"), clubId ? eq(memberImports.club_id, clubId) : undefined));
  const now = nowIso();
  let undone = 0;
  for (const row of running.filter((r) => ownerGone(r, now))) {
    await undoImport(db, row.id, row.club_id);
    undone++;
  }
  return undone;
}

/**
 * Runs `write` holding the club's import lock: imports of one club in this process wait for each
 * other; one running in another process is a 409 IMPORT_RUNNING. `write` answers whether what it
 * wrote stays (`keep`): then the import is done, its undo rows purged; else, or when it throws,
 * it is undone.
 */
export function withImportLock<T>(db: Db, clubId: string, write: (importId: string) => Promise<{ keep: boolean; result: T }>): Promise<T> {
  const previous = clubChains.get(clubId) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(() => locked(db, clubId, write));
  const tail = run.catch(() => {});
  clubChains.set(clubId, tail);
  void tail.then(() => {
    if (clubChains.get(clubId) === tail) clubChains.delete(clubId);
  });
  return run;
}

async function locked<T>(db: Db, clubId: string, write: (importId: string) => Promise<{ keep: boolean; result: T }>): Promise<T> {
  // Every step but the last commits on its own, even for a keyed import: the journal makes a crash
  // before `done` harmless (recoverImports undoes it, and the key's retry imports again).
  const steps = stepwiseDb(db);
  // The writer readied for many writes while this import (or the undoing of one) runs.
  const endBulk = db.bulkWrites();
  const id = newId();
  let renewal: ReturnType<typeof setInterval> | undefined;
  try {
    await recoverImports(steps, clubId);
    runningHere.add(id);
    // Renewed while this import runs: another machine's process takes it as gone only once it lapses.
    renewal = setInterval(() => {
      steps
        .tx((t) =>
          t
            .update(memberImports)
            .set({ lease_until: leaseFrom(Date.now()) })
            .where(and(eq(memberImports.id, id), eq(memberImports.status, "running"))),
        )
        .catch((err) => console.error("member import: lease renewal:", err));
    }, IMPORT_LEASE_MS / 4);
    try {
      await steps.tx((t) =>
        t
          .insert(memberImports)
          .values({ id, club_id: clubId, status: "running", host: HOST, pid: process.pid, started_at: nowIso(), lease_until: leaseFrom(Date.now()) }),
      );
    } catch (err) {
      const [other] = await steps.read
        .select({ id: memberImports.id })
        .from(memberImports)
        .where(and(eq(memberImports.club_id, clubId), eq(memberImports.status, "running")));
      if (other) throw new Conflict("IMPORT_RUNNING");
      throw err;
    }
    let outcome: { keep: boolean; result: T };
    try {
      outcome = await write(id);
    } catch (err) {
      await undoImport(steps, id, clubId);
      throw err;
    }
    if (!outcome.keep) {
      await undoImport(steps, id, clubId);
      return outcome.result;
    }
    // The one short commit that makes the import final (through `db`: a keyed import's answer is
    // kept with it, lib/idempotency); its undo rows then go, a batch at a time.
    await db.tx((t) => t.update(memberImports).set({ status: "done", finished_at: nowIso() }).where(eq(memberImports.id, id)));
    await purgeUndo(db, id);
    return outcome.result;
  } finally {
    clearInterval(renewal);
    runningHere.delete(id);
    endBulk();
  }
}
