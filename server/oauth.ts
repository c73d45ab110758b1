// The OAuth endpoints' answers (DESIGN.md section 17): JSON never cached, open to any origin
// (the pipeline's CORS), and refusals in OAuth's own shape `{error, error_description}` (RFC 6749
// section 5.2), the one exception to section 5's `{detail, code}`.
import { AppError, OAuthRefused, RateLimited } from "../lib/errors";
import { limitAddress } from "../lib/ratelimit";

const HEADERS = { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" };

export function oauthJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...HEADERS, ...headers } });
}

/**
 * Runs an OAuth endpoint after counting its rate per client address: its answer, or its refusal
 * in OAuth's shape. A refusal of ours that is not OAuth's (the rate) keeps its status.
 */
export async function oauthAnswer(
  rate: { owner: object; scope: string; perMinute: number; ip: string | null } | null,
  run: () => Promise<Response>,
): Promise<Response> {
  try {
    if (rate) limitAddress(rate.owner, rate.scope, rate.perMinute, rate.ip);
    return await run();
  } catch (err) {
    if (err instanceof OAuthRefused) {
      const headers: Record<string, string> = err.status === 401 ? { "www-authenticate": 'Bearer error="invalid_client"' } : {};
      return oauthJson(err.status, { error: err.error, error_description: err.description }, headers);
    }
    if (err instanceof RateLimited)
      return oauthJson(429, { error: "too_many_requests", error_description: "too many requests" }, { "retry-after": String(err.retryAfterSeconds) });
    if (err instanceof AppError) return oauthJson(400, { error: "invalid_request", error_description: err.code });
    throw err;
  }
}

/** A form or JSON body's string field; anything else (absent, repeated, not text) is undefined. */
export function field(body: unknown, name: string): string | undefined {
  const value = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}
