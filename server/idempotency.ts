// The `Idempotency-Key` step of the HTTP pipeline (DESIGN.md section 12): a POST, PUT, PATCH or
// DELETE made by a caller (a key, a dashboard session) with the header runs once; the same
// request again gets the kept answer with `Idempotent-Replayed: true`. The rules and the store
// are lib/idempotency's; this module turns a request into a fingerprint and an answer into bytes
// and back. A request without the header costs one header lookup.
import type { Caller } from "../lib/access";
import { ValidationFailed } from "../lib/errors";
import { type IdempotencyStore, KEY_MAX, KEY_PATTERN, type KeptAnswer, sha256Hex } from "../lib/idempotency";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** The headers of an answer that describe its body, kept with it; the rest (rate limit, request id, CORS) belong to each request. */
const KEPT_HEADERS = ["content-type", "content-disposition", "location", "allow"];

/** Whose keys a caller's are: an API key's own, or a dashboard session's admin (a retry may cross a new sign-in). */
export function keyOwner(caller: Caller): string {
  return caller.kind === "key" && caller.keyId ? `key:${caller.keyId}` : `admin:${caller.adminId}`;
}

/**
 * Whether an answer is kept for replays. Not kept: a 400 or a validation 422 (refused before
 * anything ran: the client may fix the body and retry with the same key), a 429 and any 5xx
 * (a retry is the remedy), and an answer marked `Cache-Control: no-store` (a new API key, shown
 * once: its secret is never stored). Everything else is: a 2xx, and a business refusal (404,
 * 409...) that the same request would meet again.
 */
export function isKept(status: number, cacheControl: string | null, body: Uint8Array): boolean {
  if (status === 400 || status === 429 || status >= 500) return false;
  if (cacheControl && /\bno-store\b/i.test(cacheControl)) return false;
  if (status === 422) {
    try {
      return (JSON.parse(new TextDecoder().decode(body)) as { code?: unknown }).code !== "VALIDATION_FAILED";
    } catch {
      return true;
    }
  }
  return true;
}

/** The HTTP answer of a kept one, marked as a replay. */
function replayed(answer: KeptAnswer): Response {
  return new Response(answer.body.byteLength ? (answer.body as Uint8Array<ArrayBuffer>) : null, {
    status: answer.status,
    headers: { ...answer.headers, "idempotent-replayed": "true" },
  });
}

/**
 * Runs `run` under the request's `Idempotency-Key`, if it is a write by a caller with one: 422
 * for a malformed key, the kept answer for a repeat, 422 IDEMPOTENCY_KEY_REUSED for another
 * request under the same key, 409 IDEMPOTENCY_KEY_IN_USE while the first one runs. `request`'s
 * body must already be in memory (the pipeline's size cap reads it).
 */
export async function idempotent(store: IdempotencyStore, request: Request, caller: Caller | null, run: () => Promise<Response>): Promise<Response> {
  const key = request.headers.get("idempotency-key");
  if (key === null || !caller || !WRITES.has(request.method)) return run();
  if (!KEY_PATTERN.test(key)) throw new ValidationFailed([{ loc: ["header", "Idempotency-Key"], code: "IDEMPOTENCY_KEY_INVALID", params: { max: KEY_MAX } }]);
  const url = new URL(request.url);
  const owner = keyOwner(caller);
  const hash = sha256Hex(new Uint8Array(await request.clone().arrayBuffer()));
  const claim = await store.claim(owner, key, { clubId: caller.clubId, method: request.method, path: url.pathname + url.search, hash });
  if (claim.kind === "replay") return replayed(claim.answer);
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    await store.forget(owner, key);
    throw err;
  }
  const body = new Uint8Array(await response.arrayBuffer());
  if (!isKept(response.status, response.headers.get("cache-control"), body)) {
    await store.forget(owner, key);
  } else {
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    await store.keep(owner, key, { status: response.status, headers, body });
  }
  return new Response(body.byteLength ? body : null, { status: response.status, headers: response.headers });
}
