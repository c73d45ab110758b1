// Typed errors thrown by lib/ verbs. Each carries a stable UPPER_SNAKE `code` (its message in
// each language lives in lib/i18n/messages.ts) and the HTTP status it maps to. http/errors.ts
// turns them into HTTP answers and server/mcp.ts into MCP tool errors; lib/ knows neither.
import type { Params } from "./i18n";
import type { Locale, MessageCode } from "./i18n/messages";

export type { Params };

export class AppError extends Error {
  /**
   * The language of the club the refusal is about, set on public routes (whose caller has no
   * club) once the club is known: SPEC "errors ... in the club's language". Else the caller's.
   */
  clubLocale?: Locale;

  constructor(
    readonly status: number,
    readonly code: MessageCode,
    readonly params: Params = {},
  ) {
    super(code);
    this.name = new.target.name;
  }
}

export class BadRequest extends AppError {
  constructor(code: MessageCode = "MALFORMED_BODY", params?: Params) {
    super(400, code, params);
  }
}
export class Unauthorized extends AppError {
  constructor(code: MessageCode = "UNAUTHORIZED", params?: Params) {
    super(401, code, params);
  }
}
export class Forbidden extends AppError {
  constructor(code: MessageCode = "FORBIDDEN", params?: Params) {
    super(403, code, params);
  }
}
export class NotFound extends AppError {
  constructor(code: MessageCode = "NOT_FOUND", params?: Params) {
    super(404, code, params);
  }
}
export class Conflict extends AppError {
  constructor(code: MessageCode, params?: Params) {
    super(409, code, params);
  }
}
export class PayloadTooLarge extends AppError {
  constructor(params?: Params) {
    super(413, "PAYLOAD_TOO_LARGE", params);
  }
}
export class RateLimited extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    code: MessageCode = "RATE_LIMITED",
  ) {
    super(429, code, { seconds: retryAfterSeconds });
  }
}
export class BadGateway extends AppError {
  constructor(code: MessageCode, params?: Params) {
    super(502, code, params);
  }
}

/** The service cannot do this now through no fault of the request (a wallet key it cannot read). */
export class ServiceUnavailable extends AppError {
  constructor(code: MessageCode, params?: Params) {
    super(503, code, params);
  }
}

/** One failed rule of an input, reported like a schema failure (422 `detail` item). */
export type Invalid = { loc: (string | number)[]; code: MessageCode; params?: Params };

/** A business-level validation failure (a rule no schema can state, such as ends_at > starts_at). */
/**
 * Every string of a request (a query, a JSON body, a tool's arguments) that holds a NUL (U+0000),
 * as refusals naming where: no text column may hold one (PostgreSQL refuses the statement
 * outright, which would be a 500), whatever field a schema lets through as free text.
 */
export function nulItems(value: unknown, loc: (string | number)[], depth = 0): Invalid[] {
  if (typeof value === "string") return value.includes("\u0000") ? [{ loc, code: "TEXT_CONTROL_CHARACTER" }] : [];
  if (!value || typeof value !== "object" || depth > 32 || value instanceof Uint8Array) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => [
    ...(typeof k === "string" && k.includes("\u0000") ? [{ loc: [...loc, k], code: "TEXT_CONTROL_CHARACTER" as const }] : []),
    ...nulItems(v, [...loc, k], depth + 1),
  ]);
}

export class ValidationFailed extends AppError {
  /** `code`: the body's `code`, VALIDATION_FAILED unless one rule names the refusal (WEBHOOK_URL_NOT_ALLOWED). */
  constructor(
    readonly items: Invalid[],
    code: MessageCode = "VALIDATION_FAILED",
  ) {
    super(422, code);
  }
}

/**
 * Runs `fn`; a refusal it throws once `locale()` knows the club's language is told in it. For
 * public routes, which learn the club from what they look up (an event, a card).
 */
export async function inClubLanguage<T>(locale: () => Locale | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const known = locale();
    if (err instanceof AppError && known && !err.clubLocale) err.clubLocale = known;
    throw err;
  }
}

/**
 * A refusal at an OAuth endpoint (DESIGN.md section 17): answered in OAuth's own shape
 * `{error, error_description}` (RFC 6749 section 5.2), the one exception to section 5, by the
 * OAuth routes (server/oauth.ts). `error` is OAuth's registered code; the description is English,
 * read by a client's developer.
 */
export class OAuthRefused extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
    this.name = "OAuthRefused";
  }
}
