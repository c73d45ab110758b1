// The `Idempotency-Key` step of the HTTP pipeline (DESIGN.md section 12): a POST, PUT, PATCH or
// DELETE made by a caller (a key, a dashboard session) with the header runs once; the same
// request again gets the kept answer with `Idempotent-Replayed: true`. The rules and the store
// are lib/idempotency's; this module turns a request into a fingerprint and an answer into bytes
// and back. A request without the header costs one header lookup.
import type { Db } from "../db";
import type { Caller } from "../lib/access";
import { ValidationFailed } from "../lib/errors";
import type { Alongside } from "../lib/audit";
import { type IdempotencyStore, KEY_MAX, KEY_PATTERN, type KeptAnswer, keepsAnswer, keyedWrite, sha256Hex } from "../lib/idempotency";
import { getState } from "./state";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const EMPTY = new Uint8Array(0);
/** The headers of an answer that describe its body, kept with it; the rest (rate limit, request id, CORS) belong to each request. */
const KEPT_HEADERS = ["content-type", "content-disposition", "location", "allow"];

/** Whose keys a caller's are: an API key's own, or a dashboard session's admin (a retry may cross a new sign-in). */
export function keyOwner(caller: Caller): string {
  return caller.kind === "key" && caller.keyId ? `key:${caller.keyId}` : `admin:${caller.adminId}`;
}

/**
 * Whether an HTTP answer is kept (lib/idempotency's `keepsAnswer`), and never one marked
 * `Cache-Control: no-store`: a new API key is shown once, its secret never stored.
 */
function isKept(response: Response, body: Uint8Array): boolean {
  if (/\bno-store\b/i.test(response.headers.get("cache-control") ?? "")) return false;
  let code: string | undefined;
  if (response.status === 422) {
    try {
      code = (JSON.parse(new TextDecoder().decode(body)) as { code?: string }).code;
    } catch {}
  }
  return keepsAnswer(response.status, code);
}

/** The HTTP answer of a kept one, marked as a replay. */
function replayed(answer: KeptAnswer): Response {
  return new Response(answer.body.byteLength ? (answer.body as Uint8Array<ArrayBuffer>) : null, {
    status: answer.status,
    headers: { ...answer.headers, "idempotent-replayed": "true" },
  });
}

/** What the pipeline commits with the request's audit row, then releases: the kept answer of a keyed write's refusal. */
export type Keeping = { write: Alongside; release(): void };

/**
 * Runs `run` under the request's `Idempotency-Key`, if it is a write by a caller with one: 422
 * for a malformed key, the kept answer for a repeat, 422 IDEMPOTENCY_KEY_REUSED for another
 * request under the same key, 409 IDEMPOTENCY_KEY_IN_USE while the first one runs, 409
 * IDEMPOTENCY_ANSWER_ERASED when its answer went with an erased member. A keyed request runs on
 * the database of a `KeyedWrite` (handed to `run`): a success commits with its kept answer in ONE
 * transaction before this returns, so a crash leaves both or neither; a refusal undoes whatever
 * it wrote, and its answer, when worth keeping, comes back as `keeping`, which the pipeline writes
 * in the transaction of the request's audit row and then releases; until then, the key is busy.
 * `sent`: the request's body as the pipeline's size cap read it (null: none), hashed as it is
 * (cloning the request to read it again cost more than the hash).
 */
export async function idempotent(
  store: IdempotencyStore,
  db: Db,
  request: Request,
  sent: Uint8Array | null,
  caller: Caller | null,
  run: (keyed: Db | null) => Promise<Response>,
): Promise<{ response: Response; keeping: Keeping | null }> {
  const key = request.headers.get("idempotency-key");
  // MCP keys each tool call by its own `idempotency_key` (server/mcp.ts): a header around the whole
  // JSON-RPC request would hold a second keyed write around the tool's, and a refused tool then
  // waited on the outer one for good (every write of a SQLite server with it). The header is ignored there.
  const mcp = getState(request)?.via === "mcp";
  if (key === null || !caller || !WRITES.has(request.method) || mcp) return { response: await run(null), keeping: null };
  if (!KEY_PATTERN.test(key)) throw new ValidationFailed([{ loc: ["header", "Idempotency-Key"], code: "IDEMPOTENCY_KEY_INVALID", params: { max: KEY_MAX } }]);
  const url = new URL(request.url);
  const hash = sha256Hex(sent ?? EMPTY);
  const claim = await store.claim(keyOwner(caller), key, { clubId: caller.clubId, method: request.method, path: url.pathname + url.search, hash });
  if (claim.kind === "replay") return { response: replayed(claim.answer), keeping: null };
  const { running } = claim;
  const { write, replacedBy } = keyedWrite(db, running);
  let response: Response;
  let body: Uint8Array;
  try {
    response = await run(write.db);
    body = new Uint8Array(await response.arrayBuffer());
  } catch (err) {
    const first = await replacedBy(true);
    if (first) return { response: replayed(first), keeping: null };
    await write.rollback().finally(running.release);
    throw err;
  }
  // The same key ran in another process at the same moment and kept its answer: that one is the answer.
  const first = await replacedBy(response.status >= 400);
  if (first) return { response: replayed(first), keeping: null };
  const answer = new Response(body.byteLength ? (body as Uint8Array<ArrayBuffer>) : null, { status: response.status, headers: response.headers });
  const kept = isKept(response, body) ? keptAnswer(response, body) : null;
  if (response.status < 400) {
    try {
      await write.commit(kept ? (t) => running.writeDone(t, kept) : undefined);
    } finally {
      running.release();
    }
    return { response: answer, keeping: null };
  }
  // A refusal: what the verb wrote before refusing goes (a verb refuses before it writes; this holds when one does not).
  try {
    await write.rollback();
  } catch (err) {
    running.release();
    throw err;
  }
  if (!kept) {
    running.release();
    return { response: answer, keeping: null };
  }
  return { response: answer, keeping: { write: (t) => running.write(t, kept), release: running.release } };
}

/** The answer as kept: its status, the headers that describe its body, its bytes. */
function keptAnswer(response: Response, body: Uint8Array): KeptAnswer {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, headers, body };
}
