// The MCP endpoint (Streamable HTTP, stateless, POST only): a new server and transport per
// request, the caller handed over as `authInfo`, the tools, resources and prompts of lib/mcp
// listed and served here. Every refusal of a tool, arguments included, comes back as an `isError`
// result carrying the `{detail, code}` body the HTTP API gives for the same error, in the
// caller's language; a refused resource read or prompt is a JSON-RPC error carrying that body.
// A write tool (not `readOnlyHint`) takes an optional `idempotency_key`: the same call again
// gets the first result back and does nothing (lib/idempotency, as the HTTP header does).
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  type GetPromptResult,
  type HandlerResultTypeMap,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  type RequestTypeMap,
  type ServerContext,
  Server,
  specTypeSchemas,
  type Tool,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { ZodObject, z } from "zod";
import { type Caller, hasScope, requireScope, scopeList } from "../lib/access";
import { type Ctx, type Progress, throttledProgress } from "../lib/context";
import { AppError, Forbidden } from "../lib/errors";
import { t } from "../lib/i18n";
import { CLUB_SCHEME, INSTRUCTIONS, PROMPTS, type PromptDef, RESOURCES, type ResourceDef, resourceUri, TOOLS } from "../lib/mcp";
import type { ToolDef } from "../lib/mcp/tool";
import { idempotencyStore, KEY_MAX, KEY_PATTERN, type KeptAnswer, keepsAnswer, keyedWrite, sha256Hex } from "../lib/idempotency";
import { keyOwner } from "./idempotency";
import { complete } from "./mcp-complete";
import { answersObject, inputSchema, outputSchema } from "./mcp-schema";
import { type ErrorBody, errorAnswer, json, parseInput, validationBody, withRequestId } from "../http/errors";
import { answerTasks, answerTasksV2, declaresTasks, startTask, TASKS_CAPABILITY, TASKS_EXTENSION, taskCreated } from "./mcp-tasks";
import { getState } from "./state";

/**
 * A JSON-RPC error. The SDK's McpError writes "MCP error <code>: " into the message, which its
 * client then writes again. A refusal outside a tool call (a resource read, a prompt) has the
 * answer's `detail` in the caller's language as message, the HTTP answer's status and body as data.
 * Codes: -32602 (invalid params) for a 422 and for a 404 (the revision of 2026-07-28 answers a
 * resource not found so on every revision; the SDK turns a -32002 into it and drops its data),
 * -32603 for our own failure, -32600 (invalid request) for any other refusal (403, 409...).
 */
class Refused extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const BY_NAME = new Map<string, ToolDef>(TOOLS.map((def) => [def.name, def]));

/** A tool that changes something: it takes an `idempotency_key`. */
const isWrite = (def: ToolDef) => def.annotations.readOnlyHint !== true;

const IDEMPOTENCY_KEY_SCHEMA = {
  type: "string",
  minLength: 1,
  maxLength: KEY_MAX,
  description:
    "Optional. Makes the call safe to retry: the same call (same tool, same arguments) with the same key within 24 h returns the first result and does nothing again; other arguments under the same key are refused (IDEMPOTENCY_KEY_REUSED), as is a call while the first still runs (IDEMPOTENCY_KEY_IN_USE), and one whose first result named a member erased since (IDEMPOTENCY_ANSWER_ERASED: it was done; it is not done again). A fresh UUID per intended change does well.",
};

const CONFIRM_SCHEMA = {
  type: "boolean",
  description:
    "true once the user has confirmed this very call. Without it (and unless the client confirms through the protocol), nothing is done: the answer is CONFIRMATION_REQUIRED with the question to put to the user and what the call would do (`would`).",
};

let listed: Map<ToolDef, Tool> | undefined;
/** A tool as `tools/list` shows it, made once, as McpServer.registerTool would show it. */
function listedTool(def: ToolDef): Tool {
  listed ??= new Map(
    TOOLS.map((def) => {
      const schema = inputSchema(def.input);
      if (isWrite(def)) schema.properties = { ...(schema.properties as Record<string, unknown>), idempotency_key: IDEMPOTENCY_KEY_SCHEMA };
      if (def.confirm) schema.properties = { ...(schema.properties as Record<string, unknown>), confirm: CONFIRM_SCHEMA };
      const tool: Tool = {
        name: def.name,
        title: def.title,
        description: def.description,
        inputSchema: schema,
        outputSchema: outputSchema(def.output),
        annotations: def.annotations,
        execution: { taskSupport: def.task ? "optional" : "forbidden" },
      };
      return [def, tool];
    }),
  );
  return listed.get(def) as Tool;
}

