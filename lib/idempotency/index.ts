// Idempotency keys (DESIGN.md section 12): a write sent again with the same key does nothing and
// gets the first answer back. Owns the store (table idempotency_keys), the rules of one key's
// life (claimed, answered, replayed, reused for another request, taken over from a dead process,
// expired after 24 h) and the job that purges expired keys. Transport-free: server/idempotency.ts
// applies it to HTTP writes, server/mcp.ts to MCP tool calls; both hand it bytes and get bytes.
import { hostname } from "node:os";
import { and, eq, isNull, lt, ne } from "drizzle-orm";
import type { Db } from "../../db";
import { idempotencyKeys, jobs } from "../../db/schema";
import { AppError, Conflict } from "../errors";
import { enqueueJob, type JobKind } from "../jobs";

/** How long a key is kept (and honoured) after its request started. */
export const KEEP_MS = 24 * 60 * 60 * 1000;
/**
 * A request still running after this long on another machine is taken for dead (its key is
 * taken over). On this machine a dead process is seen at once (see `holderGone`).
 */
export const IN_FLIGHT_LEASE_MS = 5 * 60 * 1000;
/** 1 to 255 visible ASCII characters (RFC 9110 VCHAR: no space, no control character). */
export const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const KEY_MAX = 255;

/** What was asked: the same key with anything else is 422 IDEMPOTENCY_KEY_REUSED. */
export type Fingerprint = {
  clubId: string;
  /** HTTP method, or `MCP` for a tool call. */
  method: string;
  /** Path and query, or the tool's name. */
  path: string;
  /** SHA-256 of the body (a tool call's arguments), hex. */
  hash: string;
};

/** A kept answer: its status, the headers that describe its body, and the body's bytes. */
export type KeptAnswer = { status: number; headers: Record<string, string>; body: Uint8Array };

export type Claim = { kind: "run" } | { kind: "replay"; answer: KeptAnswer };

export class IdempotencyKeyReused extends AppError {
  constructor() {
    super(422, "IDEMPOTENCY_KEY_REUSED");
  }
}

export class IdempotencyKeyInUse extends Conflict {
  constructor() {
    super("IDEMPOTENCY_KEY_IN_USE");
  }
}

/** This process, as `locked_by` names it: host, pid, and an id of this run (a restarted process may get the same pid). */
const HOST = hostname();
export const THIS_PROCESS = `${HOST}/${process.pid}/${crypto.randomUUID()}`;

/**
 * Whether the process named `lockedBy` is gone. Only a process of this machine can be checked:
 * one with this process's pid but another run id is a previous life of it (a container restarts
 * with the same pid); another pid that signal 0 cannot reach is gone. Another machine's process
 * is waited for until IN_FLIGHT_LEASE_MS.
 */
export function holderGone(lockedBy: string): boolean {
  const [host, pid] = lockedBy.split("/");
  if (host !== HOST) return false;
  if (Number(pid) === process.pid) return lockedBy !== THIS_PROCESS;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as { code?: string }).code === "ESRCH";
  }
}

export const sha256Hex = (bytes: Uint8Array | string): string => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/**
 * One store per process. `held` lists the keys this process is running: a row this process
 * locked but no longer holds (its answer could not be written) is free to take over.
 */
