// Mounts every file under routes/ at the URL its path mirrors: `[club_id]` -> `:club_id`,
// `index.ts` -> its folder. A file exports one route spec per method (GET, POST, ...). The
// folder is found from this module's own place, never from the working directory. It also owns
// the one route table (`routeTable`), which the pipeline reads before Elysia parses anything,
// and the one authorization of a call (`authorize`). Per call it counts the route's declared
// rate, builds the context (the caller's `Ctx`, or a public route's `PublicCtx`) and turns a raw
// route's lib/ reply into the HTTP answer (http/reply.ts).
import { join, relative } from "node:path";
import type { Elysia } from "elysia";
import { type ZodObject, type ZodType, z } from "zod";
import type { Deps } from "../http/deps";
import { compilePath, decodeParam, matchPath, type PathPattern } from "../http/paths";
import { replyResponse } from "../http/reply";
import { type Caller, requireScope, scopeList } from "../lib/access";
import { type Ctx, type PublicCtx, type Site, siteOf } from "../lib/context";
import { Forbidden, nulItems, Unauthorized, ValidationFailed } from "../lib/errors";
import { DEFAULT_LOCALE, type Locale } from "../lib/i18n";
import { limitAddress } from "../lib/ratelimit";
import { isLargeAnswer, isSharedAnswer, type Reply } from "../lib/reply";
import { DOCS_PATH, SPEC_PATH } from "./docs";
import { type AnyRoute, type Auth, ErrorResponse, ValidationErrorResponse } from "./route";
import { getState } from "./state";

export const ROUTES_DIR = join(import.meta.dir, "..", "routes");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "ALL"] as const;

/** A mounted route: `params` is the schema its path parameters are checked with (declared or derived). */
export type MountedRoute = { method: string; path: string; spec: AnyRoute; file: string; params?: ZodObject };

export function fileToPath(file: string): string {
  const parts = file
    .replace(/\.ts$/, "")
    .split("/")
    .filter((p) => p !== "index")
    .map((p) => p.replace(/^\[(\w+)\]$/, ":$1"));
  return `/${parts.join("/")}`;
}

function defaultParams(path: string): ZodObject | undefined {
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  if (!names.length) return undefined;
  return z.object(Object.fromEntries(names.map((n) => [n, n.endsWith("_id") ? z.uuid() : z.string().min(1).max(200)])));
}

/**
 * What a call is checked against: who may call the route, the scope it needs, the largest body it
 * reads when that is more than MAX_BODY_BYTES, whether its body must be JSON (`json`), and
 * whether its refusals are pages (`page`, RouteSpec.page).
 */
export type Guard = { auth: Auth; scope?: AnyRoute["scope"]; maxBodyBytes?: number; json?: boolean; page?: boolean };

/** A route whose body is JSON checked by its schema (not a raw route, a file or a signed text): SPEC "request bodies are JSON". */
export const takesJson = (spec: AnyRoute): boolean => !!spec.body && !spec.raw && !spec.bytes && !spec.text;

/**
 * The one authorization of a call, before its body is read: a caller for any route that is not
 * public (401), a dashboard session for session and superadmin routes (403 `SESSION_REQUIRED`, so
 * a key never reaches them, SPEC "Authentication" 4), a superadmin for theirs, the caller's own
 * club in the path (403 `CLUB_FORBIDDEN`), then the route's scope (403 `SCOPE_MISSING`).
 */
export function authorize(guard: Guard, caller: Caller | null, params: Record<string, string | null>): void {
  if (guard.auth === "public") return;
  if (!caller) throw new Unauthorized();
  if ((guard.auth === "session" || guard.auth === "superadmin") && caller.kind === "key") throw new Forbidden("SESSION_REQUIRED");
  if (guard.auth === "superadmin" && !caller.isSuperadmin) throw new Forbidden("SUPERADMIN_REQUIRED");
  if ("club_id" in params && params.club_id !== caller.clubId) throw new Forbidden("CLUB_FORBIDDEN");
  requireScope(caller, ...scopeList(guard.scope));
}

/** A path's routes: the methods it takes, the guard of the one `method` asked for (null: not taken), and its parameters. */
export type PathMatch = {
  methods: string[];
  guard: Guard | null;
  /** Path parameters, decoded, ids lower-cased (a UUID is the same in either case, RFC 9562); null when a segment does not decode. */
  params: Record<string, string | null>;
};

