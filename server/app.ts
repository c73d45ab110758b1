// The HTTP pipeline around the Elysia app. Before Elysia parses anything it resolves the bearer
// key (a bad key with a malformed body is still a 401), counts the rate limit and caps the body
// size; after, it adds the RateLimit headers and waits until the request's audit row is durable
// before the answer leaves.
import { Elysia } from "elysia";
import type { Db } from "../db";
import { AuditWriter } from "../lib/audit";
import { type Caller, CallerRefused, resolveCaller } from "../lib/auth/caller";
import type { Config } from "../lib/config";
import { AppError, Forbidden, PayloadTooLarge, RateLimited, ValidationFailed } from "../lib/errors";
import { type Locale, localeFromAcceptLanguage } from "../lib/i18n";
import { SlidingWindowLimiter } from "../lib/ratelimit";
import { appErrorResponse, elysiaErrorResponse, internalError } from "./errors";
import { type MountedRoute, mountRoutes } from "./loader";
import type { Auth } from "./route";
import { buildOpenApiDocument, DOCS_PATH, docsAsset, docsPage, SPEC_PATH } from "./openapi";
import { getState, setState } from "./state";

/**
 * Who may reach a path, from the routes' own `auth` (the route file is the one place that says
 * it), known before Elysia parses the body: a public route is reached without credentials, a
 * session route answers 403 to a key (SPEC "Authentication" 4) whatever its body. A path no
 * route matches takes the auth its area's routes agree on (`/api/account/...` is for sessions,
 * `/c/...` is public), else needs credentials. The docs page and its document are public.
 */
function routeAuth(routes: MountedRoute[]): (method: string, path: string) => Auth {
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const table = routes.map((r) => ({
    method: r.method,
    pattern: new RegExp(`^${r.path.split(/:\w+/).map(literal).join("[^/]+")}$`),
    segments: r.path.split("/"),
    auth: r.spec.auth ?? "key",
  }));
  return (method, path) => {
    if (path === SPEC_PATH || path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`)) return "public";
    const matches = table.filter((r) => r.pattern.test(path));
    if (matches.length) return (matches.find((r) => r.method === method) ?? matches[0]).auth;
    const segments = path.split("/");
    for (let n = segments.length - 1; n >= 2; n--) {
      const area = table.filter((r) => r.segments.length > n && r.segments.slice(0, n).every((s, i) => s === segments[i]));
      if (area.length) return area.every((r) => r.auth === area[0].auth) ? area[0].auth : "key";
    }
    return "key";
  };
}

export type App = {
  handle(request: Request, ip?: string | null): Promise<Response>;
  routes: MountedRoute[];
  audit: AuditWriter;
  limiter: SlidingWindowLimiter;
  elysia: Elysia;
};

export async function createApp(db: Db, config: Config): Promise<App> {
  const audit = new AuditWriter(db);
  const limiter = new SlidingWindowLimiter(config.rateLimitPerMinute);
  const deps = { db, config, audit };

  const elysia = new Elysia({ normalize: true }).onError(({ code, error, request, path }) => {
    const locale = getState(request)?.locale ?? localeFromAcceptLanguage(request.headers.get("accept-language"));
    return elysiaErrorResponse({ code, error, locale, path, method: request.method });
  });
  elysia.get(`${DOCS_PATH}/assets/:name`, ({ params }) => docsAsset(params.name));
  const routes = await mountRoutes(elysia as unknown as Elysia, deps);
  const authOf = routeAuth(routes);
  // Built once, on first demand: the routes do not change while the process runs.
  let document: Record<string, unknown> | undefined;
  elysia.get(SPEC_PATH, () => (document ??= buildOpenApiDocument(routes, config.baseUrl)));
  elysia.get(DOCS_PATH, () => docsPage());

  async function handle(request: Request, ip: string | null = null): Promise<Response> {
    const started = performance.now();
    const url = new URL(request.url);
    const path = url.pathname;
    let locale: Locale = localeFromAcceptLanguage(request.headers.get("accept-language"));
    let caller: Caller | null = null;
    let rate: ReturnType<SlidingWindowLimiter["hit"]> | null = null;
    let auditAs: { clubId: string; adminId: string; keyPrefix: string | null } | null = null;
    const via = path === "/mcp" ? "mcp" : "http";
    let response: Response;
    try {
      const auth = authOf(request.method, path);
      if (auth !== "public") {
        try {
          caller = await resolveCaller(db, request.headers.get("authorization"));
        } catch (err) {
          if (err instanceof CallerRefused) {
            locale = err.known.locale;
            auditAs = err.known;
          }
          throw err;
        }
        locale = caller.locale;
        if (caller.kind === "key") {
          auditAs = { clubId: caller.clubId, adminId: caller.adminId, keyPrefix: caller.keyPrefix };
          rate = limiter.hit(caller.keyId as string);
          if (!rate.allowed) throw new RateLimited(rate.retryAfterSeconds);
          if (auth === "session" || auth === "superadmin") throw new Forbidden("SESSION_REQUIRED");
        }
      }
      request = await capBody(request, config.maxBodyBytes);
      setState(request, { caller, locale, via, tool: null, ip });
      response = await elysia.handle(request);
    } catch (err) {
      response = err instanceof AppError ? appErrorResponse(err, locale) : internalError(locale, err);
    }
    if (rate) {
      response.headers.set("ratelimit-limit", String(rate.limit));
      response.headers.set("ratelimit-remaining", String(rate.remaining));
      response.headers.set("ratelimit-reset", String(rate.resetSeconds));
    }
    if (auditAs) {
      try {
        await audit.record({
          club_id: auditAs.clubId,
          admin_id: auditAs.adminId,
          key_prefix: auditAs.keyPrefix,
          method: request.method,
          path,
          status: response.status,
          duration_ms: Math.round((performance.now() - started) * 100) / 100,
          ip,
          via,
          tool: getState(request)?.tool ?? null,
          created_at: new Date().toISOString(),
        });
      } catch (err) {
        // Nothing done with a key goes unrecorded: without its audit row, the answer is an error.
        return internalError(locale, err);
      }
    }
    return response;
  }

  return { handle, routes, audit, limiter, elysia: elysia as unknown as Elysia };
}

/** Refuses a body over `max` bytes (413), whether or not it announces its length. */
/** Nesting a JSON body may have: ours go a few levels deep; thousands only exhaust the stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * The body as bytes, refused past `max` bytes (413), and a JSON body nested deeper than
 * MAX_JSON_DEPTH refused (422) before anything parses it: deep nesting passed the size cap and
 * then overflowed the stack of the validators and the JSON encoder (a 500 after seconds of CPU).
 */
async function capBody(request: Request, max: number): Promise<Request> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max) throw new PayloadTooLarge({ max });
  if (!request.body) return request;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new PayloadTooLarge({ max });
    }
    chunks.push(value);
  }
  const body = Buffer.concat(chunks);
  if (/json/i.test(request.headers.get("content-type") ?? "") && jsonDepth(body) > MAX_JSON_DEPTH) {
    throw new ValidationFailed([{ loc: ["body"], code: "BODY_TOO_DEEP", params: { max: MAX_JSON_DEPTH } }]);
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body });
}

/** The deepest nesting of arrays and objects in JSON text (brackets inside strings do not count). */
export function jsonDepth(bytes: Uint8Array): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === 0x5c)
        i++; // backslash: the next byte is escaped
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return deepest;
}
