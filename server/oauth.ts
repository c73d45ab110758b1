// The OAuth endpoints' answers (DESIGN.md section 17): JSON never cached, open to any origin
// (the pipeline's CORS), and refusals in OAuth's own shape `{error, error_description}` (RFC 6749
// section 5.2), the one exception to section 5's `{detail, code}`.
import type { PublicCtx } from "../lib/context";
import { AppError, OAuthRefused, RateLimited } from "../lib/errors";
import { REGISTER_PATH } from "../lib/oauth/metadata";
import type { AddressRate } from "../lib/ratelimit";
import { route } from "./route";

const HEADERS = { "content-type": "application/json", "cache-control": "no-store", pragma: "no-cache" };

export function oauthJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...HEADERS, ...headers } });
}

/**
 * The rates per client address of the OAuth routes, counted by the loader before the handler (a
 * 429 there has the house shape with Retry-After, as on every route: it is not an OAuth refusal).
 */
export const OAUTH_RATES = {
  metadata: { scope: "oauth-metadata", perMinute: 120 },
  /** A client registers once, then keeps its client_id. */
  register: { scope: "oauth-register", perMinute: 10 },
  /** Token and revocation requests: a client asks about once an hour per grant. */
  token: { scope: "oauth-token", perMinute: 60 },
} satisfies Record<string, AddressRate>;

/** Runs an OAuth endpoint: its answer, or its refusal in OAuth's shape. */
export async function oauthAnswer(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof OAuthRefused) {
      const headers: Record<string, string> = err.status === 401 ? { "www-authenticate": 'Bearer error="invalid_client"' } : {};
      return oauthJson(err.status, { error: err.error, error_description: err.description }, headers);
    }
    // A count exceeded inside the verb answers as the route's own rate does: the house 429 with Retry-After.
    if (err instanceof AppError && !(err instanceof RateLimited)) return oauthJson(400, { error: "invalid_request", error_description: err.code });
    throw err;
  }
}

/**
 * A body the pipeline could not parse (malformed JSON) never reaches an OAuth handler: on the
 * OAuth endpoints its refusal still has OAuth's shape (`invalid_client_metadata` at registration,
 * RFC 7591 section 3.2.2; `invalid_request` elsewhere), not the house one. Null on other paths.
 */
export function oauthMalformedBody(path: string): Response | null {
  if (!path.startsWith("/oauth/")) return null;
  const error = path === REGISTER_PATH ? "invalid_client_metadata" : "invalid_request";
  return oauthJson(400, { error, error_description: "the body is not valid JSON" });
}

/** An OAuth endpoint's route: public, its rate per address, left out of the OpenAPI description (OAuth's own metadata describes it), its refusals in OAuth's shape. */
export function oauthRoute(summary: string, rate: AddressRate, run: (input: { ctx: PublicCtx; body: unknown }) => Promise<Response>) {
  return route({
    summary,
    tags: ["oauth"],
    auth: "public",
    rateLimit: rate,
    hidden: true,
    raw: true,
    handler: ({ ctx, body }) => oauthAnswer(() => run({ ctx, body })),
  });
}