export type RouteTable = {
  match(method: string, path: string): PathMatch | null;
  /**
   * Whether a refusal at `path` answers a person (RouteSpec.page) whatever the method: a path one
   * of whose routes is a page (a wrong method there), or a path no route takes under a page's
   * first segment (/m/<token>/nope): the visitor followed a link, not an API call.
   */
  isPage(path: string): boolean;
};

const PUBLIC_GET: PathMatch = { methods: ["GET"], guard: { auth: "public" }, params: {} };

/**
 * The table of every mounted route, for the pipeline: which routes a path matches, the one that
 * takes `method` (HEAD goes where GET goes; where several match, the one with more fixed
 * segments, as Elysia's router chooses), and the docs pages, which are public.
 */
export function routeTable(routes: MountedRoute[]): RouteTable {
  // One entry per path, its guards made once: every request is matched here before anything else.
  type Entry = { pattern: PathPattern; methods: string[]; guards: Map<string, Guard> };
  const byPath = new Map<string, Entry>();
  for (const r of routes) {
    let entry = byPath.get(r.path);
    if (!entry) {
      entry = { pattern: compilePath(r.path), methods: [], guards: new Map() };
      byPath.set(r.path, entry);
    }
    entry.methods.push(...(r.method === "ALL" && r.spec.answers ? r.spec.answers : [r.method]));
    entry.guards.set(r.method, {
      auth: r.spec.auth ?? "key",
      scope: r.spec.scope,
      maxBodyBytes: r.spec.maxBodyBytes,
      json: takesJson(r.spec),
      page: r.spec.page,
    });
  }
  const entries = [...byPath.values()];
  const pageRoots = new Set(routes.filter((r) => r.spec.page).map((r) => r.path.split("/")[1]));
  const pageEntries = new Set(entries.filter((e) => [...e.guards.values()].some((g) => g.page)));
  return {
    isPage(path) {
      const depth = path.split("/").length;
      const matching = entries.filter((entry) => matchPath(entry.pattern, path, depth));
      return matching.length ? matching.some((entry) => pageEntries.has(entry)) : pageRoots.has(path.split("/")[1]);
    },
    match(method, path) {
      if (path === SPEC_PATH || path === DOCS_PATH || path.startsWith(`${DOCS_PATH}/`))
        return { ...PUBLIC_GET, guard: method === "GET" || method === "HEAD" ? PUBLIC_GET.guard : null };
      const depth = path.split("/").length;
      const wanted = method === "HEAD" ? "GET" : method;
      let methods: string[] | null = null;
      let best: { entry: Entry; groups: Record<string, string> | undefined } | null = null;
      for (const entry of entries) {
        const groups = matchPath(entry.pattern, path, depth);
        if (!groups) continue;
        methods = methods ? [...new Set([...methods, ...entry.methods])] : entry.methods;
        if ((entry.guards.has(wanted) || entry.guards.has("ALL")) && (!best || entry.pattern.fixed > best.entry.pattern.fixed)) best = { entry, groups };
      }
      if (!methods) return null;
      const params: Record<string, string | null> = {};
      for (const [name, raw] of Object.entries(best?.groups ?? {})) params[name] = decodeParam(name, raw);
      return { methods, guard: best ? (best.entry.guards.get(wanted) ?? best.entry.guards.get("ALL") ?? null) : null, params };
    },
  };
}

/** Ids in the path are lower-cased for the handler too: ours are stored lower-case. */
function normaliseParams({ params }: { params: Record<string, string> }): void {
  for (const name of Object.keys(params ?? {})) if (name.endsWith("_id") && typeof params[name] === "string") params[name] = params[name].toLowerCase();
}

/** The errors a route may answer, by status, each with the shared error body (DESIGN.md section 5). */
export function errorSchemas(spec: AnyRoute, path: string, params?: ZodObject): Record<number, ZodType> {
  const map: Record<number, ZodType> = {};
  if ((spec.auth ?? "key") !== "public") Object.assign(map, { 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse });
  if (spec.rateLimit) map[429] = ErrorResponse;
  // A `club_id` that is not the caller's club, well-formed or not, is a 403 before any validation.
  const checked = Object.keys(params?.shape ?? {}).filter((name) => name !== "club_id");
  if (checked.length || spec.query || spec.body) map[422] = ValidationErrorResponse;
  if (takesJson(spec)) map[415] = ErrorResponse;
  if (path.includes(":") && path.split(":").length > 2) map[404] = ErrorResponse;
  for (const status of spec.errors ?? []) map[status] = ErrorResponse;
  return map;
}

