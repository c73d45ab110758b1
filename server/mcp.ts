// The MCP endpoint (Streamable HTTP, stateless, POST only): a new server and transport per
// request, the caller handed over as `authInfo`, the tools of lib/mcp listed and called here.
// Every refusal of a tool, arguments included, comes back as an `isError` result carrying the
// `{detail, code}` body the HTTP API gives for the same error, in the caller's language.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Ctx } from "../lib/context";
import { AppError } from "../lib/errors";
import { TOOLS } from "../lib/mcp";
import type { ToolDef } from "../lib/mcp/tool";
import { inputSchema } from "./mcp-schema";
import { type ErrorBody, errorAnswer, json, parseInput, validationBody } from "./errors";
import { getState } from "./state";

const BY_NAME = new Map<string, ToolDef>(TOOLS.map((def) => [def.name, def]));

let listed: Tool[] | undefined;
/** What `tools/list` shows, made once, as McpServer.registerTool would show it. */
function listedTools(): Tool[] {
  listed ??= TOOLS.map((def) => ({
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: inputSchema(def.input),
    annotations: def.annotations,
    execution: { taskSupport: "forbidden" },
  }));
  return listed;
}

function refusal(body: ErrorBody): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

/**
 * Runs one tool. The arguments are parsed here with the tool's own zod schema (not by the SDK,
 * whose refusal is English text): a failure is the HTTP 422 body, items under `body`, since a
 * tool's arguments are its request body. A refusal of the verb is the HTTP answer's body.
 */
async function callTool(ctx: Ctx, request: Request, name: string, args: unknown): Promise<CallToolResult> {
  const def = BY_NAME.get(name);
  if (!def) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const state = getState(request);
  if (state) state.tool = def.name;
  const input = parseInput(def.input, args ?? {}, "body", ctx.locale);
  if (!input.success) return refusal(validationBody(input.items));
  try {
    const result = await def.run(ctx, input.data);
    const structured = result && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>) : { result };
    return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: structured };
  } catch (err) {
    return refusal(errorAnswer(err, ctx.locale).body);
  }
}

type Method = typeof ListToolsRequestSchema | typeof CallToolRequestSchema;

/**
 * Answers one method. The SDK parses a request with the handler's schema before the handler runs
 * and reports a failure as -32603 (internal error); registered under a schema that names only the
 * method, the request is parsed here, and malformed params are -32602 (invalid params).
 */
function answer<S extends Method>(server: McpServer, schema: S, handler: (request: z.output<S>) => ServerResult | Promise<ServerResult>) {
  const method = schema.shape.method.value;
  server.server.setRequestHandler(z.looseObject({ method: z.literal(method) }), (request) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid ${method} request: ${z.prettifyError(parsed.error)}`);
    return handler(parsed.data as z.output<S>);
  });
}

function buildServer(ctx: Ctx, request: Request): McpServer {
  const server = new McpServer({ name: "club-api", version: "1.0" }, { capabilities: { tools: {} } });
  // The low-level handlers: McpServer's own would check the arguments itself (see callTool).
  answer(server, ListToolsRequestSchema, () => ({ tools: listedTools() }));
  answer(server, CallToolRequestSchema, ({ params }) => callTool(ctx, request, params.name, params.arguments));
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
    return json(status, body, { allow: ALLOW });
  }
  const server = buildServer(ctx, request);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const actor = ctx.actor;
  return transport.handleRequest(request, {
    parsedBody,
    authInfo: {
      token: actor.keyPrefix ?? "session",
      clientId: actor.adminId,
      scopes: Object.entries(actor.scopes).map(([a, l]) => `${a}:${l}`),
      extra: { caller: actor },
    },
  });
}
