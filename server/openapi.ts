// The OpenAPI 3.1 description, generated from the mounted routes and the same zod schemas that
// validate requests (drawn by server/openapi-schemas.ts); the docs page that reads it is
// server/docs.ts.
import { type ZodType, z } from "zod";
import { scopeList } from "../lib/access";
import { TITLE } from "./docs";
import { errorSchemas, type MountedRoute } from "./loader";
import { buildSchemas, cleanup, type Io, JSON_SCHEMA_OPTIONS, type Json } from "./openapi-schemas";
import { ErrorResponse, ValidationErrorResponse } from "./route";

const DESCRIPTION =
  "The API a club's spreadsheet, website, automation or AI assistant uses to run one club. Call `GET /api/auth/me` first: its `club_id` goes in every club route. Amounts are integer cents, dates ISO 8601 UTC, ids UUIDs. Errors are JSON `{detail, code, request_id}`; validation errors (422) list `{loc, msg, type}` items. Every answer carries `X-Request-Id` (yours, if you send a sane one). A write (POST, PUT, PATCH, DELETE) sent with an `Idempotency-Key` runs once: sent again within 24 h, it gets the first answer back with `Idempotent-Replayed: true`. The same operations are MCP tools at `/mcp`.";

/** The tags, in the order a newcomer needs them: who am I, then the club's daily work, the dashboard's own routes last. */
const TAG_TEXT = {
  auth: "Who is calling: the first call, which gives the `club_id` every club route needs.",
  members: "Members: list, add, extend, record payments, suspend, export and import.",
  tiers: "Membership tiers (formulas and prices).",
  events: "Events, their tickets, registrations and check-in at the door.",
  "promo-codes": "Promo codes for memberships and events.",
  stats: "Member counts and revenue.",
  invoices: "Invoices to members: numbered, with a payment reference and a PDF carrying the Swiss QR-bill or an EPC QR code.",
  payments: "Payments received: import a bank statement, matched by creditor reference.",
  mailings: "Mailings to members: Markdown in the club's look, an audience, a preview, sent at a pace; opted-out and bounced members skipped and counted.",
  attendance: "Card scans over days and periods.",
  cards: "Membership cards: verifying a scanned card.",
  clubs: "The club's settings.",
  audit: "The audit log of every request made with a key.",
  webhooks: "Webhooks: tell other systems what changed (Standard Webhooks: signed, retried, never lost).",
  public: "Public event pages and registration (no credentials; outside the stable subset).",
  health: "For a supervisor, load balancer or uptime monitor: is the server up and its database readable.",
  account: "Dashboard only (sign-in, API keys, team, superadmin): a dashboard session token, API keys get 403.",
};
export const TAGS = Object.entries(TAG_TEXT).map(([name, description]) => ({ name, description }));

/** What each status means here (DESIGN.md section 5), for the response descriptions. */
const STATUS_TEXT: Record<number, string> = {
  200: "OK.",
  201: "Created.",
  202: "Accepted: queued, to be sent by the job queue.",
  204: "Done; the answer has no body.",
  400: "The body cannot be read as its `Content-Type` says (JSON that is not well-formed, a broken form).",
  401: "Not signed in: no key, or an unknown, revoked or expired key or session (sign-in: a wrong email or password).",
  403: "Forbidden; `code` says why (another club, a missing scope, a dashboard-only route called with a key...).",
  404: "No such object in this club.",
  409: "Refused by a business rule; `code` says which.",
  413: "The body is larger than the server accepts (1 MB by default).",
  422: "Validation failed: `detail` lists `{loc, msg, type}` items.",
  429: "Too many requests; wait `Retry-After` seconds.",
  502: "A service this route relies on (the mail server) refused.",
};

const PARAM_TEXT: Record<string, string> = {
  club_id: "Your club's id: `club_id` in the answer of `GET /api/auth/me`.",
  member_id: "A member's `id` (from the member list).",
  event_id: "An event's `id` (from the event list).",
  tier_id: "A tier's `id` (from the tier list).",
  key_id: "An API key's `id` (from the key list).",
  registration_id: "A registration's `id` (from the event's registrations).",
  promo_code_id: "A promo code's `id` (from the promo code list).",
  webhook_id: "A webhook endpoint's `id` (from the webhook list).",
  delivery_id: "A delivery's `id` (from the endpoint's delivery log).",
};

