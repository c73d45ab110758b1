// The answer to an error, the one mapping for every transport (the API, MCP, the dashboard): typed
// lib/ errors, schema failures (422 with `detail` items `{loc, msg, type}`), the database unable
// to serve (503 with Retry-After), and anything unexpected (500, logged, never a stack trace in the
// body). Messages follow the caller's locale; an error body carries the request's id
// (`request_id`, the answer's X-Request-Id), for a client to quote. Shared by server/ and
// dashboard/, which import nothing of each other.
import type { ZodType, z } from "zod";
import { unavailability } from "../db";
import { AppError, nulItems, RateLimited, ValidationFailed } from "../lib/errors";
import { type Locale, t, zodErrorMap } from "../lib/i18n";
import { MESSAGES, type MessageCode } from "../lib/i18n/messages";

export type ValidationItem = { loc: (string | number)[]; msg: string; type: string };

function message(locale: Locale, text: string): string {
  return text in MESSAGES ? t(locale, text as MessageCode) : text;
}

/** Re-runs a failed schema to list every issue in the caller's language. */
export function zodIssues(schema: ZodType, value: unknown, where: string, locale: Locale): ValidationItem[] {
  const result = parseInput(schema, value, where, locale);
  return result.success ? [] : result.items;
}

/**
 * Parses an input (`where`: path, query, body) with zod's messages in the caller's language; a
 * failure lists each issue as a 422 `detail` item (`loc` = `where` then the field's path).
 */
export function parseInput<S extends ZodType>(
  schema: S,
  value: unknown,
  where: string,
  locale: Locale,
): { success: true; data: z.output<S> } | { success: false; items: ValidationItem[] } {
  const nul = nulItems(value, [where]);
  if (nul.length) return { success: false, items: nul.map((i) => ({ loc: i.loc, msg: t(locale, i.code), type: i.code.toLowerCase() })) };
  const result = schema.safeParse(value, { error: zodErrorMap(locale) });
  if (result.success) return { success: true, data: result.data };
  const items = result.error.issues.map((issue) => ({
    loc: [where, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    msg: message(locale, issue.message),
    type: issue.message in MESSAGES ? issue.message.toLowerCase() : issue.code,
  }));
  return { success: false, items };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

/** An error's answer: status, headers and the `{detail, code, request_id}` body (`detail` a list of items for 422). */
export type ErrorBody = { detail: string | ValidationItem[]; code: string; request_id?: string };
export type ErrorAnswer = { status: number; body: ErrorBody; headers: Record<string, string> };

export function validationBody(items: ValidationItem[], code = "VALIDATION_FAILED"): ErrorBody {
  return { detail: items, code };
}

/** Seconds a client is told to wait: a write lock held elsewhere passes soon; a full disk needs an operator. */
const RETRY_AFTER = { busy: 1, down: 30 };

export function internalAnswer(locale: Locale, err: unknown): ErrorAnswer {
  // The database unable to serve (busy elsewhere, read-only, full, I/O error) is no bug of ours
  // nor of the request: 503, to be retried, whatever the request was doing when it met it.
  const unavailable = unavailability(err);
  if (unavailable) {
    console.error(`database unavailable (${unavailable}):`, err instanceof Error ? err.message : err);
    const code = unavailable === "busy" ? "DATABASE_BUSY" : "DATABASE_CANNOT_WRITE";
    return { status: 503, body: { detail: t(locale, code), code }, headers: { "retry-after": String(RETRY_AFTER[unavailable]) } };
  }
  console.error("internal error:", err);
  return { status: 500, body: { detail: t(locale, "INTERNAL"), code: "INTERNAL" }, headers: {} };
}

/**
 * The one mapping of an error to its answer, for HTTP responses and MCP tool errors alike: a typed
 * lib/ error gives its status and code with the message in `locale`; anything else is our fault
 * (500 `INTERNAL`, logged, never a stack trace in the body).
 */
export function errorAnswer(err: unknown, callerLocale: Locale): ErrorAnswer {
  const locale = err instanceof AppError && err.clubLocale ? err.clubLocale : callerLocale;
  if (err instanceof ValidationFailed) {
    const items = err.items.map((i) => ({ loc: i.loc, msg: t(locale, i.code, i.params), type: i.code.toLowerCase() }));
    return { status: 422, body: validationBody(items, err.code), headers: {} };
  }
  if (!(err instanceof AppError)) return internalAnswer(locale, err);
  const headers: Record<string, string> = {};
  if (err instanceof RateLimited) headers["retry-after"] = String(err.retryAfterSeconds);
  return { status: err.status, body: { detail: t(locale, err.code, err.params), code: err.code }, headers };
}

/** The body of an error answer with the request's id (DESIGN.md section 12), when there is one. */
export function withRequestId(body: ErrorBody, requestId: string | undefined): ErrorBody {
  return requestId ? { ...body, request_id: requestId } : body;
}
