// Idempotency keys (DESIGN.md section 12): a write sent again with the same key does nothing and
// gets the first answer back. Owns the rules of one key's life (running, answered and kept,
// replayed, reused for another request, expired after 24 h, its answer erased with a member),
// the store of kept answers (table idempotency_keys), the one transaction a keyed write and its
// kept answer commit in (`KeyedWrite`) and the job that purges expired keys. Transport-free:
// server/idempotency.ts applies it to HTTP writes, server/mcp.ts to MCP tool calls; both hand it
// bytes and get bytes.
import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { blobAsText } from "../../db/dialect";
import { lockName } from "../../db/locks";
import { idempotencyKeys } from "../../db/schema";
import { AppError, Conflict, ServiceUnavailable } from "../errors";
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
  /** Keeps a refusal's answer (a row already there, another process's, stays as it is). */
  write(t: Queryable, answer: KeptAnswer): Promise<void>;
  /**
   * Keeps a success's answer in its write's transaction. Another process that ran the same key
   * meanwhile (the keys in flight are this process's own) committed its answer first: then this
   * throws IdempotencyKeyInUse, the whole request is undone, and its retry replays the first.
   */
  writeDone(t: Queryable, answer: KeptAnswer): Promise<void>;
  /**
   * The answer another process kept for this key since it was claimed here (null: none). With
   * `t`, the keyed write's transaction as it opens: first waits, under a lock on the key's name,
   * for another process's keyed write of it to end (PostgreSQL), so a key in flight anywhere is
   * seen, and the request here replays its answer instead of running a second time.
   */
  answeredElsewhere(t?: Queryable): Promise<KeptAnswer | null>;
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

/** The key's request was done, but its answer named a member since erased: it is not run again, and its answer is gone. */
export class IdempotencyAnswerErased extends Conflict {
  constructor() {
    super("IDEMPOTENCY_ANSWER_ERASED");
  }
}

/** A keyed write met a refusal part-way that cannot be undone alone (`KeyedWrite`): nothing of it stays; the same request again may pass. */
export class KeyedWriteUndone extends ServiceUnavailable {
  constructor() {
    super("KEYED_WRITE_UNDONE");
  }
}

export const sha256Hex = (bytes: Uint8Array | string): string => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/**
 * Whether an answer is kept for replays. Not kept: a 400 or a validation 422 (refused before
 * anything ran: the client may fix the request and retry with the same key), a 428 (an MCP tool
 * asking the user first: the confirmed call under the same key must run), a 429 and any 5xx
 * (a retry is the remedy). Kept: a success, and a business refusal (404, 409...) that the same
 * request would meet again. `code`: the error body's code, for a 422.
 */
export function keepsAnswer(status: number, code?: string): boolean {
  if (status === 400 || status === 428 || status === 429 || status >= 500) return false;
  return !(status === 422 && code === "VALIDATION_FAILED");
}

/** A key's row, by owner and key (prepared once: a keyed write looks it up twice). */
const findKey = (q: Queryable) =>
  q
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.owner, sql.placeholder("owner")), eq(idempotencyKeys.key, sql.placeholder("key"))));

/** A kept answer written, over an expired row of the same key only (prepared once). */
const writeKey = (q: Queryable) => {
  const p = (name: string) => sql.placeholder(name);
  const fields = {
    club_id: p("club_id"),
    method: p("method"),
    path: p("path"),
    request_hash: p("request_hash"),
    status: p("status"),
    headers: p("headers"),
    body: p("body"),
    created_at: p("created_at"),
  };
  return q
    .insert(idempotencyKeys)
    .values({ owner: p("owner"), key: p("key"), ...fields })
    .onConflictDoUpdate({
      target: [idempotencyKeys.owner, idempotencyKeys.key],
      // The row as it would have been inserted (both engines name it `excluded`).
      set: Object.fromEntries(Object.keys(fields).map((name) => [name, sql.raw(`excluded.${name}`)])),
      setWhere: lt(idempotencyKeys.created_at, p("expired")),
    })
    .returning({ key: idempotencyKeys.key });
};

