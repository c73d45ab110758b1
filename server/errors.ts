// The API's errors as HTTP answers: a typed lib/ error, what Elysia's onError receives (a schema
// failure, malformed JSON (400), an unknown route (404)), and a refusal on a route that answers a
// person, as a page. Each maps through the one answer of http/errors.ts.
import type { ZodType } from "zod";
import { AppError } from "../lib/errors";
import { type Locale, t } from "../lib/i18n";
import { PAGE_TEXTS } from "../lib/i18n/pages";
import { privatePageHeaders } from "../lib/cards/web";
import { messagePage } from "../lib/html/layout";
import { type ErrorAnswer, errorAnswer, internalAnswer, json, validationBody, withRequestId, zodIssues } from "../http/errors";

const LOC: Record<string, string> = { params: "path", query: "query", body: "body", headers: "header" };
const FORM_TYPE = /^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;

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
  /** The request's Content-Type: a body that does not parse is a form's or JSON's. */
  contentType?: string | null;
};

/** Maps what Elysia's onError receives. */
export function elysiaErrorResponse(input: ElysiaErrorInput): Response {
  const found = elysiaErrorAnswer(input);
  return input.page ? pageResponse(found, input.locale, input.requestId) : answer(found, input.requestId);
}

function elysiaErrorAnswer({ code, error, locale, path, method, page, contentType }: ElysiaErrorInput): ErrorAnswer {
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
  // A page's body is a form, not JSON; so is an upload's (multipart) on an API route.
  if (code === "PARSE") return errorAnswer(new AppError(400, page || FORM_TYPE.test(contentType ?? "") ? "MALFORMED_FORM" : "MALFORMED_BODY"), locale);
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