/** Whether the caller holds what the tool's verb needs. */
const allows = (actor: Caller, def: ToolDef) => scopeList(def.scope ?? undefined).every((scope) => hasScope(actor.scopes, scope));

/** The tools the caller may call (its key's or token's scopes), no others. */
const listedTools = (actor: Caller): Tool[] => TOOLS.filter((def) => allows(actor, def)).map(listedTool);

function refusal(body: ErrorBody & { would?: unknown }, request: Request): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(withRequestId(body, getState(request)?.requestId)) }] };
}

/** JSON with every object's keys sorted: the same arguments hash the same whatever their order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

/**
 * Runs a write tool under its `idempotency_key` (none: just runs it). Kept like an HTTP answer:
 * a result or a business refusal, not a validation refusal or our own failure (a retry may fix
 * those). The tool runs on a `KeyedWrite`'s database: its result is kept in the transaction of
 * its write (a crash leaves both or neither); a refusal undoes what it wrote and is kept apart.
 * A replay is the first result, marked in `_meta`.
 */
async function underKey(
  ctx: Ctx,
  request: Request,
  def: ToolDef,
  args: Record<string, unknown>,
  run: (ctx: Ctx, args: Record<string, unknown>) => Promise<ToolOutcome>,
) {
  const { idempotency_key: key, ...rest } = args;
  if (key === undefined || !isWrite(def)) return (await run(ctx, rest)).result;
  if (typeof key !== "string" || !KEY_PATTERN.test(key)) {
    const items = [{ loc: ["body", "idempotency_key"], msg: t(ctx.locale, "IDEMPOTENCY_KEY_INVALID", { max: KEY_MAX }), type: "idempotency_key_invalid" }];
    return refusal(validationBody(items), request);
  }
  const store = idempotencyStore(ctx.db);
  let claim: Awaited<ReturnType<typeof store.claim>>;
  try {
    claim = await store.claim(keyOwner(ctx.actor), key, { clubId: ctx.clubId, method: "MCP", path: def.name, hash: sha256Hex(canonical(rest)) });
  } catch (err) {
    return refusal(errorAnswer(err, ctx.locale).body, request);
  }
  if (claim.kind === "replay") return replayOf(claim.answer);
  const { running } = claim;
  const { write, replacedBy } = keyedWrite(ctx.db, running);
  let outcome: ToolOutcome;
  try {
    outcome = await run({ ...ctx, db: write.db }, rest);
  } catch (err) {
    const first = await replacedBy(true);
    if (first) return replayOf(first);
    await write.rollback().finally(running.release);
    throw err;
  }
  // The same key ran in another process at the same moment and kept its answer: that one is the answer.
  const first = await replacedBy(outcome.status >= 400);
  if (first) return replayOf(first);
  const kept = keepsAnswer(outcome.status, outcome.code)
    ? { status: outcome.status, headers: {}, body: new TextEncoder().encode(JSON.stringify(outcome.result)) }
    : null;
  try {
    if (outcome.status < 400) {
      await write.commit(kept ? (t) => running.writeDone(t, kept) : undefined);
      running.release();
    } else {
      await write.rollback();
      if (kept) await store.keep(running, kept);
      else running.release();
    }
  } catch (err) {
    running.release();
    return refusal(errorAnswer(err, ctx.locale).body, request);
  }
  return outcome.result;
}

/** A kept tool result, marked as a replay. */
function replayOf(answer: KeptAnswer): CallToolResult {
  const kept = JSON.parse(new TextDecoder().decode(answer.body)) as CallToolResult;
  return { ...kept, _meta: { ...kept._meta, idempotent_replayed: true } };
}

/** A tool's result, with the HTTP status it stands for (200, or its refusal's) for the idempotency store. */
type ToolOutcome = { result: CallToolResult | InputRequiredResult; status: number; code?: string };

/** Notifications a second apart at most (an import reports every 50 lines), and the last one always. */
const PROGRESS_EVERY_MS = 1_000;

/**
 * Where a long tool reports how far it has come: `notifications/progress` with the call's
 * progress token (none asked: no reports), so the answer becomes an event stream.
 */
function progressOf(req: ServerContext["mcpReq"]): Progress | undefined {
  const progressToken = req._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return throttledProgress((done, total) => {
    req.notify({ method: "notifications/progress", params: { progressToken, progress: done, total } }).catch(() => {});
  }, PROGRESS_EVERY_MS);
}

