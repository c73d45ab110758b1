// MCP tasks' store (DESIGN.md section 23): a long tool call the client asked to run as a task is a
// row of mcp_tasks, so that any process serving the stateless endpoint answers for it. The process
// running it holds a lease it renews; a task whose runner died is failed when next read, never left
// working. Each write is conditional on the task still working (and, for the runner's, still held by
// it): a cancel and the runner's result race safely, the first one wins. Tasks are seen only by
// their owner (the key or the admin that made them) in their club. No MCP SDK here: server/mcp-tasks.ts
// speaks the protocol.
import { and, desc, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { mcpTasks } from "../../db/schema";
import { newId } from "../ids";
import { JOB_OWNER } from "../jobs";

export type TaskRow = typeof mcpTasks.$inferSelect;
export type TaskStatus = "working" | "completed" | "failed" | "cancelled";
/** Whose tasks: the club and the caller (`key:<id>` or `admin:<id>`). */
export type TaskOwner = { clubId: string; owner: string };

/** How long a runner's claim holds unrenewed: renewed every third of it, so only a dead process lets it lapse. */
export const TASK_LEASE_MS = 30_000;
/** How long a task is kept when the client asks for nothing, and the longest it may ask for. */
export const TASK_TTL_MS = 60 * 60_000;
export const TASK_TTL_MAX_MS = 24 * 60 * 60_000;
/** What `tasks/list` answers at most per page. */
export const TASKS_PAGE = 50;
/** A task whose result named a member erased since (its status message): the result is gone. */
export const TASK_ERASED = "erased: its result named a member erased since";
/** Why a working task whose lease lapsed failed (its status message). */
export const TASK_LOST = "lost: the process running it stopped";

const at = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/** The ttl a task gets: the client's, within one minute and TASK_TTL_MAX_MS. */
export const taskTtl = (asked: number | undefined) => Math.min(Math.max(Math.round(asked ?? TASK_TTL_MS), 60_000), TASK_TTL_MAX_MS);

/** A new working task held by this process; the tasks of any club past their ttl are forgotten on the way. */
export async function createTask(db: Db, who: TaskOwner, tool: string, ttlMs: number, now = new Date()): Promise<TaskRow> {
  const iso = now.toISOString();
  const row: TaskRow = {
    id: newId(),
    club_id: who.clubId,
    owner: who.owner,
    tool,
    status: "working",
    status_message: null,
    progress: null,
    total: null,
    result: null,
    ttl_ms: ttlMs,
    created_at: iso,
    updated_at: iso,
    expires_at: at(now, ttlMs),
    lease_owner: JOB_OWNER,
    lease_until: at(now, TASK_LEASE_MS),
  };
  await db.tx(async (t) => {
    await t.delete(mcpTasks).where(lt(mcpTasks.expires_at, iso));
    await t.insert(mcpTasks).values(row);
  });
  return row;
}

/** This runner's conditions on a write: the task still working and still its own. */
const held = (id: string) => and(eq(mcpTasks.id, id), eq(mcpTasks.status, "working"), eq(mcpTasks.lease_owner, JOB_OWNER));

/** Extends the runner's lease; false once the task is no longer its to run (cancelled, or failed as lost). */
export async function renewTask(db: Db, id: string, now = new Date()): Promise<boolean> {
  const rows = await db.tx((t) =>
    t
      .update(mcpTasks)
      .set({ lease_until: at(now, TASK_LEASE_MS) })
      .where(held(id))
      .returning({ id: mcpTasks.id }),
  );
  return rows.length > 0;
}

/** How far the task has come (written at most as often as the tool reports). */
export async function taskProgress(db: Db, id: string, done: number, total: number, now = new Date()): Promise<void> {
  await db.tx((t) =>
    t
      .update(mcpTasks)
      .set({ progress: done, total, status_message: `${done}/${total}`, updated_at: now.toISOString() })
      .where(held(id)),
  );
}

/**
 * The runner's outcome: kept only if the task is still working and its own (a cancel came first:
 * dropped). `message` (a refusal's detail) replaces the last progress report; none keeps it.
 */
export async function finishTask(
  db: Db,
  id: string,
  status: "completed" | "failed",
  result: Record<string, unknown>,
  message: string | null,
  now = new Date(),
): Promise<boolean> {
  const rows = await db.tx((t) =>
    t
      .update(mcpTasks)
      .set({ status, result, ...(message === null ? {} : { status_message: message }), updated_at: now.toISOString(), lease_owner: null, lease_until: null })
      .where(held(id))
      .returning({ id: mcpTasks.id }),
  );
  return rows.length > 0;
}

/** A working task whose runner's lease lapsed at `now` is failed (conditionally: a runner's late result may have come first). */
async function failLapsed(db: Db, row: TaskRow, now: Date): Promise<TaskRow> {
  if (row.status !== "working" || !row.lease_until || row.lease_until >= now.toISOString()) return row;
  const iso = now.toISOString();
  await db.tx((t) =>
    t
      .update(mcpTasks)
      .set({ status: "failed", status_message: TASK_LOST, updated_at: iso, lease_owner: null, lease_until: null })
      .where(and(eq(mcpTasks.id, row.id), eq(mcpTasks.status, "working"), lt(mcpTasks.lease_until, iso))),
  );
  return (await readTask(db, row.id)) ?? row;
}

async function readTask(db: Db, id: string): Promise<TaskRow | undefined> {
  const [row] = await db.read.select().from(mcpTasks).where(eq(mcpTasks.id, id));
  return row;
}

/** The caller's task, as it stands now; null when it is someone else's, unknown or past its ttl. */
export async function findTask(db: Db, who: TaskOwner, id: string, now = new Date()): Promise<TaskRow | null> {
  const row = await readTask(db, id);
  if (!row || row.club_id !== who.clubId || row.owner !== who.owner || row.expires_at < now.toISOString()) return null;
  return failLapsed(db, row, now);
}

/** The caller's tasks, newest first (ids are time-ordered UUIDs), a page after `cursor` (the last id seen). */
export async function listTasks(db: Db, who: TaskOwner, cursor: string | undefined, now = new Date()): Promise<{ tasks: TaskRow[]; next?: string }> {
  const rows = await db.read
    .select()
    .from(mcpTasks)
    .where(
      and(
        eq(mcpTasks.club_id, who.clubId),
        eq(mcpTasks.owner, who.owner),
        sql`${mcpTasks.expires_at} >= ${now.toISOString()}`,
        cursor ? lt(mcpTasks.id, cursor) : undefined,
      ),
    )
    .orderBy(desc(mcpTasks.id))
    .limit(TASKS_PAGE + 1);
  const page = await Promise.all(rows.slice(0, TASKS_PAGE).map((row) => failLapsed(db, row, now)));
  return { tasks: page, next: rows.length > TASKS_PAGE ? page.at(-1)?.id : undefined };
}

/**
 * Cancels the caller's working task: it is cancelled at once, whatever its runner does next (its
 * result is dropped). Null: not the caller's task; "terminal": already completed, failed or cancelled.
 */
export async function cancelTask(db: Db, who: TaskOwner, id: string, now = new Date()): Promise<TaskRow | "terminal" | null> {
  const row = await findTask(db, who, id, now);
  if (!row) return null;
  const rows = await db.tx((t) =>
    t
      .update(mcpTasks)
      .set({ status: "cancelled", status_message: null, updated_at: now.toISOString(), lease_owner: null, lease_until: null })
      .where(and(eq(mcpTasks.id, id), eq(mcpTasks.status, "working")))
      .returning(),
  );
  return rows[0] ?? "terminal";
}

/**
 * Erases the results of the club's tasks that mention one of `texts` (an erased member's id and
 * email, GDPR art. 17), as the idempotency store does its kept answers: the task stays, its result
 * gone. Matched as text, case-folded.
 */
export async function eraseTaskResultsMentioning(t: Queryable, clubId: string, texts: string[]): Promise<void> {
  for (const text of texts) {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    await t
      .update(mcpTasks)
      .set({ result: null, status_message: TASK_ERASED })
      .where(and(eq(mcpTasks.club_id, clubId), isNotNull(mcpTasks.result), sql`lower(${mcpTasks.result}) like ${pattern} escape '\\'`));
  }
}
