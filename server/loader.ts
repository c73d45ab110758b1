// Mounts every file under routes/ at the URL its path mirrors: `[club_id]` -> `:club_id`,
// `index.ts` -> its folder. A file exports one route spec per method (GET, POST, ...). The
// folder is found from this module's own place, never from the working directory.
import { join, relative } from "node:path";
import type { Elysia } from "elysia";
import { z, type ZodObject, type ZodType } from "zod";
import { requireScope } from "../lib/auth/guard";
import type { Ctx } from "../lib/context";
import { Forbidden, Unauthorized } from "../lib/errors";
import { type AnyRoute, type Deps, ErrorResponse, ValidationErrorResponse } from "./route";
import { getState } from "./state";

export const ROUTES_DIR = join(import.meta.dir, "..", "routes");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "ALL"] as const;

export type MountedRoute = { method: string; path: string; spec: AnyRoute; file: string };

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

/** Who may call, which club, which scope: checked before the body is validated. */
function authorize(spec: AnyRoute, request: Request, params: Record<string, string>): void {
  // A UUID is the same in either case (RFC 9562); ours are stored lower-case.
  // A segment that does not decode (a lone surrogate: `%ED%A0%80`) comes as null: left for the checks to refuse.
  for (const name of Object.keys(params ?? {})) if (name.endsWith("_id") && typeof params[name] === "string") params[name] = params[name].toLowerCase();
  const auth = spec.auth ?? "key";
  if (auth === "public") return;
  const caller = getState(request)?.caller;
  if (!caller) throw new Unauthorized();
  if ((auth === "session" || auth === "superadmin") && caller.kind === "key") throw new Forbidden("SESSION_REQUIRED");
  if (auth === "superadmin" && !caller.isSuperadmin) throw new Forbidden("SUPERADMIN_REQUIRED");
  if (params?.club_id !== undefined && params.club_id !== caller.clubId) throw new Forbidden("CLUB_FORBIDDEN");
  if (spec.scope) requireScope(caller, spec.scope);
}

const noCaller = new Proxy({} as Ctx, {
  get() {
    throw new Error("a public route has no caller context: use deps");
  },
});

function responses(spec: AnyRoute, path: string, params?: ZodType) {
  const map: Record<number, ZodType> = {};
  if (spec.response) map[spec.status ?? 200] = spec.response;
  if (spec.hidden || spec.raw) return map;
  if ((spec.auth ?? "key") !== "public") Object.assign(map, { 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse });
  if (params || spec.query || spec.body) map[422] = ValidationErrorResponse;
  if (path.includes(":") && path.split(":").length > 2) map[404] = ErrorResponse;
  for (const status of spec.errors ?? []) map[status] = ErrorResponse;
  return map;
}

/** A text or binary body as bytes (RouteSpec.bytes). */
async function bodyBytes({ request }: { request: Request }, contentType: string): Promise<Uint8Array | undefined> {
  if (contentType.startsWith("text/") || contentType === "application/octet-stream") return new Uint8Array(await request.arrayBuffer());
  return undefined;
}

export async function mountRoutes(app: Elysia, deps: Deps): Promise<MountedRoute[]> {
  const files = [...new Bun.Glob("**/*.ts").scanSync(ROUTES_DIR)].filter((f) => !f.split("/").some((p) => p.startsWith("_"))).sort();
  const mounted: MountedRoute[] = [];
  for (const file of files) {
    const mod = (await import(join(ROUTES_DIR, file))) as Record<string, AnyRoute>;
    const path = fileToPath(relative(".", file));
    for (const method of METHODS) {
      const spec = mod[method];
      if (!spec) continue;
      const params = spec.params ?? defaultParams(path);
      const auth = spec.auth ?? "key";
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
          const ctx: Ctx = caller
            ? {
                db: deps.db,
                actor: caller,
                clubId: c.params?.club_id ?? caller.clubId,
                locale: state.locale,
                baseUrl: deps.config.baseUrl,
                mail: { smtpUrl: deps.config.smtpUrl, outboxDir: deps.config.outboxDir },
                wallets: deps.config.wallets,
              }
            : noCaller;
          if (spec.status) c.set.status = spec.status;
          return spec.handler({ ctx, deps, params: c.params as never, query: c.query as never, body: c.body as never, request: c.request, set: c.set });
        }) as never,
        {
          params,
          query: spec.query,
          body: spec.body,
          response: spec.raw ? undefined : responses(spec, path, params),
          transform: ({ request, params: raw }: { request: Request; params: Record<string, string> }) => authorize(spec, request, raw),
          // Undefined for other types: Elysia's own parsers (JSON, forms) take over.
          ...(spec.bytes ? { parse: bodyBytes } : {}),
          detail: {
            summary: spec.summary,
            description:
              [spec.description, spec.scope ? `Scope: \`${spec.scope}\`.` : auth === "key" ? "Any valid key." : undefined].filter(Boolean).join("\n\n") ||
              undefined,
            tags: spec.tags,
            hide: spec.hidden,
            security: auth === "public" ? [] : [{ bearer: [] }],
            ...(spec.stable ? { "x-stable": true } : {}),
          },
        } as never,
      );
      mounted.push({ method, path, spec, file });
    }
  }
  return mounted;
}
