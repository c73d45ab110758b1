// The HTTP pipeline around the Elysia app. Before Elysia parses anything it answers an unknown
// path (404), a wrong method (405) and a CORS preflight, resolves the bearer key (a bad key with a
// malformed body is still a 401), counts the rate limit and caps the body size; after, it adds
// the RateLimit, CORS and X-Request-Id headers, waits until the request's audit row is durable
// before the answer leaves, and writes the request's log line. A write with an Idempotency-Key
// runs once (server/idempotency.ts, between the body cap and Elysia).
import { Elysia } from "elysia";
import type { Db } from "../db";
import { type Alongside, AuditWriter } from "../lib/audit";
import type { Caller } from "../lib/access";
import { CallerRefused, resolveCountedCaller } from "../lib/auth/caller";
import { idempotencyStore } from "../lib/idempotency";
import type { Config } from "../lib/config";
import { AppError, Forbidden, NotFound, PayloadTooLarge, RateLimited, ValidationFailed } from "../lib/errors";
import { type Locale, localeFromAcceptLanguage } from "../lib/i18n";
import type { RateDecision } from "../lib/ratelimit";
import { appErrorResponse, elysiaErrorResponse, internalError, pageErrorResponse } from "./errors";
import { authorize, type Guard, type MountedRoute, mountRoutes, type PathMatch, routeTable } from "./loader";
import { DOCS_PATH, docsAsset, docsPage, SPEC_PATH } from "./docs";
import { buildOpenApiDocument } from "./openapi";
import { ALL_METHODS, corsHeaders, corsKind, isPreflight, preflightHeaders } from "./cors";
import { idempotent, type Keeping } from "./idempotency";
import { ForeignMcpRequest, foreignMcpRequest } from "./mcp-origin";
import { createLogger, requestId } from "./log";
import { getState, setState } from "./state";
import { changesColumn } from "../lib/audit";
import { mcpResource, PROTECTED_RESOURCE_PATH } from "../lib/oauth/metadata";
import { oauthMalformedBody } from "./oauth";
import type { Deps } from "../http/deps";

export type App = {
  handle(request: Request, ip?: string | null): Promise<Response>;
  routes: MountedRoute[];
  audit: AuditWriter;
  elysia: Elysia;
};

export type AppOptions = {
  /** Where the log lines go (default: stdout), at the config's LOG_LEVEL. */
  logSink?: (line: string) => void;
};

/**
 * A site served beside the API under paths of its own (app/ mounts the dashboard at /admin): its
 * own sign-in, CSRF check and audit rows; no key, CORS or key rate. The pipeline hands it the
 * request's id and a body reader within the cap, and writes its log line (`via`).
 */
export type Beside = {
  owns(path: string): boolean;
  via: string;
  handle(request: Request, ip: string | null, requestId: string, readBody: (request: Request) => Promise<Request>): Promise<Response>;
  refused(err: unknown, request: Request): Response;
  /** Asked once `handle` reads the body (not before: a site may load its routes with its first request). */
  maxBodyBytes(method: string, path: string): number | undefined;
};

/** `beside`: the site mounted beside the API, made with the API's own database, settings and audit writer. */
export type ApiOptions = AppOptions & { beside?: (deps: Deps) => Promise<Beside> };