export class IdempotencyStore {
  private readonly held = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Claims `key` for a request: `run` (this caller runs it, then calls `keep` or `forget`), or
   * the kept answer to replay. Throws IdempotencyKeyReused when the key was used for another
   * request, IdempotencyKeyInUse while its first request still runs. Decided on the one writer,
   * so twenty retries at once give one `run`.
   */
  async claim(owner: string, key: string, asked: Fingerprint): Promise<Claim> {
    const id = `${owner}\n${key}`;
    let claimed = false;
    try {
      return await this.db.tx(async (t) => {
        const now = this.clock();
        const [row] = await t
          .select()
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, key)));
        if (row && Date.parse(row.created_at) > now.getTime() - KEEP_MS && !this.abandoned(row, id, now)) {
          if (row.method !== asked.method || row.path !== asked.path || row.request_hash !== asked.hash) throw new IdempotencyKeyReused();
          if (row.status === null) throw new IdempotencyKeyInUse();
          return { kind: "replay", answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? new Uint8Array() } };
        }
        const fields = {
          club_id: asked.clubId,
          method: asked.method,
          path: asked.path,
          request_hash: asked.hash,
          status: null,
          headers: null,
          body: null,
          locked_by: THIS_PROCESS,
          created_at: now.toISOString(),
        };
        await t
          .insert(idempotencyKeys)
          .values({ owner, key, ...fields })
          .onConflictDoUpdate({ target: [idempotencyKeys.owner, idempotencyKeys.key], set: fields });
        // Held from here, inside the transaction: the next claim in the same commit sees it running.
        this.held.add(id);
        claimed = true;
        return { kind: "run" };
      });
    } catch (err) {
      if (claimed) this.held.delete(id);
      throw err;
    }
  }

  /** A running row nobody runs any more: its process died, or lost it, or it outlived the lease. */
  private abandoned(row: { status: number | null; locked_by: string | null; created_at: string }, id: string, now: Date): boolean {
    if (row.status !== null) return false;
    if (row.locked_by === THIS_PROCESS) return !this.held.has(id);
    return !row.locked_by || holderGone(row.locked_by) || Date.parse(row.created_at) <= now.getTime() - IN_FLIGHT_LEASE_MS;
  }

  /** Keeps the answer of a claimed key, for its replays. */
  async keep(owner: string, key: string, answer: KeptAnswer): Promise<void> {
    try {
      await this.db.tx((t) =>
        t
          .update(idempotencyKeys)
          .set({ status: answer.status, headers: answer.headers, body: Buffer.from(answer.body), locked_by: null })
          .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, key), eq(idempotencyKeys.locked_by, THIS_PROCESS))),
      );
    } finally {
      this.held.delete(`${owner}\n${key}`);
    }
  }

  /** Frees a claimed key without keeping its answer (the client may retry with it). */
  async forget(owner: string, key: string): Promise<void> {
    try {
      await this.db.tx((t) =>
        t
          .delete(idempotencyKeys)
          .where(
            and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, key), eq(idempotencyKeys.locked_by, THIS_PROCESS), isNull(idempotencyKeys.status)),
          ),
      );
    } finally {
      this.held.delete(`${owner}\n${key}`);
    }
  }
}

const stores = new WeakMap<Db, IdempotencyStore>();

/** The store of `db` in this process, shared by HTTP and MCP (one `held` list per database). */
export function idempotencyStore(db: Db): IdempotencyStore {
  let store = stores.get(db);
  if (!store) {
    store = new IdempotencyStore(db);
    stores.set(db, store);
  }
  return store;
}

// ---- the purge job ------------------------------------------------------------------------

export const IDEMPOTENCY_PURGE = "idempotency.purge";
/** The purge runs this often; a key is honoured for KEEP_MS whether purged yet or not. */
export const PURGE_EVERY_MS = 60 * 60 * 1000;
/** The purge is no club's: its job row names this instead. */
const NO_CLUB = "-";

/**
 * Queues the next purge at `at`, unless one is already pending (a restart, or a purge run twice
 * after a crash, never makes two chains of them).
 */
async function schedulePurge(db: Db, at: Date, except?: string): Promise<void> {
  await db.tx(async (t) => {
    const [pending] = await t
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, IDEMPOTENCY_PURGE), eq(jobs.status, "pending"), except ? ne(jobs.id, except) : undefined))
      .limit(1);
    if (!pending) await enqueueJob(t, { clubId: NO_CLUB, kind: IDEMPOTENCY_PURGE, payload: {}, runAfter: at.toISOString() });
  });
}

/** Makes sure a purge is queued (the server calls it at start). */
export const ensurePurgeScheduled = (db: Db): Promise<void> => schedulePurge(db, new Date());

/**
 * Deletes the keys older than KEEP_MS at `now`; answers how many. One statement: run every hour,
 * it deletes about an hour's worth of keys.
 */
export async function purgeExpiredKeys(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - KEEP_MS).toISOString();
  const deleted = await db.tx((t) => t.delete(idempotencyKeys).where(lt(idempotencyKeys.created_at, before)).returning({ key: idempotencyKeys.key }));
  return deleted.length;
}

/** The purge: expired keys deleted, the next purge queued an hour on. */
export const idempotencyPurgeJob: JobKind = {
  async run(db, job, env) {
    const purged = await purgeExpiredKeys(db, env.now);
    await schedulePurge(db, new Date(env.now.getTime() + PURGE_EVERY_MS), job.id);
    return `${purged} purged`;
  },
};

export const IDEMPOTENCY_JOBS = { [IDEMPOTENCY_PURGE]: idempotencyPurgeJob };
