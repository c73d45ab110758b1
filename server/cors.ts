// CORS. A club's website calls the public routes (its event list, a registration, later the join
// form) from a visitor's browser: those answer any origin, without credentials. The routes that
// take a key answer only the origins listed in CORS_ORIGINS (none by default), so that a key
// pasted into one web tool cannot be used from any page. Preflights never need a key: browsers
// send none with them.
import type { Auth } from "./route";

/** Request headers a browser may send: the bearer key, JSON, retries, tracing, and MCP's own. */
const ALLOWED_HEADERS =
  "authorization, content-type, accept, accept-language, idempotency-key, x-request-id, mcp-protocol-version, mcp-session-id, last-event-id";
/** Answer headers a page may read: rate limits, tracing, file names, MCP's session. */
const EXPOSED_HEADERS =
  "ratelimit-limit, ratelimit-remaining, ratelimit-reset, retry-after, x-request-id, content-disposition, idempotent-replayed, www-authenticate, mcp-session-id";
/** How long a browser may reuse a preflight's answer (seconds). */
const MAX_AGE = "600";

/** What a route declared for every method (`ALL`, the MCP endpoint) answers to. */
export const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** `open`: any origin (public routes for websites); `listed`: only CORS_ORIGINS. */
export type CorsKind = "open" | "listed";

/**
 * Open to any origin: the public API (`/api/public/...`: events, registrations, docs, the OpenAPI
 * document) and `/health`. Other public routes are not for web pages (sign-in, Apple's PassKit
 * service, the card pages) and follow the list, like every route that takes a key.
 */
export function corsKind(path: string, auth: Auth): CorsKind {
  return auth === "public" && (path.startsWith("/api/public/") || path === "/health" || isOAuthPath(path)) ? "open" : "listed";
}

/** OAuth's metadata and endpoints: browser-based MCP clients (the MCP Inspector) discover, register and get tokens from any origin. */
const isOAuthPath = (path: string) => path.startsWith("/.well-known/oauth-") || path.startsWith("/oauth/");

/** Whether CORS_ORIGINS (`allowed`) lets the web pages of `origin` call the keyed routes (and /mcp). */
export const originListed = (origin: string, allowed: readonly string[]): boolean => allowed.includes("*") || allowed.includes(origin);

/** The CORS headers of an answer to `origin` (none when the origin is not allowed). */
export function corsHeaders(kind: CorsKind, origin: string | null, allowed: readonly string[]): Record<string, string> {
  if (kind === "open") return { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED_HEADERS };
  const vary: Record<string, string> = allowed.length ? { vary: "Origin" } : {};
  if (!origin || !originListed(origin, allowed)) return vary;
  return { ...vary, "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS };
}

/** A browser's preflight: an OPTIONS request naming the method it means to send. */
export function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS" && request.headers.has("origin") && request.headers.has("access-control-request-method");
}

/** The headers of a successful preflight for a path taking `methods`. */
export function preflightHeaders(kind: CorsKind, origin: string, methods: string[]): Record<string, string> {
  const all = methods.includes("ALL") ? ALL_METHODS : methods;
  return {
    "access-control-allow-origin": kind === "open" ? "*" : origin,
    "access-control-allow-methods": [...new Set([...all, "OPTIONS"])].join(", "),
    "access-control-allow-headers":
      kind === "open" ? "content-type, accept, accept-language, idempotency-key, x-request-id, mcp-protocol-version" : ALLOWED_HEADERS,
    "access-control-max-age": MAX_AGE,
    ...(kind === "open" ? {} : { vary: "Origin" }),
  };
}
