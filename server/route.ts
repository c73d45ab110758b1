// How a route file declares its methods: summary, auth, scope, schemas, and a handler of a few
// lines that builds the context, calls one lib/ verb and returns its result. The loader
// (server/loader.ts) mounts each file at the URL its path mirrors.
import { z, type ZodObject, type ZodType } from "zod";
import type { Ctx, PublicCtx } from "../lib/context";
import type { Needs } from "../lib/access";
import type { AddressRate } from "../lib/ratelimit";

/**
 * `key`: an API key or a dashboard session (the default); `session`: a dashboard session only
 * (a key gets 403); `superadmin`: a superadmin's session; `public`: no credentials.
 */
export type Auth = "key" | "session" | "superadmin" | "public";

type Infer<T> = T extends ZodType ? z.output<T> : undefined;
/** Path parameters are always there, validated as UUIDs (`*_id`) or strings when not declared. */
type InferParams<T> = T extends ZodType ? z.output<T> : Record<string, string>;

export type HandlerInput<P, Q, B, A extends Auth = "key"> = {
  /** The caller's context; a public route's has no caller but the client's address. */
  ctx: A extends "public" ? PublicCtx : Ctx;
  params: InferParams<P>;
  query: Infer<Q>;
  body: Infer<B>;
  request: Request;
  set: { status?: number | string; headers: Record<string, string | number> };
};

export type RouteSpec<
  P extends ZodObject | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  A extends Auth = "key",
> = {
  summary: string;
  /** The OpenAPI operationId, where the one derived from the method and path reads badly (server/openapi.ts). */
  operationId?: string;
  description?: string;
  tags: string[];
  auth?: A;
  /**
   * Requests a minute per client address, counted before the handler (after the input is
   * validated) over every route of the same `scope`; 429 RATE_LIMITED with Retry-After beyond.
   */
  rateLimit?: AddressRate;
  /** Checked before the body is validated, and again by the lib/ verb itself (several: all needed). */
  scope?: Needs;
  params?: P;
  query?: Q;
  body?: B;
  /** Success status (default 200) and its schema (for a `raw` route, the schema of its `application/json` file). */
  status?: number;
  response?: ZodType;
  /** Statuses of business refusals this route may answer, for the description (409, 502...). */
  errors?: number[];
  /** Part of the SPEC's stable subset. */
  stable?: boolean;
  /** Left out of the OpenAPI description. */
  hidden?: boolean;
  /**
   * An `ALL` route's methods that it answers, for `Allow` and CORS: the others still reach its
   * handler (signed in and audited) to be refused there. Absent: every method.
   */
  answers?: string[];
  /**
   * Answers something other than JSON (a file, a page, a redirect): the handler returns a lib/
   * reply (lib/reply.ts, turned into the HTTP answer by http/reply.ts) or a Response, and the
   * answer is not schema-checked.
   */
  raw?: boolean;
  /**
   * Answers a person's browser (the member's page, the join and event pages, the web card): a
   * refusal before the handler (a form that cannot be read, an address that does not decode, a
   * body too large, the rate) is a short page in the visitor's language, not the API's JSON.
   */
  page?: boolean;
  /**
   * The request body of a route that reads it raw (`bytes`, `text`: a CSV file, an image, a
   * signed event), as the OpenAPI description's requestBody object: no zod schema describes it.
   */
  requestBody?: () => Record<string, unknown>;
  /** What a `raw` route answers, for the description: media type -> what the file holds. */
  files?: Record<string, string>;
  /**
   * The handler gets a `text/*` or `application/octet-stream` body as its bytes (a Uint8Array),
   * not as text decoded as UTF-8: a spreadsheet saved in another encoding is decoded by lib/.
   */
  bytes?: boolean;
  /** The handler gets the body as the exact text sent, whatever its type: a signature covers those bytes (the Stripe webhook). */
  text?: boolean;
  /**
   * The largest body this route reads, where it is more than MAX_BODY_BYTES (the logo upload):
   * the pipeline's cap for this route only. The lib/ verb keeps its own, exact, limit.
   */
  maxBodyBytes?: number;
  handler(input: HandlerInput<P, Q, B, A>): unknown;
};

export type AnyRoute = RouteSpec<ZodObject | undefined, ZodType | undefined, ZodType | undefined, Auth>;

export function route<
  P extends ZodObject | undefined = undefined,
  Q extends ZodType | undefined = undefined,
  B extends ZodType | undefined = undefined,
  A extends Auth = "key",
>(spec: RouteSpec<P, Q, B, A>): RouteSpec<P, Q, B, A> {
  return spec;
}

const REQUEST_ID = z.string().meta({ description: "The request's id, as in the answer's `X-Request-Id` header: quote it when reporting a problem." });

/** The shared error body (DESIGN.md section 5). */
export const ErrorResponse = z
  .object({
    detail: z.string().meta({ description: "What went wrong, in the club's language." }),
    code: z.string().meta({ description: "Stable, English, UPPER_SNAKE." }),
    request_id: REQUEST_ID,
  })
  .meta({ id: "ErrorResponse" });

export const ValidationErrorItem = z
  .object({ loc: z.array(z.union([z.string(), z.int()])), msg: z.string(), type: z.string() })
  .meta({ id: "ValidationErrorItem" });

export const ValidationErrorResponse = z
  .object({ detail: z.array(ValidationErrorItem), code: z.literal("VALIDATION_FAILED"), request_id: REQUEST_ID })
  .meta({ id: "ValidationErrorResponse" });
