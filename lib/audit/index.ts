// The audit log: one row per request made with a key (HTTP or MCP), with the key's display
// prefix, never the key. Rows are committed in groups: every request waiting at the same moment
// shares one transaction (one disk sync), and no answer leaves before its row is durable. The
// same transaction stamps each key's `last_used_at` (to the minute), so knowing which keys are
// in use costs no extra disk sync, and so does what a request asks to commit with its row (an
// Idempotency-Key's kept answer, lib/idempotency). An MCP row names its JSON-RPC method; the handshakes and listings a client sends
// on its own are recorded too, but the log leaves them out unless asked.
import { and, count, desc, eq, getTableColumns, gte, inArray, isNull, lte, not, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, insertRow, type Queryable } from "../../db";
import { apiKeys, auditLog, oauthGrants } from "../../db/schema";
import { verb } from "../context";
import type { AuditNotes, Ctx } from "../context";
import { newId } from "../ids";

/** The audit row's `changes` column for a request's notes: JSON, or undefined when it changed nothing audited by value. */
export const changesColumn = (notes: AuditNotes | undefined): string | undefined => (notes?.changes?.length ? JSON.stringify(notes.changes) : undefined);

/** `last_used_at` is exact to the minute: written at most this often per key. */
const LAST_USED_EVERY_MS = 60_000;

export type AuditEntry = Omit<typeof auditLog.$inferInsert, "id">;

/** A write committed in the same transaction as a request's audit row. */
export type Alongside = (t: Queryable) => Promise<void>;

type Waiting = { row: typeof auditLog.$inferInsert; keyId: string | null; alongside?: Alongside; done: (err?: unknown) => void };

export class AuditWriter {
  private queue: Waiting[] = [];
  private flushing: Promise<void> | null = null;
  /** When this process last wrote each key's `last_used_at` (ms). */
  private readonly keyStamped = new Map<string, number>();

  constructor(private readonly db: Db) {}

  /**
   * Resolves once the row (and the key's `last_used_at`, for a key's request, and `alongside`'s
   * writes) is committed; rejects if it could not be.
   */
  record(entry: AuditEntry, keyId: string | null = null, alongside?: Alongside): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ row: { id: newId(), ...entry }, keyId, alongside, done: (err) => (err ? reject(err) : resolve()) });
      if (!this.flushing) this.flushing = this.flush();
    });
  }

  private async flush(): Promise<void> {
    // Yield once so that every request already in flight can join this group.
    await new Promise((r) => setImmediate(r));
    while (this.queue.length) {
      const batch = this.queue.splice(0, 1000);
      try {
        const lastUse = new Map<string, string>();
        for (const w of batch) if (w.keyId && w.row.created_at > (lastUse.get(w.keyId) ?? "")) lastUse.set(w.keyId, w.row.created_at);
        // At most once a minute per key: rewriting the key's row on every group made every
        // request's key lookup read a page that had just changed (check-in lost 10 % of its rate).
        for (const [keyId, at] of lastUse) if (Date.parse(at) - (this.keyStamped.get(keyId) ?? 0) < LAST_USED_EVERY_MS) lastUse.delete(keyId);
        const postgres = this.db.engine === "postgres";
        // PostgreSQL: a group that is only its rows (most: keys are stamped once a minute) is one
        // statement, its own transaction, one round trip instead of three.
        const single = postgres && !lastUse.size && !batch.some((w) => w.alongside);
        await this.db.tx(
          async (t) => {
            // PostgreSQL: the group in one statement (a round trip per row was a cost of every
            // keyed request there); SQLite: each row through its statement prepared once per set of columns (no round trip).
            if (postgres) await this.insertMany(t, batch);
            else for (const w of batch) await insertRow(this.db, t, auditLog, "audit_log", w.row);
            // A caller's keyId is an API key's id or an OAuth grant's (lib/auth/caller): one of the two updates finds it.
            for (const [keyId, at] of lastUse) {
              await t.update(apiKeys).set({ last_used_at: at }).where(eq(apiKeys.id, keyId));
              await t.update(oauthGrants).set({ last_used_at: at }).where(eq(oauthGrants.id, keyId));
            }
            for (const w of batch) if (w.alongside) await w.alongside(t);
          },
          { single },
        );
        for (const [keyId, at] of lastUse) this.keyStamped.set(keyId, Date.parse(at));
        for (const w of batch) w.done();
      } catch (err) {
        for (const w of batch) w.done(err);
      }
    }
    this.flushing = null;
  }

  /**
   * PostgreSQL: the group's rows in one statement whatever their number, an array per column
   * unnested, prepared once. Drizzle built the multi-row insert anew for each group: 12 % of the
   * server's CPU in a profile of the member list on PostgreSQL (docs/benchmarks.md, session 17).
   */
  private insertMany(t: Queryable, batch: Waiting[]) {
    const columns = Object.entries(getTableColumns(auditLog));
    return this.db
      .prepareTx("audit.rows", (q) =>
        q.insert(auditLog).select(
          sql`select * from unnest(${sql.join(
            columns.map(([name, column]) => sql`${sql.placeholder(name)}::${sql.raw(column.getSQLType())}[]`),
            sql`, `,
          )})`,
        ),
      )(t)
      .execute(Object.fromEntries(columns.map(([name]) => [name, batch.map((w) => w.row[name as keyof typeof w.row] ?? null)])));
  }

  /** Waits for every queued row (used at shutdown). */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }
}

