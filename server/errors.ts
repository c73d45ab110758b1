// The one place errors become answers, HTTP responses and MCP tool errors alike (`errorAnswer`):
// typed lib/ errors, schema failures (422 with `detail` items `{loc, msg, type}`), malformed JSON
// (400), unknown routes (404), the database unable to serve (503 with Retry-After), and anything
// unexpected (500, logged, never a stack trace in the body). Messages follow the caller's locale;
// every error body carries the request's id (`request_id`, the answer's X-Request-Id), for a
// client to quote.
import type { ZodType, z } from "zod";
import { unavailability } from "../db";
import { AppError, nulItems, RateLimited, ValidationFailed } from "../lib/errors";
import { type Locale, t, zodErrorMap } from "../lib/i18n";
import { MESSAGES, type MessageCode } from "../lib/i18n/messages";
import { PAGE_TEXTS } from "../lib/i18n/pages";
import { privatePageHeaders } from "../lib/cards/web";
import { messagePage } from "../lib/html/layout";

export type ValidationItem = { loc: (string | number)[]; msg: string; type: string };

const LOC: Record<string, string> = { params: "path", query: "query", body: "body", headers: "header" };

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

function internalAnswer(locale: Locale, err: unknown): ErrorAnswer {
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

function answer({ status, body, headers }: ErrorAnswer, requestId?: string): Response {
  return json(status, withRequestId(body, requestId), headers);
}

export function appErrorResponse(err: AppError, locale: Locale, requestId?: string): Response {
  return answer(errorAnswer(err, locale), requestId);
}

export function internalError(locale: Locale, err: unknown, requestId?: string): Response {
  return answer(internalAnswer(locale, err), requestId);
}

type ElysiaErrorInput = {
  code: string | number;
  error: unknown;
  locale: Locale;
  path: string;
  method: string;
  requestId?: string;
  /** The route answers a person (RouteSpec.page): the refusal is a page (pageErrorResponse). */
  page?: boolean;
};

/** Maps what Elysia's onError receives. */
export function elysiaErrorResponse(input: ElysiaErrorInput): Response {
  const found = elysiaErrorAnswer(input);
  return input.page ? pageResponse(found, input.locale, input.requestId) : answer(found, input.requestId);
}

function elysiaErrorAnswer({ code, error, locale, path, method, page }: ElysiaErrorInput): ErrorAnswer {
  if (error instanceof AppError) return errorAnswer(error, locale);
  if (code === "VALIDATION") {
    const e = error as { type?: string; value?: unknown; validator?: { schema?: ZodType } };
    // A response that fails its own schema is our bug, not the caller's.
    if (e.type === "response" || !e.validator?.schema) return internalAnswer(locale, error);
    // A page's address that does not decode, or that its route cannot take, names no page.
    if (page && e.type === "params") return errorAnswer(new AppError(404, "NOT_FOUND"), locale);
    const items = zodIssues(e.validator.schema, e.value, LOC[e.type ?? "body"] ?? "body", locale);
    const found = items.length ? items : [{ loc: [LOC[e.type ?? "body"] ?? "body"], msg: t(locale, "VALIDATION_FAILED"), type: "invalid" }];
    return { status: 422, body: validationBody(found), headers: {} };
  }
  // A page's body is a form, not JSON.
  if (code === "PARSE") return errorAnswer(new AppError(400, page ? "MALFORMED_FORM" : "MALFORMED_BODY"), locale);
  if (code === "NOT_FOUND") return { status: 404, body: { detail: t(locale, "ROUTE_NOT_FOUND", { method, path }), code: "ROUTE_NOT_FOUND" }, headers: {} };
  return internalAnswer(locale, error);
}

/**
 * A refusal on a route that answers a person (RouteSpec.page: the member's page, the join and
 * event pages, the web card) as a short page in `locale`, with the status and headers of the API's
 * answer: its detail in words, or for a 404 the page-not-found page. Never the API's JSON.
 */
export function pageErrorResponse(err: unknown, locale: Locale, requestId?: string): Response {
  return pageResponse(errorAnswer(err, locale), locale, requestId);
}

function pageResponse({ status, body, headers }: ErrorAnswer, locale: Locale, requestId?: string): Response {
  const tx = PAGE_TEXTS[locale];
  const detail = typeof body.detail === "string" ? body.detail : body.detail.map((i) => i.msg).join(" ");
  const html = status === 404 ? messagePage(locale, tx.notFoundTitle, tx.notFoundText) : messagePage(locale, tx.refusedTitle, detail);
  return new Response(html, {
    status,
    headers: { ...privatePageHeaders(), ...headers, "content-type": "text/html; charset=utf-8", ...(requestId ? { "x-request-id": requestId } : {}) },
  });
}
