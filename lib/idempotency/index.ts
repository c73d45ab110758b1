// Idempotency keys (DESIGN.md section 12): a write sent again with the same key does nothing and
// gets the first answer back. Owns the rules of one key's life (running, answered and kept,
// replayed, reused for another request, expired after 24 h), the store of kept answers (table
// idempotency_keys) and the job that purges expired ones. Transport-free: server/idempotency.ts
// applies it to HTTP writes, server/mcp.ts to MCP tool calls; both hand it bytes and get bytes.
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { blobAsText } from "../../db/dialect";
import { idempotencyKeys } from "../../db/schema";
import { AppError, Conflict } from "../errors";
import { recurringJob } from "../jobs";

/** How long a key is kept (and honoured) after its answer. */
export const KEEP_MS = 24 * 60 * 60 * 1000;
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

/**
 * A claimed key, for its request to run: `write` (inside a transaction) keeps the answer, and
 * `release`, once that has committed (or when the answer is not kept), frees the key.
 */
export type Running = {
  write(t: Queryable, answer: KeptAnswer): Promise<void>;
  release(): void;
};

export type Claim = { kind: "run"; running: Running } | { kind: "replay"; answer: KeptAnswer };

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

export const sha256Hex = (bytes: Uint8Array | string): string => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/**
 * Whether an answer is kept for replays. Not kept: a 400 or a validation 422 (refused before
 * anything ran: the client may fix the request and retry with the same key), a 429 and any 5xx
 * (a retry is the remedy). Kept: a success, and a business refusal (404, 409...) that the same
 * request would meet again. `code`: the error body's code, for a 422.
 */
export function keepsAnswer(status: number, code?: string): boolean {
  if (status === 400 || status === 429 || status >= 500) return false;
  return !(status === 422 && code === "VALIDATION_FAILED");
}

const fingerprintText = (f: Fingerprint) => `${f.method} ${f.path} ${f.hash}`;

/**
 * One store per database and process. The keys whose request is running are held here, in
 * memory: one process serves a database (as for the rate limit), and claiming a key costs no
 * transaction and no disk sync before the request runs; a process killed meanwhile leaves no key
 * locked (nothing of a running key is on disk). Kept answers are rows, written in the request's
 * audit transaction (server/app.ts), so they cost no disk sync of their own either.
 */
export class IdempotencyStore {
  /** Running keys (`owner \n key`) and what their request asked. */
  private readonly running = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Claims `key` for a request: `run` (the caller runs it, then keeps its answer or not and
   * releases the key), or the kept answer to replay. Throws IdempotencyKeyReused when the key was
   * used for another request, IdempotencyKeyInUse while its first request still runs.
   */
  async claim(owner: string, key: string, asked: Fingerprint): Promise<Claim> {
    const id = `${owner}\n${key}`;
    const text = fingerprintText(asked);
    const busy = this.running.get(id);
    if (busy !== undefined) throw busy === text ? new IdempotencyKeyInUse() : new IdempotencyKeyReused();
    // Held before the first await: a retry arriving meanwhile finds it running.
    this.running.set(id, text);
    try {
      const [row] = await this.db
        .prepareRead("idempotency.find", (q) =>
          q
            .select()
            .from(idempotencyKeys)
            .where(and(eq(idempotencyKeys.owner, sql.placeholder("owner")), eq(idempotencyKeys.key, sql.placeholder("key")))),
        )
        .execute({ owner, key });
      if (row && Date.parse(row.created_at) > this.clock().getTime() - KEEP_MS) {
        if (fingerprintText({ clubId: row.club_id, method: row.method, path: row.path, hash: row.request_hash }) !== text) throw new IdempotencyKeyReused();
        this.running.delete(id);
        return { kind: "replay", answer: { status: row.status, headers: row.headers ?? {}, body: row.body ?? new Uint8Array() } };
      }
    } catch (err) {
      this.running.delete(id);
      throw err;
    }
    return {
      kind: "run",
      running: {
        write: (t, answer) => this.write(t, owner, key, asked, answer),
        release: () => this.running.delete(id),
      },
    };
  }

  /** Writes a kept answer inside `t`, over an expired row of the same key if there is one. */
  private async write(t: Queryable, owner: string, key: string, asked: Fingerprint, answer: KeptAnswer): Promise<void> {
    const now = this.clock();
    const fields = {
      club_id: asked.clubId,
      method: asked.method,
      path: asked.path,
      request_hash: asked.hash,
      status: answer.status,
      headers: answer.headers,
      body: Buffer.from(answer.body),
      created_at: now.toISOString(),
    };
    await t
      .insert(idempotencyKeys)
      .values({ owner, key, ...fields })
      .onConflictDoUpdate({
        target: [idempotencyKeys.owner, idempotencyKeys.key],
        set: fields,
        setWhere: lt(idempotencyKeys.created_at, new Date(now.getTime() - KEEP_MS).toISOString()),
      });
  }

  /** Keeps `answer` in a transaction of its own, then releases the key (when no audit row carries it: MCP, sessions). */
  async keep(running: Running, answer: KeptAnswer): Promise<void> {
    try {
      await this.db.tx((t) => running.write(t, answer));
    } finally {
      running.release();
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

/**
 * Deletes the keys older than KEEP_MS at `now`; answers how many. One statement: run every hour,
 * it deletes about an hour's worth of keys.
 */
export async function purgeExpiredKeys(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - KEEP_MS).toISOString();
  const deleted = await db.tx((t) => t.delete(idempotencyKeys).where(lt(idempotencyKeys.created_at, before)).returning({ key: idempotencyKeys.key }));
  return deleted.length;
}

/** The purge, hourly (the server ensures it at start). */
export const idempotencyPurge = recurringJob(IDEMPOTENCY_PURGE, PURGE_EVERY_MS, async (db, env) => `${await purgeExpiredKeys(db, env.now)} purged`);

/**
 * Deletes the club's kept answers whose body mentions one of `texts` (an erased member's id and
 * email, GDPR art. 17): a replay would otherwise hand back their name for 24 h. Matched as text,
 * case-folded, whatever the route.
 */
export async function forgetAnswersMentioning(t: Queryable, clubId: string, texts: string[]): Promise<number> {
  let gone = 0;
  for (const text of texts) {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await t
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.club_id, clubId), sql`lower(${blobAsText(idempotencyKeys.body)}) like ${pattern} escape '\\'`))
      .returning({ key: idempotencyKeys.key });
    gone += rows.length;
  }
  return gone;
}