/** The key of the confirmation asked through the protocol (an input request of 2026-07-28). */
const CONFIRM_INPUT = "confirm";

/** Whether the call's client can be asked through the protocol: a 2026-07-28 client that declared elicitation. */
function canAsk(req: ServerContext["mcpReq"]): boolean {
  const envelope = req.envelope as Record<string, { elicitation?: unknown } | undefined> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return !!capabilities?.elicitation;
}

/**
 * The answer of a tool that asks before it acts and was not confirmed: an input request where the
 * client can answer one (and has not declined it already), else the refusal with the question and
 * what the call would do. Nothing is changed either way.
 */
async function unconfirmed(ctx: Ctx, request: Request, def: ToolDef, input: Record<string, unknown>, req: ServerContext["mcpReq"]): Promise<ToolOutcome> {
  const confirmation = def.confirm as NonNullable<ToolDef["confirm"]>;
  const would = await confirmation.preview(ctx, input);
  const question = confirmation.question(ctx, input, would);
  if (canAsk(req) && inputResponse(req.inputResponses, CONFIRM_INPUT).kind === "missing") {
    const requestedSchema = { type: "object" as const, properties: { confirm: { type: "boolean" as const, title: question } }, required: ["confirm"] };
    return { result: inputRequired({ inputRequests: { [CONFIRM_INPUT]: inputRequired.elicit({ message: question, requestedSchema }) } }), status: 428 };
  }
  const { status, body } = errorAnswer(new AppError(428, "CONFIRMATION_REQUIRED", { question }), ctx.locale);
  return { result: refusal({ ...body, would }, request), status, code: body.code };
}

/** Whether the user confirmed: `confirm: true`, or an accepted input request answering yes. */
function confirmedBy(args: Record<string, unknown>, req: ServerContext["mcpReq"]): boolean {
  if (args.confirm === true) return true;
  const answer = inputResponse(req.inputResponses, CONFIRM_INPUT);
  return answer.kind === "elicit" && answer.action === "accept" && answer.content?.confirm === true;
}

/**
 * The checks before a tool runs: its scope (before the arguments, as an HTTP route refuses before
 * reading the body), its arguments parsed with its own zod schema (not by the SDK, whose refusal is
 * English text: a failure is the HTTP 422 body, items under `body`, since a tool's arguments are
 * its request body), and the user's confirmation for a tool that asks first. Either the input to
 * run with, or the answer refusing (or asking).
 */
async function checked(
  ctx: Ctx,
  request: Request,
  def: ToolDef,
  rest: Record<string, unknown>,
  confirmed: boolean,
  req: ServerContext["mcpReq"],
): Promise<{ input: Record<string, unknown> } | { outcome: ToolOutcome }> {
  try {
    requireScope(ctx.actor, ...scopeList(def.scope ?? undefined));
    const input = parseInput(def.input, rest, "body", ctx.locale);
    if (!input.success) return { outcome: { result: refusal(validationBody(input.items), request), status: 422, code: "VALIDATION_FAILED" } };
    if (!confirmed && !def.confirm?.needless?.(input.data)) return { outcome: await unconfirmed(ctx, request, def, input.data, req) };
    return { input: input.data };
  } catch (err) {
    const { status, body } = errorAnswer(err, ctx.locale);
    return { outcome: { result: refusal(body, request), status, code: body.code } };
  }
}

/**
 * Runs one tool. A refusal of the verb is the HTTP answer's body. A tool that asks first runs only
 * confirmed; `confirm` is not part of the call's identity (its idempotency key's arguments).
 * A long tool asked to run as a task (`task`) is answered with the task once checked and
 * confirmed (an unconfirmed call is never a task), and runs on in the background (server/mcp-tasks.ts).
 */