const fingerprintText = (f: Fingerprint) => `${f.method} ${f.path} ${f.hash}`;

/**
 * One store per database and process. The keys whose request is running are held here, in
 * memory (a retry reaching another process waits, as its keyed write opens, for the first's to
 * end under the key's lock, then replays its answer: `keyedWrite`), and claiming a key costs no
 * transaction and no disk sync before the request runs; a process killed meanwhile leaves no key
 * locked (nothing of a running key is on disk). Kept answers are rows: a success's in the
 * transaction of its write (`KeyedWrite`), a refusal's (which wrote nothing) in the request's
 * audit transaction (server/app.ts); neither costs a disk sync of its own.
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
      const [row] = await this.db.prepareRead("idempotency.find", findKey).execute({ owner, key });
      if (row && Date.parse(row.created_at) > this.clock().getTime() - KEEP_MS) {
        if (fingerprintText({ clubId: row.club_id, method: row.method, path: row.path, hash: row.request_hash }) !== text) throw new IdempotencyKeyReused();
        if (row.body === null) throw new IdempotencyAnswerErased();
        this.running.delete(id);
        return { kind: "replay", answer: { status: row.status, headers: row.headers ?? {}, body: row.body } };
      }
    } catch (err) {
      this.running.delete(id);
      throw err;
    }
    let released = false;
    return {
      kind: "run",
      running: {
        write: async (t, answer) => {
          await this.write(t, owner, key, asked, answer);
        },
        writeDone: async (t, answer) => {
          if (!(await this.write(t, owner, key, asked, answer))) throw new IdempotencyKeyInUse();
        },
        answeredElsewhere: async (t) => {
          if (t) await lockName(t, `idempotency:${id}`);
          const [row] = await (t ? this.db.prepareTx("idempotency.find", findKey)(t) : this.db.prepareRead("idempotency.find", findKey)).execute({
            owner,
            key,
          });
          const live = row && Date.parse(row.created_at) > this.clock().getTime() - KEEP_MS && row.body !== null;
          return live && fingerprintText({ clubId: row.club_id, method: row.method, path: row.path, hash: row.request_hash }) === text
            ? { status: row.status, headers: row.headers ?? {}, body: row.body as Uint8Array }
            : null;
        },
        // Once: a second call must not free the key a later request has claimed since.
        release: () => {
          if (!released) this.running.delete(id);
          released = true;
        },
      },
    };
  }

  /**
   * Writes a kept answer inside `t`, over an expired row of the same key if there is one; false
   * when a live row of the key is there (the unique key made this wait for its commit).
   */
  private async write(t: Queryable, owner: string, key: string, asked: Fingerprint, answer: KeptAnswer): Promise<boolean> {
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
    const written = await this.db
      .prepareTx(
        "idempotency.write",
        writeKey,
      )(t)
      .execute({ owner, key, ...fields, expired: new Date(now.getTime() - KEEP_MS).toISOString() });
    return written.length > 0;
  }

  /** Keeps `answer` in a transaction of its own, then releases the key: a refusal (it wrote nothing) when no audit row carries it (MCP). */
  async keep(running: Running, answer: KeptAnswer): Promise<void> {
    try {
      await this.db.tx((t) => running.write(t, answer));
    } finally {
      running.release();
    }
  }
}

const stores = new WeakMap<Db, IdempotencyStore>();

/** The store of `db` in this process, shared by HTTP and MCP (one `running` list per database, whichever keyed write's view of it is asked). */
export function idempotencyStore(db: Db): IdempotencyStore {
  const root = rootOf(db);
  let store = stores.get(root);
  if (!store) {
    store = new IdempotencyStore(root);
    stores.set(root, store);
  }
  return store;
}

// ---- the transaction of a keyed write -------------------------------------------------------

/** Each keyed write's view of a database (`KeyedWrite.db`) -> the write, so the store and the pace of an import find what is under it. */
const writes = new WeakMap<Db, KeyedWrite>();