// ---- operationId ----

const ITEM_VERBS: Record<string, string> = { GET: "get", PUT: "update", PATCH: "update", DELETE: "delete" };
const COLLECTION_VERBS: Record<string, string> = { GET: "list", POST: "create" };
const pascal = (word: string) => word.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());
const singular = (word: string) => word.replace(/s$/, "");
const isParam = (segment?: string) => !!segment?.startsWith(":");
const isPlural = (segment?: string) => !!segment && !isParam(segment) && segment.endsWith("s");

/**
 * A readable camelCase verb from the method and path: `GET .../members` -> `listMembers`, `POST
 * .../events` -> `createEvent`, `PATCH .../events/:event_id` -> `updateEvent`, `GET
 * .../events/:event_id/registrations` -> `listEventRegistrations`, `POST .../members/:member_id/
 * actions/suspend` -> `suspendMember`, `GET .../members/export` -> `exportMembers`. The `/api`
 * prefix and the club (every club route has one) say nothing and are left out. A route whose
 * derived name reads badly declares its own `operationId`.
 */
export function deriveOperationId(method: string, path: string): string {
  const segments = path
    .replace(/^\/api(\/clubs\/:club_id)?/, "")
    .split("/")
    .filter((s) => s && s !== "actions");
  const last = segments.at(-1);
  const before = segments.at(-2);
  if (!last) return `${ITEM_VERBS[method] ?? method.toLowerCase()}Club`;
  if (isParam(last)) return `${ITEM_VERBS[method] ?? method.toLowerCase()}${pascal(singular(before ?? ""))}`;
  const owner = isParam(before) ? pascal(singular(segments.at(-3) ?? "")) : "";
  if (isPlural(last) && COLLECTION_VERBS[method]) {
    return `${COLLECTION_VERBS[method]}${owner}${pascal(method === "POST" ? singular(last) : last)}`;
  }
  const verb = pascal(last).replace(/^\w/, (c) => c.toLowerCase());
  if (owner) return `${verb}${owner}`;
  if (before) return `${verb}${pascal(before)}`;
  return `${method === "GET" ? "get" : method.toLowerCase()}${pascal(last)}`;
}

export const operationId = (route: MountedRoute) => route.spec.operationId ?? deriveOperationId(route.method, route.path);

// ---- the document ----