async function callTool(
  ctx: Ctx,
  request: Request,
  name: string,
  args: Record<string, unknown> | undefined,
  req: ServerContext["mcpReq"],
  task?: { ttl?: number; modern?: boolean },
  progress: Progress | undefined = progressOf(req),
): Promise<CallToolResult | InputRequiredResult> {
  const def = BY_NAME.get(name);
  if (!def) throw new Refused(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const state = getState(request);
  if (state) state.tool = def.name;
  const { confirm: _, ...call } = args ?? {};
  const confirmed = !def.confirm || confirmedBy(args ?? {}, req);
  // 2025-11-25: a task asked of a tool that forbids it is refused; 2026-07-28: such a tool just runs.
  if (task && !def.task && !task.modern) throw new Refused(ProtocolErrorCode.MethodNotFound, `${def.name} does not run as a task`);
  if (task && def.task) {
    const { idempotency_key: __, ...rest } = call;
    const check = await checked(ctx, request, def, rest, confirmed, req);
    if ("outcome" in check) return check.outcome.result;
    const run = (progress: Progress) => callTool(ctx, request, name, { ...call, confirm: true }, req, undefined, progress) as Promise<CallToolResult>;
    return taskCreated(await startTask(ctx, def.name, task.ttl, run), !!task.modern) as CallToolResult;
  }
  return underKey(ctx, request, def, call, async (ctx, rest) => {
    const check = await checked(ctx, request, def, rest, confirmed, req);
    if ("outcome" in check) return check.outcome;
    try {
      const result = await def.run(ctx, check.input, progress);
      const structured = answersObject(def.output) ? (result as Record<string, unknown>) : { result };
      const links = (def.links?.(ctx, result) ?? []).map((link) => ({ type: "resource_link" as const, ...link }));
      return { result: { content: [{ type: "text", text: JSON.stringify(result) }, ...links], structuredContent: structured }, status: 200 };
    } catch (err) {
      const { status, body } = errorAnswer(err, ctx.locale);
      return { result: refusal(body, request), status, code: body.code };
    }
  });
}

function refused(status: number, body: ErrorBody, locale: Ctx["locale"]): Refused {
  const code =
    status === 422 || status === 404 ? ProtocolErrorCode.InvalidParams : status >= 500 ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidRequest;
  const message = typeof body.detail === "string" ? body.detail : t(locale, "VALIDATION_FAILED");
  return new Refused(code, message, { status, ...body });
}

/** Serves a resource or a prompt, a refusal (a lib/ error included) turned into a JSON-RPC error. */
async function orRefused<T>(ctx: Ctx, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof Refused || err instanceof ProtocolError) throw err;
    const { status, body } = errorAnswer(err, ctx.locale);
    throw refused(status, body, ctx.locale);
  }
}

/** Parses a resource's query or a prompt's arguments; a failure is the HTTP 422 body. */
function parsed<S extends ZodObject>(ctx: Ctx, schema: S, value: unknown, where: string): z.output<S> {
  const input = parseInput(schema, value, where, ctx.locale);
  if (!input.success) throw refused(422, validationBody(input.items), ctx.locale);
  return input.data;
}

/** `club://<club_id><path>`: the resource it names, and its query; another club's is refused as HTTP refuses it. */
function findResource(ctx: Ctx, uri: string): { def: ResourceDef; query: Record<string, string> } {
  let url: URL | null = null;
  try {
    url = new URL(uri);
  } catch {}
  const path = url?.pathname.replace(/\/$/, "") ?? "";
  const def = url?.protocol === CLUB_SCHEME ? RESOURCES.find((r) => r.path === path) : undefined;
  // A URI naming no club (`club:///members`) names no resource: not found, not another club's.
  if (!url || !def || !url.hostname) throw new ResourceNotFoundError(uri);
  if (url.hostname.toLowerCase() !== ctx.clubId.toLowerCase()) throw new Forbidden("CLUB_FORBIDDEN");
  return { def, query: Object.fromEntries(url.searchParams) };
}

/** Reads a resource as JSON text, through its verb and scope; the audit row names its URI. */
async function readResource(ctx: Ctx, request: Request, uri: string): Promise<ReadResourceResult> {
  const state = getState(request);
  if (state) state.tool = uri.slice(0, 500);
  return orRefused(ctx, async () => {
    const { def, query } = findResource(ctx, uri);
    const result = await def.read(ctx, def.query ? parsed(ctx, def.query, query, "query") : {});
    if (def.mimeType) return { contents: [{ uri, mimeType: def.mimeType, blob: Buffer.from(result as Uint8Array).toString("base64") }] };
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(result) }] };
  });
}

const resourceInfo = (def: ResourceDef) => ({ name: def.name, title: def.title, description: def.description, mimeType: def.mimeType ?? "application/json" });

const PROMPT_BY_NAME = new Map<string, PromptDef>(PROMPTS.map((def) => [def.name, def]));

/** What `prompts/list` shows of a prompt: its arguments, from its zod object. */
const promptInfo = (def: PromptDef) => ({
  name: def.name,
  title: def.title,
  description: def.description,
  arguments: Object.entries(def.args.shape).map(([name, schema]) => ({
    name,
    description: schema.description,
    required: !schema.safeParse(undefined).success,
  })),
});

