// What the request pipeline learns about a request before Elysia sees it (the caller, the
// language of its answers) and what a handler adds for the audit row (the MCP method, and the
// tool, resource or prompt it named).
import type { Db, Queryable } from "../db";
import type { Caller } from "../lib/access";
import type { AuditNotes } from "../lib/context";
import type { Locale } from "../lib/i18n";

export type RequestState = {
  caller: Caller | null;
  locale: Locale;
  via: "http" | "mcp";
  tool: string | null;
  mcpMethod?: string | null;
  /** The client's address (public routes rate-limit by it); null when unknown (tests). */
  ip: string | null;
  /** The answer's X-Request-Id, which error bodies carry (`request_id`). */
  requestId?: string;
  /** A keyed write's view of the database (lib/idempotency `KeyedWrite`): the caller's Ctx runs on it. */
  db?: Db;
  /** What the verb adds to the audit row (lib/context AuditNotes). */
  notes?: AuditNotes;
  /** Writes a verb asked to commit with the audit row (lib/context `Ctx.withAuditRow`). */
  withAuditRow?: ((t: Queryable) => Promise<unknown>)[];
};

const states = new WeakMap<Request, RequestState>();

export function setState(request: Request, state: RequestState): void {
  states.set(request, state);
}

export function getState(request: Request): RequestState | undefined {
  return states.get(request);
}