/** The API (routes, docs, MCP) behind the request pipeline; app/ composes it with the dashboard. */
export async function createApi(db: Db, config: Config, options: ApiOptions = {}): Promise<App> {
  const logger = createLogger(config.logLevel, options.logSink);
  const audit = new AuditWriter(db);
  const deps = { db, config, audit };
  const idempotency = idempotencyStore(db);

  const elysia = new Elysia({ normalize: true }).onError(({ code, error, request, path }) => {
    if (code === "PARSE") {
      const refused = oauthMalformedBody(path);
      if (refused) return refused;
    }
    const locale = getState(request)?.locale ?? localeFromAcceptLanguage(request.headers.get("accept-language"));
    const page = !!table.match(request.method, new URL(request.url).pathname)?.guard?.page;
    const contentType = request.headers.get("content-type");
    return elysiaErrorResponse({ code, error, locale, path, method: request.method, requestId: getState(request)?.requestId, page, contentType });
  });
  elysia.get(`${DOCS_PATH}/assets/:name`, ({ params }) => docsAsset(params.name));
  const routes = await mountRoutes(elysia as unknown as Elysia, deps);
  const table = routeTable(routes);
  // Built once, on first demand: the routes do not change while the process runs.
  let document: Record<string, unknown> | undefined;
  elysia.get(SPEC_PATH, () => (document ??= buildOpenApiDocument(routes, config.baseUrl)));
  elysia.get(DOCS_PATH, () => docsPage());
  const beside = options.beside ? await options.beside(deps) : null;

  async function handle(request: Request, ip: string | null = null): Promise<Response> {
    const started = performance.now();
    const path = new URL(request.url).pathname;
    const id = requestId(request.headers.get("x-request-id"));
    // The site beside the API (the dashboard): its own sign-in, CSRF check and audit rows; no key, CORS or key rate.
    if (beside?.owns(path)) {
      let response: Response;
      try {
        // The cap is asked for when the body is read: the site may load its routes with its first request.
        response = await beside.handle(request, ip, id, (sent) => capBody(sent, Math.max(config.maxBodyBytes, beside.maxBodyBytes(request.method, path) ?? 0)));
      } catch (err) {
        response = beside.refused(err, request);
      }
      response.headers.set("x-request-id", id);
      const duration_ms = Math.round((performance.now() - started) * 100) / 100;
      logger.log(response.status >= 500 ? "error" : "info", "request", {
        request_id: id,
        method: request.method,
        path,
        status: response.status,
        duration_ms,
        via: beside.via,
        ip,
      });
      return response;
    }
    const origin = request.headers.get("origin");
    let locale: Locale = localeFromAcceptLanguage(request.headers.get("accept-language"));
    // Filled by `identify` (a closure: kept in one object so the type checker sees its writes).
    const seen: {
      caller: Caller | null;
      rate: RateDecision | null;
      auditAs: { clubId: string; adminId: string; keyPrefix: string | null } | null;
    } = { caller: null, rate: null, auditAs: null };
    const via = path === "/mcp" ? "mcp" : "http";
    const match = table.match(request.method, path);
    const auth = match?.guard?.auth ?? "public";
    const cors = corsKind(path, auth);
    let response: Response;
    // A keyed write's refusal, kept with the audit row (server/idempotency.ts; a success's is kept with its write).
    let keeping: Keeping | null = null;
    try {
      // The caller behind the bearer token, counted against its key's rate and named for the audit
      // log; one place for the routes that need a key and for the refusals that do not (404, 405).
      const identify = async (required: boolean) => {
        let counted: Awaited<ReturnType<typeof resolveCountedCaller>>;
        try {
          const resource = via === "mcp" ? mcpResource(config.baseUrl) : null;
          counted = await resolveCountedCaller(db, request.headers.get("authorization"), config.rateLimitPerMinute, new Date(), resource);
        } catch (err) {
          if (err instanceof CallerRefused) {
            locale = err.known.locale;
            seen.auditAs = err.known;
          }
          if (required) throw err;
          return;
        }
        seen.caller = counted.caller;
        locale = seen.caller.locale;
        if (seen.caller.kind === "key") {
          seen.auditAs = { clubId: seen.caller.clubId, adminId: seen.caller.adminId, keyPrefix: seen.caller.keyPrefix };
          seen.rate = counted.rate;
          if (seen.rate && !seen.rate.allowed) throw new RateLimited(seen.rate.retryAfterSeconds);
        }
      };
      // Another site's page (DNS rebinding) is refused before its key counts for anything; a
      // key it carries is still counted and audited, as for a 404 below.
      const foreign = via === "mcp" && request.method !== "OPTIONS" ? foreignMcpRequest(request, config) : null;
      if (foreign) {
        if (request.headers.has("authorization")) await identify(false);
        throw foreign;
      }
      // 404 and 405 whoever asks (a 401 would suggest more than the OpenAPI document says); a
      // key's request is still counted and audited, so a key cannot probe without a trace.
      if (!match || (request.method !== "OPTIONS" && !match.guard)) {
        if (request.headers.has("authorization")) await identify(false);
        if (!match) throw new NotFound("ROUTE_NOT_FOUND", { method: request.method, path });
        throw new AppError(405, "METHOD_NOT_ALLOWED", { path, method: request.method, allow: allowOf(match.methods) });
      }
      if (request.method === "OPTIONS") {
        response = preflight(request, path, match);
      } else {
        if (auth !== "public") await identify(true);
        // Once, before the body is read: a key without the scope gets 403 whatever it sends.
        authorize(match.guard as Guard, seen.caller, match.params);
        const capped = await cappedBody(request, Math.max(config.maxBodyBytes, match.guard?.maxBodyBytes ?? 0), !!match.guard?.json);
        request = capped.request;
        // A key's HTTP request: its audit row commits, waiting for the disk, after the verb and
        // before the answer leaves, so the verb's own commits need not wait (db/index.ts
        // `lateCommits`). Not MCP's: a task goes on writing after its call is answered.
        const writes = seen.auditAs && via === "http" ? (db.lateCommits?.() ?? db) : db;
        setState(request, {
          caller: seen.caller,
          locale,
          via,
          tool: null,
          ip,
          requestId: id,
          notes: {},
          withAuditRow: [],
          db: writes === db ? undefined : writes,
        });
        const ready = request;
        ({ response, keeping } = await idempotent(idempotency, writes, ready, capped.body, seen.caller, (keyed) => {
          const state = getState(ready);
          if (keyed && state) state.db = keyed;
          return elysia.handle(ready);
        }));
      }
    } catch (err) {
      response =
        err instanceof ForeignMcpRequest
          ? err.answer(locale, id)
          : (match?.guard ? match.guard.page : table.isPage(path))
            ? pageErrorResponse(err, locale, id)
            : err instanceof AppError
              ? appErrorResponse(err, locale, id)
              : internalError(locale, err, id);
    }
    const headers = response.headers;
    if (seen.rate) {
      headers.set("ratelimit-limit", String(seen.rate.limit));
      headers.set("ratelimit-remaining", String(seen.rate.remaining));
      headers.set("ratelimit-reset", String(seen.rate.resetSeconds));
    }
    if (response.status === 405 && match && !headers.has("allow")) headers.set("allow", allowOf(match.methods));
    // RFC 6750 section 3: a refused bearer credential says so; MCP clients read it to know a key is wanted.
    if (response.status === 401 && auth !== "public" && !headers.has("www-authenticate")) {
      // On /mcp it also names the OAuth metadata (RFC 9728 section 5.1): where a hosted assistant learns how to sign in.
      const metadata = via === "mcp" ? `, resource_metadata="${config.baseUrl}${PROTECTED_RESOURCE_PATH}"` : "";
      headers.set(
        "www-authenticate",
        request.headers.has("authorization") ? `Bearer realm="club-api", error="invalid_token"${metadata}` : `Bearer realm="club-api"${metadata}`,
      );
    }
    if (request.method !== "OPTIONS") for (const [name, value] of Object.entries(corsHeaders(cors, origin, config.corsOrigins))) headers.set(name, value);
    headers.set("x-request-id", id);
    // What commits with the audit row: a keyed write's kept answer, and the writes a verb handed
    // over (Ctx.withAuditRow).
    const handed = getState(request)?.withAuditRow;
    const along: Alongside | undefined = handed?.length
      ? async (t) => {
          await keeping?.write(t);
          for (const write of handed) await write(t);
        }
      : keeping?.write;
    // A dashboard session's keyed refusal (or a caller without an audit row) has no audit row to carry them: their own transaction.
    if (along && !seen.auditAs) {
      try {
        await db.tx(along);
      } catch (err) {
        response = internalError(locale, err, id);
        response.headers.set("x-request-id", id);
      } finally {
        keeping?.release();
      }
    }
    if (seen.auditAs) {
      try {
        await audit.record(
          {
            club_id: seen.auditAs.clubId,
            admin_id: seen.auditAs.adminId,
            key_prefix: seen.auditAs.keyPrefix,
            method: request.method,
            path,
            status: response.status,
            duration_ms: Math.round((performance.now() - started) * 100) / 100,
            ip,
            via,
            tool: getState(request)?.tool ?? null,
            mcp_method: getState(request)?.mcpMethod ?? null,
            created_at: new Date().toISOString(),
            request_id: id,
            changes: changesColumn(getState(request)?.notes),
          },
          seen.caller?.keyId ?? null,
          along,
        );
      } catch (err) {
        // Nothing done with a key goes unrecorded: without its audit row, the answer is an error.
        response = internalError(locale, err, id);
        response.headers.set("x-request-id", id);
      } finally {
        keeping?.release();
      }
    }
    logger.log(response.status >= 500 ? "error" : "info", "request", {
      request_id: id,
      method: request.method,
      path,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      key_prefix: seen.auditAs?.keyPrefix ?? null,
      via,
      tool: getState(request)?.tool ?? null,
      mcp_method: getState(request)?.mcpMethod ?? null,
      ip,
    });
    return response;
  }

  /**
   * An OPTIONS request: a browser's preflight answers 204 with what the path allows, unless the
   * path takes a key and the page's origin is not in CORS_ORIGINS (403, so the developer sees why
   * in the browser's network tab). A plain OPTIONS lists the methods.
   */
  function preflight(request: Request, path: string, match: PathMatch): Response {
    const { methods } = match;
    if (!isPreflight(request)) return new Response(null, { status: 204, headers: { allow: `${allowOf(methods)}, OPTIONS` } });
    const origin = request.headers.get("origin") as string;
    // Who may call the method the page means to send; for a method the path does not take, its first one's.
    const asked = table.match(request.headers.get("access-control-request-method") as string, path)?.guard ?? table.match(methods[0], path)?.guard;
    const kind = corsKind(path, asked?.auth ?? "key");
    if (kind === "listed" && !(config.corsOrigins.includes("*") || config.corsOrigins.includes(origin))) {
      throw new Forbidden("CORS_ORIGIN_NOT_ALLOWED", { origin });
    }
    return new Response(null, { status: 204, headers: preflightHeaders(kind, origin, methods) });
  }

  return { handle, routes, audit, elysia: elysia as unknown as Elysia };
}