/** Fills a prompt in, its arguments parsed like a tool's (422 items under `body`); the audit row names it. */
async function getPrompt(ctx: Ctx, request: Request, name: string, args: unknown): Promise<GetPromptResult> {
  const def = PROMPT_BY_NAME.get(name);
  if (!def) throw new Refused(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  const state = getState(request);
  if (state) state.tool = def.name;
  const text = await orRefused(ctx, () => def.run(ctx, parsed(ctx, def.args, args ?? {}, "body")));
  return { description: def.description, messages: [{ role: "user", content: { type: "text", text } }] };
}

type Answered =
  | "initialize"
  | "tools/list"
  | "tools/call"
  | "resources/list"
  | "resources/templates/list"
  | "resources/read"
  | "prompts/list"
  | "prompts/get"
  | "completion/complete"
  | "logging/setLevel";
type ParamsOf<M extends Answered> = NonNullable<RequestTypeMap[M]["params"]>;

/** The SDK's schema of each method's params, by its type name. */
const PARAMS: Record<Answered, keyof typeof specTypeSchemas> = {
  initialize: "InitializeRequestParams",
  "tools/list": "PaginatedRequestParams",
  "tools/call": "CallToolRequestParams",
  "resources/list": "PaginatedRequestParams",
  "resources/templates/list": "PaginatedRequestParams",
  "resources/read": "ReadResourceRequestParams",
  "prompts/list": "PaginatedRequestParams",
  "prompts/get": "GetPromptRequestParams",
  "completion/complete": "CompleteRequestParams",
  "logging/setLevel": "SetLevelRequestParams",
};

/**
 * Answers one method. Registered with only a handler, the SDK reports params that fail its schema
 * as -32603 (internal error) on the 2025 revisions; registered with the params' schema, as -32602
 * (invalid params), which is what they are.
 */
function answer<M extends Answered>(
  server: Server,
  method: M,
  handler: (params: ParamsOf<M>, call: ServerContext) => HandlerResultTypeMap[M] | Promise<HandlerResultTypeMap[M]>,
) {
  server.setRequestHandler(method, { params: specTypeSchemas[PARAMS[method]] }, (params, call) => handler(params as ParamsOf<M>, call));
}

/**
 * The protocol's utilities beyond ping: `logging/setLevel` (2025-11-25; 2026-07-28 has a level in
 * each request's `_meta` instead) and `completion/complete` (server/mcp-complete.ts). A level is
 * accepted and kept nowhere: our tools send no log messages (their results and progress reports
 * say what happened), and a stateless endpoint has no session to keep it in. Registered here over
 * the SDK's own handler, which answers a level that is none of the protocol's as -32603.
 */
const UTILITIES = { logging: {}, completions: {} };

/**
 * The handshake of the 2025 revisions, answered as the SDK answers it (`_oninitialize`: the
 * version negotiated, the capabilities, the instructions) but registered with its params' schema,
 * like every other method: the SDK's own registration reports `{}` or a numeric protocolVersion
 * as -32603 (internal error) with its schema's issues in English, where they are invalid params.
 */
type Handshake = { _oninitialize(request: { method: "initialize"; params: ParamsOf<"initialize"> }): Promise<HandlerResultTypeMap["initialize"]> };

function answerHandshake(server: Server) {
  const sdk = server as unknown as Handshake;
  answer(server, "initialize", (params) => sdk._oninitialize({ method: "initialize", params }));
}

function answerUtilities(server: Server, ctx: Ctx) {
  answer(server, "completion/complete", (params) => complete(ctx.clubId, params));
  answer(server, "logging/setLevel", () => ({}));
}

/**
 * Whether a tools/call asks to run as a task: 2025-11-25, its `task` param; 2026-07-28, its
 * client declared the tasks extension (the server then decides: a long tool becomes a task).
 */
function taskAsked(legacy: boolean, task: { ttl?: number } | undefined, req: ServerContext["mcpReq"]): { ttl?: number; modern?: boolean } | undefined {
  if (legacy) return task;
  return declaresTasks(req.envelope) ? { modern: true } : undefined;
}

/** The low-level handlers: McpServer's own would check a tool's arguments itself, in English (see callTool). */
function buildServer(ctx: Ctx, request: Request, legacy: boolean): Server {
  const capabilities = {
    tools: {},
    resources: {},
    prompts: {},
    ...UTILITIES,
    ...(legacy ? { tasks: TASKS_CAPABILITY } : { extensions: { [TASKS_EXTENSION]: {} } }),
  };
  const server = new Server({ name: "club-api", version: "1.0" }, { capabilities, instructions: INSTRUCTIONS });
  answerHandshake(server);
  answerUtilities(server, ctx);
  answer(server, "tools/list", () => ({ tools: listedTools(ctx.actor) }));
  answer(
    server,
    "tools/call",
    (params, call) =>
      callTool(ctx, request, params.name, params.arguments, call.mcpReq, taskAsked(legacy, params.task, call.mcpReq)) as Promise<
        HandlerResultTypeMap["tools/call"]
      >,
  );
  if (legacy) answerTasks(server, ctx);
  else answerTasksV2(server, ctx);
  const fixed = RESOURCES.filter((def) => !def.query);
  const templates = RESOURCES.filter((def) => def.query);
  answer(server, "resources/list", () => ({ resources: fixed.map((def) => ({ uri: resourceUri(ctx.clubId, def), ...resourceInfo(def) })) }));
  answer(server, "resources/templates/list", () => ({
    resourceTemplates: templates.map((def) => ({ uriTemplate: resourceUri(ctx.clubId, def), ...resourceInfo(def) })),
  }));
  answer(server, "resources/read", (params) => readResource(ctx, request, params.uri));
  answer(server, "prompts/list", () => ({ prompts: PROMPTS.map(promptInfo) }));
  answer(server, "prompts/get", (params) => getPrompt(ctx, request, params.name, params.arguments));
  return server;
}

/**
 * Stateless, the endpoint takes POST only: it offers no event stream to GET (the Streamable HTTP
 * spec's 405 for that) and has no session to end with DELETE. Answered before any server is made.
 */
const ALLOW = "POST";

/**
 * The JSON-RPC method(s) a POST body asks for, for the audit row: a batch's joined by commas (so
 * the audit log never takes a batch with a tool call in it for a handshake). Null when none.
 */
function rpcMethods(body: unknown): string | null {
  const messages = Array.isArray(body) ? body : [body];
  const methods = messages.flatMap((m) => (m && typeof m === "object" && typeof m.method === "string" ? [m.method.slice(0, 100)] : []));
  return methods.length ? methods.join(",").slice(0, 500) : null;
}

export async function handleMcp(ctx: Ctx, request: Request, parsedBody: unknown): Promise<Response> {
  const state = getState(request);
  if (state) {
    // A GET asking for an event stream is a client opening the server's stream (Streamable HTTP).
    const opensStream = request.method === "GET" && /text\/event-stream/i.test(request.headers.get("accept") ?? "");
    state.mcpMethod = opensStream ? "stream" : request.method === ALLOW ? rpcMethods(parsedBody) : null;
  }
  if (request.method !== ALLOW) {
    const refused = new AppError(405, "METHOD_NOT_ALLOWED", { path: new URL(request.url).pathname, method: request.method, allow: ALLOW });
    const { status, body } = errorAnswer(refused, ctx.locale);
    return json(status, withRequestId(body, state?.requestId), { allow: ALLOW });
  }
  const authInfo = {
    token: ctx.actor.keyPrefix ?? "session",
    clientId: ctx.actor.adminId ?? "system",
    scopes: Object.entries(ctx.actor.scopes).map(([a, l]) => `${a}:${l}`),
    extra: { ctx },
  };
  if (!(await isLegacyRequest(request, parsedBody))) return modern.fetch(request, { authInfo, parsedBody });
  // 2025-11-25 and earlier: one server per request over the stateless transport, answered as JSON.
  const server = buildServer(ctx, request, true);
  // JSON, unless a call asks for progress: its reports go before the answer on an event stream.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksProgress(parsedBody) });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody, authInfo });
}

/** Whether a POST body (a message or a batch) carries a progress token. */
function asksProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => m?.params?._meta?.progressToken !== undefined);
}

/**
 * The 2026-07-28 revision (stateless: each request carries its version in `_meta`, `server/discover`
 * instead of the handshake), one server per request made from the caller handed over in `authInfo`.
 */
const modern = createMcpHandler(
  ({ authInfo, requestInfo }) => {
    const ctx = authInfo?.extra?.ctx as Ctx | undefined;
    if (!ctx || !requestInfo) throw new Error("an MCP request reached the server without its caller");
    return buildServer(ctx, requestInfo, false);
  },
  { legacy: "reject" },
);