/**
 * MCP requests that only set up the connection or list what the server offers: a client sends
 * them on its own, several per session, and they read or change nothing of the club's. A batch
 * is stored as its methods joined by commas, so one that hides a call among them is never in
 * this list. `stream` is the GET a client sends to open the server's event stream (405 here).
 */
export const MCP_PROTOCOL_METHODS = [
  "initialize",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
  "ping",
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "prompts/list",
  "stream",
];

export const AuditLogQuery = z.object({
  key_prefix: z.string().max(40).optional(),
  path: z.string().max(500).optional().meta({ description: "Keeps rows whose path starts with this." }),
  via: z.enum(["http", "mcp", "dashboard"]).optional(),
  request_id: z.string().max(128).optional().meta({ description: "The row of one request: the `X-Request-Id` of its answer (`request_id` of an error body)." }),
  from: z.iso.date().optional().meta({ description: "First day (UTC), inclusive." }),
  to: z.iso.date().optional().meta({ description: "Last day (UTC), inclusive." }),
  include_protocol: z.stringbool().default(false).meta({
    description: "Also list MCP protocol requests (initialize, notifications, ping, tools/list, resources/list, prompts/list...), left out by default.",
  }),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
});

export const AuditLogEntry = z
  .object({
    id: z.string(),
    admin_id: z.string().nullable(),
    key_prefix: z.string().nullable(),
    method: z.string(),
    path: z.string(),
    status: z.int(),
    duration_ms: z.number(),
    ip: z.string().nullable(),
    via: z.string(),
    tool: z.string().nullable().meta({ description: "The MCP tool called, resource URI read or prompt got; null otherwise." }),
    mcp_method: z.string().nullable().meta({
      description: "An MCP request's JSON-RPC method (`tools/call`, `resources/read`, `initialize`...), several comma-separated for a batch; null for HTTP.",
    }),
    created_at: z.string(),
    request_id: z.string().nullable().meta({ description: "The request's `X-Request-Id` (null for rows written before it was recorded)." }),
    changes: z
      .array(z.object({ field: z.string(), old: z.unknown(), new: z.unknown() }).meta({ id: "AuditChange" }))
      .nullable()
      .meta({ description: "The club's accounting settings (`accounting_*`) the request changed, each with its old and new value; null otherwise." }),
  })
  .meta({ id: "AuditLogEntry" });

export const AuditLogList = z.object({ total: z.int(), page: z.int(), limit: z.int(), items: z.array(AuditLogEntry) }).meta({ id: "AuditLogList" });

/** The club's audit log, newest first, filtered by key prefix, path prefix, transport and days; MCP protocol rows only when asked. */
export const listAuditLog = verb("access_control:view", async function listAuditLog(ctx: Ctx, q: z.infer<typeof AuditLogQuery>): Promise<
  z.infer<typeof AuditLogList>
> {
  const where: SQL[] = [eq(auditLog.club_id, ctx.clubId)];
  if (q.key_prefix) where.push(eq(auditLog.key_prefix, q.key_prefix));
  // A path prefix, its own % and _ taken literally (escaped, as the member search does).
  if (q.path) {
    const pattern = `${q.path.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(sql`${auditLog.path} like ${pattern} escape '\\'`);
  }
  if (q.via) where.push(eq(auditLog.via, q.via));
  if (q.request_id) where.push(eq(auditLog.request_id, q.request_id));
  if (!q.include_protocol) where.push(or(isNull(auditLog.mcp_method), not(inArray(auditLog.mcp_method, MCP_PROTOCOL_METHODS))) as SQL);
  if (q.from) where.push(gte(auditLog.created_at, `${q.from}T00:00:00.000Z`));
  // The last instant of the day, not the next day's start: the day after 9999-12-31 has no ISO form that sorts.
  if (q.to) where.push(lte(auditLog.created_at, `${q.to}T23:59:59.999Z`));
  const cond = and(...where);
  const [{ total }] = await ctx.db.read.select({ total: count() }).from(auditLog).where(cond);
  const rows = await ctx.db.read
    .select()
    .from(auditLog)
    .where(cond)
    .orderBy(desc(auditLog.created_at), desc(auditLog.id))
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  return { total, page: q.page, limit: q.limit, items: rows.map(({ club_id: _, changes, ...r }) => ({ ...r, changes: changes ? JSON.parse(changes) : null })) };
});