/** The `Allow` list of a path's methods (a route of every method, such as /mcp's, lists them). */
function allowOf(methods: string[]): string {
  return (methods.includes("ALL") ? ALL_METHODS : methods).join(", ");
}

/** Nesting a JSON body may have: ours go a few levels deep; thousands only exhaust the stack. */
export const MAX_JSON_DEPTH = 64;

/** The JSON media type, any parameters after (a `+json` type is not read as JSON by the router: refused too). */
const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The body as bytes, refused past `max` bytes (413), and a JSON body nested deeper than
 * MAX_JSON_DEPTH refused (422) before anything parses it: deep nesting passed the size cap and
 * then overflowed the stack of the validators and the JSON encoder (a 500 after seconds of CPU).
 * A route that takes JSON (`json`) refuses a body of another type, or of none, with a 415: a
 * form's fields would otherwise pass its schema wherever they are all text.
 */
async function capBody(request: Request, max: number, json = false): Promise<Request> {
  return (await cappedBody(request, max, json)).request;
}

/** `capBody`'s request and the bytes it read (null: no body), which the Idempotency-Key step hashes without reading the body again. */
async function cappedBody(request: Request, max: number, json = false): Promise<{ request: Request; body: Uint8Array | null }> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max) throw new PayloadTooLarge({ max });
  if (!request.body) return { request, body: null };
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
  const type = request.headers.get("content-type") ?? "";
  if (json && body.byteLength > 0 && !JSON_TYPE.test(type)) throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", { type: type.split(";")[0].trim() || "-" });
  if (/json/i.test(type) && jsonDepth(body) > MAX_JSON_DEPTH) {
    throw new ValidationFailed([{ loc: ["body"], code: "BODY_TOO_DEEP", params: { max: MAX_JSON_DEPTH } }]);
  }
  return { request: new Request(request.url, { method: request.method, headers: request.headers, body }), body };
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