const jsonContent = (schema: Json, example?: unknown) => ({ "application/json": example === undefined ? { schema } : { schema, example } });
const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");
const METHOD_ORDER = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function operationDescription(route: MountedRoute): string {
  const { spec } = route;
  const auth = spec.auth ?? "key";
  const who =
    auth === "public"
      ? "No credentials."
      : auth === "session"
        ? "Dashboard session only: an API key gets 403."
        : auth === "superadmin"
          ? "A superadmin's dashboard session only: an API key gets 403."
          : spec.scope
            ? `Scope: ${scopeList(spec.scope)
                .map((s) => `\`${s}\``)
                .join(" and ")}.`
            : "Any valid key.";
  return [spec.description, who].filter(Boolean).join("\n\n");
}

/**
 * The first example declared on a request shape (`.meta({ examples: [...] })`), which "Try it
 * out" sends as is. Read from the shape itself: zod leaves examples out of the input side of a
 * shape that transforms (ClubUpdate).
 */
const exampleOf = (body: ZodType): unknown => (z.globalRegistry.get(unwrapOptional(body))?.examples as unknown[] | undefined)?.[0];

/** The shape inside an optional body (`Shape.optional()`: the route also takes no body at all). */
const unwrapOptional = (body: ZodType): ZodType => (body instanceof z.ZodOptional ? (body.unwrap() as ZodType) : body);

function parametersOf(route: MountedRoute): Json[] {
  const out: Json[] = [];
  const add = (schema: ZodType | undefined, where: "path" | "query") => {
    if (!schema) return;
    // Parameters keep their defaults: a generated client leaves them optional, Swagger UI pre-fills them.
    const json = cleanup(z.toJSONSchema(schema, { ...JSON_SCHEMA_OPTIONS, io: "input" }), (id) => id);
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries((json.properties as Record<string, Json> | undefined) ?? {})) {
      const { description, ...schema } = prop;
      const text = description ?? PARAM_TEXT[name];
      out.push({ name, in: where, required: where === "path" || required.has(name), ...(text ? { description: text } : {}), schema });
    }
  };
  add(route.params, "path");
  add(route.spec.query, "query");
  return out;
}

// ---- Idempotency-Key and X-Request-Id (DESIGN.md section 12) ----

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** A write by a caller: it takes an Idempotency-Key. */
const takesIdempotencyKey = (route: MountedRoute) => WRITES.has(route.method) && (route.spec.auth ?? "key") !== "public";
const PARAMETER_REF = "#/components/parameters/";
const HEADER_REF = "#/components/headers/";
/** A keyed write's 422: the body's validation, a malformed Idempotency-Key, or the key reused for another request. */
const Refused422 = z.union([ValidationErrorResponse, ErrorResponse]);

const REQUEST_ID_TEXT =
  "The request's id: yours if you sent a sane one (1 to 128 visible ASCII characters, no quote), else a new UUID. Error bodies carry it as `request_id`, and the audit log as `request_id`.";
const PARAMETERS = {
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes the write safe to retry: kept 24 h per key (API key or dashboard session), with the method, path and SHA-256 of the body. The same request again gets the first answer back (`Idempotent-Replayed: true`) and does nothing; another request under the same key is 422 `IDEMPOTENCY_KEY_REUSED`; while the first still runs, 409 `IDEMPOTENCY_KEY_IN_USE`; once the first answer named a member erased since, 409 `IDEMPOTENCY_ANSWER_ERASED` (it was done and is not done again; its answer is gone). A write and its kept answer commit together: a retry after a crash or a lost connection finds both or neither. Not kept, so the key may be retried: 400, 422 `VALIDATION_FAILED`, 429 and 5xx answers (503 `KEYED_WRITE_UNDONE`: part of the write met a change made at the same time, and nothing of it was kept). A UUID per operation does well.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
  },
  RequestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description:
      "Your id for this request (1 to 128 visible ASCII characters, no quote), echoed in the answer's `X-Request-Id`; otherwise the server makes one.",
    schema: { type: "string", minLength: 1, maxLength: 128 },
  },
};
const HEADERS = {
  RequestId: { description: REQUEST_ID_TEXT, schema: { type: "string" } },
  IdempotentReplayed: {
    description: "`true` when this is the kept answer of an earlier request with the same `Idempotency-Key` (nothing was done again). Absent otherwise.",
    schema: { type: "string", enum: ["true"] },
  },
};

/** Headers of every answer of `route`. */
function answerHeaders(route: MountedRoute): Json {
  return {
    "X-Request-Id": { $ref: `${HEADER_REF}RequestId` },
    ...(takesIdempotencyKey(route) ? { "Idempotent-Replayed": { $ref: `${HEADER_REF}IdempotentReplayed` } } : {}),
  };
}

/**
 * Error answers beyond the route's own: a body it reads may be malformed (400); any request that
 * may carry a body may send one too large (413: the cap counts every body, read or not); a keyed
 * write's key refused (409, 422).
 */
function allErrors(route: MountedRoute): Record<number, ZodType> {
  const errors = errorSchemas(route.spec, route.path, route.params);
  if (route.spec.body || route.spec.requestBody) errors[400] = ErrorResponse;
  if (route.method !== "GET" && route.method !== "HEAD") errors[413] = ErrorResponse;
  if (takesIdempotencyKey(route)) {
    errors[409] ??= ErrorResponse;
    errors[422] = Refused422;
  }
  return errors;
}

/** A status's description; a keyed write's 409 and 422 also name the Idempotency-Key refusals. */
function statusText(route: MountedRoute, status: number): string {
  const text = STATUS_TEXT[status] ?? "Refused.";
  if (!takesIdempotencyKey(route)) return text;
  const inUse =
    "`IDEMPOTENCY_KEY_IN_USE`: a request with the same `Idempotency-Key` is still running. `IDEMPOTENCY_ANSWER_ERASED`: it was done, and its answer named a member erased since.";
  // A route no business rule refuses with a 409 says only that.
  if (status === 409) return errorSchemas(route.spec, route.path, route.params)[409] ? `${text} ${inUse}` : inUse;
  if (status === 422) return `${text} \`IDEMPOTENCY_KEY_REUSED\` (\`{detail, code}\`): the \`Idempotency-Key\` was used for another request.`;
  return text;
}