/** A text, XML (a camt.053 statement), image or binary body, or one sent without a type, as bytes (RouteSpec.bytes). */
async function bodyBytes({ request }: { request: Request }, contentType: string): Promise<Uint8Array | undefined> {
  if (
    contentType === "" ||
    contentType.startsWith("text/") ||
    contentType.startsWith("image/") ||
    contentType === "application/octet-stream" ||
    /^application\/([\w.-]+\+)?xml\b/.test(contentType)
  )
    return new Uint8Array(await request.arrayBuffer());
  return undefined;
}

/** The body as the exact text sent (RouteSpec.text). */
const bodyText = ({ request }: { request: Request }) => request.text();

/** The UTF-8 JSON of each shared answer (lib/reply `sharedAnswer`), serialized at its first sending. */
const sentBytes = new WeakMap<object, Uint8Array>();

/**
 * A large answer (lib/reply `largeAnswer`) as its JSON, the body one chunk of a stream: Bun
 * (1.4.5) writes a body given whole, when the answer is ready only after an await (ours wait for
 * the audit row's group commit), in one send() per fragment of the head and body once it is over
 * 16 KB (15 for a plain 32 KB answer: 3,200-3,500 answers/s of 47 KB, against 17,000-20,000 for the
 * same bytes as one chunk of a stream). Bun gives a small one its Content-Length, a large one
 * chunked transfer coding, which every HTTP/1.1 client reads; HEAD answers as for any route. A
 * shared answer (lib/reply `sharedAnswer`) is serialized once, at its first sending, to the bytes
 * kept; any other (a search's page) is handed over as its JSON text, which Bun writes out as
 * UTF-8 itself, in the same one write: no 47 KB copy made and dropped per answer (server CPU per
 * search 1,304 against 1,522 µs, docs/benchmarks.md "search15").
 */
function jsonChunk(answer: object): Response {
  let chunk: Uint8Array | string | undefined = sentBytes.get(answer);
  if (chunk === undefined) {
    chunk = JSON.stringify(answer);
    if (isSharedAnswer(answer)) {
      chunk = new TextEncoder().encode(chunk);
      sentBytes.set(answer, chunk);
    }
  }
  const body = new ReadableStream<Uint8Array | string>({
    start(controller) {
      controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "application/json;charset=utf-8" } });
}

function responses(spec: AnyRoute, path: string, params?: ZodObject) {
  const map: Record<number, ZodType> = {};
  if (spec.response) map[spec.status ?? 200] = spec.response;
  if (spec.hidden || spec.raw) return map;
  return Object.assign(map, errorSchemas(spec, path, params));
}

/**
 * A response schema as the check of CHECK_RESPONSES (tests, debugging): the answer must pass it
 * AND come out unchanged. Production does not check (server/config), so it sends the handler's
 * value as is; an answer that its schema would strip or fill in would differ there, and fails here.
 */
export function unchanged(schema: ZodType) {
  return {
    "~standard": {
      version: 1,
      vendor: "club-api",
      validate(value: unknown) {
        const result = schema.safeParse(value);
        if (!result.success) return { issues: result.error.issues };
        if (!Bun.deepEquals(result.data, value)) {
          return {
            issues: [
              { message: "the response schema changes this answer (a field stripped or defaulted): production, which does not check, would answer otherwise" },
            ],
          };
        }
        return { value };
      },
    },
  };
}

function checkedResponses(spec: AnyRoute, path: string, params?: ZodObject) {
  return Object.fromEntries(Object.entries(responses(spec, path, params)).map(([status, schema]) => [status, unchanged(schema)]));
}

/** A public route's context: no caller, the client's address and the language of Accept-Language. */
function publicCtx(deps: Deps, site: Site, ip: string | null, locale: Locale): PublicCtx {
  const { config } = deps;
  return {
    db: deps.db,
    baseUrl: config.baseUrl,
    wallets: config.wallets,
    ip,
    locale,
    formProofBits: config.formProofBits,
    site,
    pendingPaymentMinutes: config.pendingPaymentMinutes,
  };
}

/** Two routes of one rate scope share its count, so they must declare the same rate. */
function checkRates(mounted: MountedRoute[]): void {
  const seen = new Map<string, number>();
  for (const { spec, method, path } of mounted) {
    if (!spec.rateLimit) continue;
    const { scope, perMinute } = spec.rateLimit;
    if ((seen.get(scope) ?? perMinute) !== perMinute) throw new Error(`${method} ${path}: rate scope "${scope}" declared with two rates`);
    seen.set(scope, perMinute);
  }
}