/** The database under any keyed write's view of it. */
function rootOf(db: Db): Db {
  let root = db;
  for (let w = writes.get(root); w; w = writes.get(root)) root = w.base;
  return root;
}

/** Whether `db` is a keyed write's view whose transaction is open (the writer waits for its answer). */
export function holdsWriter(db: Db): boolean {
  return writes.get(db)?.holding ?? false;
}

/**
 * The database under a keyed write's view (`db` itself for any other), for a verb that commits in
 * steps of its own and is made whole after a crash by its own means: the member import, whose
 * journal undoes an import that never reached `done`. Its steps then do not hold the writer for
 * the whole request (a 5,000-line import held every other write for seconds); its last commit,
 * made through the keyed view, carries the kept answer. Never write through it after the keyed
 * view has written: that transaction would wait behind the keyed one, which waits for the answer.
 */
export function stepwiseDb(db: Db): Db {
  return writes.get(db)?.base ?? db;
}

/**
 * The keyed write of `running`'s request. Its transaction opens by looking, under the key's lock,
 * for an answer another process kept for the key meanwhile (the keys in flight in memory are this
 * process's own): when there is one, the request's writes fail and `replacedBy` hands it back, to
 * replay instead of answering a second run (which a unique email or an already-paid line would
 * have refused: the client then saw a refusal for a write that was done).
 */
export function keyedWrite(db: Db, running: Running): { write: KeyedWrite; replacedBy(refused: boolean): Promise<KeptAnswer | null> } {
  let found: KeptAnswer | null = null;
  const write = new KeyedWrite(db, async (t) => {
    found = await running.answeredElsewhere(t);
    if (found) throw new IdempotencyKeyInUse();
  });
  return {
    write,
    /**
     * After the request ran: the answer another process kept for the key, with the request's own
     * writes undone and the key released; null when there is none (go on with its own answer).
     * `refused`: the request here was refused, which the other's success may be why, even when it
     * refused before writing anything.
     */
    async replacedBy(refused) {
      const answer = found ?? (refused ? await running.answeredElsewhere() : null);
      if (answer) await write.rollback().finally(running.release);
      return answer;
    },
  };
}

/** Why a held transaction ends without committing (never seen outside this module). */
const UNDONE = Symbol("keyed write undone");

/**
 * One keyed write (DESIGN.md section 12): the request and its kept answer commit in ONE
 * transaction, so that no crash can leave the write without the answer a retry of its key would
 * replay (the retry would do it again: pay twice). The request runs on `db`, whose first `tx`
 * opens that transaction and holds it, on the writer, until the answer is known: `commit` then
 * writes the kept answer in it and commits; `rollback` undoes it all (a refusal). Its later `tx`
 * calls run in it too, one at a time, and its reads go through it once it is open (they see its
 * writes). Until its first `tx` nothing is held, so the network calls a verb makes before it
 * writes (Stripe, the mail server) do not hold the writer.
 *
 * Without savepoints (db/index.ts hands out none), a `tx` that fails inside cannot be undone
 * apart: its partial writes would stay with the others'. A request that goes on to succeed after
 * one (a bank statement line raced by another write) is undone whole: 503 KEYED_WRITE_UNDONE, and
 * the same request again finds the state that refusal came from. A refused request undoes all.
 */
export class KeyedWrite {
  /** The database as the keyed request sees it. */
  readonly db: Db;
  private t: Queryable | null = null;
  private opened: Promise<Queryable> | null = null;
  private ended: Promise<void> | null = null;
  private settle: ((keep: ((t: Queryable) => Promise<void>) | typeof UNDONE | null) => void) | null = null;
  /** The `tx` calls, one after the other, as the writer runs transactions. */
  private turns: Promise<unknown> = Promise.resolve();
  private broken = false;
  private finished = false;