function responsesOf(route: MountedRoute, convert: (s: ZodType, io: Io) => Json): Json {
  const { spec } = route;
  const status = spec.status ?? 200;
  const out: Json = {};
  if (spec.files) {
    out[status] = {
      description: Object.values(spec.files).join(" "),
      // A file that is JSON is drawn with the route's response schema, when it names one.
      content: Object.fromEntries(
        Object.keys(spec.files).map((type) => [
          type,
          { schema: type === "application/json" && spec.response ? convert(spec.response, "output") : { type: "string", contentMediaType: type } },
        ]),
      ),
    };
  } else {
    out[status] = { description: STATUS_TEXT[status] ?? "OK.", ...(spec.response ? { content: jsonContent(convert(spec.response, "output")) } : {}) };
  }
  for (const [code, schema] of Object.entries(allErrors(route))) {
    out[code] = {
      description: statusText(route, Number(code)),
      ...(code === "429" ? { headers: { "Retry-After": { description: "Seconds to wait before the next request.", schema: { type: "integer" } } } } : {}),
      content: jsonContent(convert(schema, "output")),
    };
  }
  for (const answer of Object.values(out) as Json[]) answer.headers = { ...answerHeaders(route), ...(answer.headers as Json | undefined) };
  return out;
}

/**
 * The OpenAPI document of the visible routes. Operations come tag by tag in the order of TAGS,
 * then from the shortest path, so that the page reads like a tour: list, create, one, act.
 */
export function buildOpenApiDocument(routes: MountedRoute[], baseUrl: string): Json {
  const tagRank = (r: MountedRoute) => {
    const i = TAGS.findIndex((t) => t.name === r.spec.tags[0]);
    return i < 0 ? TAGS.length : i;
  };
  const visible = routes
    .filter((r) => !r.spec.hidden)
    .sort(
      (a, b) =>
        tagRank(a) - tagRank(b) ||
        a.path.split("/").length - b.path.split("/").length ||
        a.path.localeCompare(b.path) ||
        METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
    );
  const inputs = visible.flatMap((r) => (r.spec.body ? [r.spec.body] : []));
  const outputs = visible.flatMap((r) => [...(r.spec.response ? [r.spec.response] : []), ...Object.values(allErrors(r))]);
  const { components, convert } = buildSchemas(inputs, outputs);

  const paths: Record<string, Json> = {};
  for (const route of visible) {
    const { spec } = route;
    const operation: Json = {
      operationId: operationId(route),
      summary: spec.summary,
      description: operationDescription(route),
      tags: spec.tags,
      security: (spec.auth ?? "key") === "public" ? [] : [{ bearer: [] }],
    };
    const parameters = [
      ...parametersOf(route),
      ...(takesIdempotencyKey(route) ? [{ $ref: `${PARAMETER_REF}IdempotencyKey` }] : []),
      { $ref: `${PARAMETER_REF}RequestId` },
    ];
    operation.parameters = parameters;
    if (route.spec.requestBody) operation.requestBody = route.spec.requestBody();
    else if (spec.body)
      operation.requestBody = {
        required: !(spec.body instanceof z.ZodOptional),
        content: jsonContent(convert(unwrapOptional(spec.body), "input"), exampleOf(spec.body)),
      };
    operation.responses = responsesOf(route, convert);
    if (spec.stable) operation["x-stable"] = true;
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }

  return {
    openapi: "3.1.1",
    info: { title: TITLE, version: "1.0", description: DESCRIPTION },
    servers: [{ url: baseUrl, description: "This server" }],
    tags: TAGS,
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API key (`mk_live_...`), or a dashboard session token for the account routes." },
      },
      schemas: components,
      parameters: PARAMETERS,
      headers: HEADERS,
    },
  };
}