/** The query parameters `spec` declares, of those sent: the ones its handler reads. */
function declaredQuery(spec: AnyRoute, query: unknown): Record<string, unknown> {
  const shape = (spec.query as ZodObject | undefined)?.shape;
  if (!shape || !query || typeof query !== "object") return {};
  return Object.fromEntries(Object.entries(query).filter(([k]) => k in shape));
}
export async function mountRoutes(app: Elysia, deps: Deps): Promise<MountedRoute[]> {
  // `dot`: /.well-known/ routes (OAuth metadata) live in routes/.well-known/.
  const files = [...new Bun.Glob("**/*.ts").scanSync({ cwd: ROUTES_DIR, dot: true })].filter((f) => !f.split("/").some((p) => p.startsWith("_"))).sort();
  const mounted: MountedRoute[] = [];
  const site = siteOf(deps.config);
  for (const file of files) {
    const mod = (await import(join(ROUTES_DIR, file))) as Record<string, AnyRoute>;
    const path = fileToPath(relative(".", file));
    for (const method of METHODS) {
      const spec = mod[method];
      if (!spec) continue;
      const params = spec.params ?? defaultParams(path);
      app.route(
        method,
        path,
        (async (c: {
          request: Request;
          params: Record<string, string>;
          query: unknown;
          body: unknown;
          set: { status?: number | string; headers: Record<string, string | number> };
        }) => {
          const state = getState(c.request);
          const caller = state?.caller;
          const ip = state?.ip ?? null;
          // A NUL in any string the route reads is a 422 naming it, on both engines (lib/errors
          // nulItems): the query parameters it declares (others are ignored), its JSON body. A raw
          // route reads its own body (MCP checks a tool's arguments itself); a signed text body
          // (Stripe's) is checked by its signature and never stored as sent.
          const nul = [...nulItems(declaredQuery(spec, c.query), ["query"]), ...(spec.raw || spec.text ? [] : nulItems(c.body, ["body"]))];
          if (nul.length) throw new ValidationFailed(nul);
          // Counted once the input is valid and before the handler: a refused request does nothing.
          if (spec.rateLimit) await limitAddress(deps.db, spec.rateLimit.scope, spec.rateLimit.perMinute, ip);
          const ctx: Ctx | PublicCtx = caller
            ? {
                // A keyed write runs in the one transaction that also keeps its answer (server/idempotency.ts).
                db: state?.db ?? deps.db,
                actor: caller,
                clubId: c.params?.club_id ?? caller.clubId,
                locale: state.locale,
                // Named, not spread: a spread per request copied the site object's properties one by one.
                baseUrl: site.baseUrl,
                mail: site.mail,
                wallets: site.wallets,
                webhooks: site.webhooks,
                stripe: site.stripe,
                notes: state?.notes,
                withAuditRow: state?.withAuditRow ? (write) => state.withAuditRow?.push(write) : undefined,
              }
            : publicCtx(deps, site, ip, state?.locale ?? DEFAULT_LOCALE);
          if (spec.status) c.set.status = spec.status;
          const out = await spec.handler({ ctx, params: c.params as never, query: c.query as never, body: c.body as never, request: c.request, set: c.set });
          // A large answer is sent as one chunk, a shared one as the text it was serialized to once.
          // Where answers are checked against their schema (tests), it goes the common way, checked.
          if (isLargeAnswer(out) && !deps.config.checkResponses) return jsonChunk(out);
          return spec.raw && !(out instanceof Response) ? replyResponse(out as Reply) : out;
        }) as never,
        {
          params,
          query: spec.query,
          body: spec.body,
          response: spec.raw || !deps.config.checkResponses ? undefined : checkedResponses(spec, path, params),
          transform: normaliseParams,
          // Undefined for other types: Elysia's own parsers (JSON, forms) take over. A route that
          // takes no body never parses one, so a stray malformed body is no 400 there.
          ...(spec.bytes ? { parse: bodyBytes } : spec.text ? { parse: bodyText } : spec.body || spec.raw ? {} : { parse: "none" }),
        } as never,
      );
      mounted.push({ method, path, spec, file, params });
    }
  }
  checkRates(mounted);
  return mounted;
}