  /**
   * `onOpen`: run first in the transaction as it opens (the key's lock and its look for another
   * process's answer); when it throws, the request's writes fail with its error.
   */
  constructor(
    readonly base: Db,
    private readonly onOpen?: (t: Queryable) => Promise<void>,
  ) {
    const self = this;
    this.db = {
      ...base,
      get read() {
        return self.t ?? base.read;
      },
      // Once open, on the writer (in the transaction), under a name of its own: never a writer statement's.
      prepareRead: (name, build) => (self.t ? base.prepareTx(`read:${name}`, build)(self.t) : base.prepareRead(name, build)),
      tx: (fn) => self.run(fn),
    };
    writes.set(this.db, this);
  }

  /** Whether its transaction is open and not yet ended. */
  get holding(): boolean {
    return this.t !== null && !this.finished;
  }

  private async run<T>(fn: (t: Queryable) => Promise<T>): Promise<T> {
    if (this.finished) throw new Error("a keyed write's transaction was used after its answer");
    const t = await this.open();
    const turn = this.turns.then(() => fn(t));
    this.turns = turn.catch(() => {});
    try {
      return await turn;
    } catch (err) {
      this.broken = true;
      throw err;
    }
  }

  private open(): Promise<Queryable> {
    this.opened ??= new Promise<Queryable>((resolve, reject) => {
      let runs = 0;
      this.ended = this.base.tx(async (t) => {
        // PostgreSQL runs a transaction that lost a deadlock or a serialization conflict again
        // from the start: the request's writes went with the first run, so this one must not
        // commit the answer alone. Not retried (an AppError): the whole request is undone.
        if (++runs > 1) throw new KeyedWriteUndone();
        await this.onOpen?.(t);
        this.t = t;
        const verdict = new Promise<((t: Queryable) => Promise<void>) | typeof UNDONE | null>((r) => {
          this.settle = r;
        });
        resolve(t);
        const keep = await verdict;
        if (keep === UNDONE) throw UNDONE;
        if (keep) await keep(t);
      });
      // The writer could not begin (busy, disk full): the first `tx` fails with its error.
      this.ended.catch(reject);
    });
    return this.opened;
  }

  /**
   * Commits what the request wrote with `keep`'s writes (its kept answer) in the same
   * transaction; resolves once durable. Nothing written: `keep` runs in a transaction of its own.
   * Throws KeyedWriteUndone after a failed `tx` inside (all undone), or the commit's own error.
   */
  async commit(keep?: (t: Queryable) => Promise<void>): Promise<void> {
    if (!this.opened) {
      this.finished = true;
      if (keep) await this.base.tx(keep);
      return;
    }
    await this.opened;
    await this.turns;
    if (this.broken) {
      await this.rollback();
      throw new KeyedWriteUndone();
    }
    this.finished = true;
    this.settle?.(keep ?? null);
    await this.ended;
  }

  /** Undoes whatever the request wrote; resolves once the transaction has ended. */
  async rollback(): Promise<void> {
    this.finished = true;
    if (!this.opened) return;
    try {
      await this.opened;
    } catch {
      return;
    }
    await this.turns;
    this.settle?.(UNDONE);
    await this.ended?.catch((err) => {
      if (err !== UNDONE) throw err;
    });
  }
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
 * Erases the answers kept by the club whose body mentions one of `texts` (an erased member's id
 * and email, GDPR art. 17): a replay would otherwise hand back their name for 24 h. Matched as
 * text, case-folded, whatever the route. The key stays, its answer gone (`body` null): a retry of
 * it is refused (IdempotencyAnswerErased) rather than run again; deleting the row let the retry of
 * the create re-create the erased member.
 */
export async function eraseAnswersMentioning(t: Queryable, clubId: string, texts: string[]): Promise<number> {
  let gone = 0;
  for (const text of texts) {
    const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await t
      .update(idempotencyKeys)
      .set({ body: null, headers: {} })
      .where(
        and(eq(idempotencyKeys.club_id, clubId), isNotNull(idempotencyKeys.body), sql`lower(${blobAsText(idempotencyKeys.body)}) like ${pattern} escape '\\'`),
      )
      .returning({ key: idempotencyKeys.key });
    gone += rows.length;
  }
  return gone;
}
