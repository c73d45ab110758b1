// The MCP endpoint (Streamable HTTP, stateless): a new server and transport per request, the
// caller handed over as `authInfo`, each tool registered from lib/mcp with its zod schema. Tool
// errors come back as `isError` results carrying the same `{detail, code}` as the HTTP API.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Ctx } from "../lib/context";
import { TOOLS } from "../lib/mcp";
import { errorAnswer } from "./errors";
import { getState } from "./state";

/** A refusal as a tool result: the body an HTTP answer would carry for the same error. */
function toolError(ctx: Ctx, err: unknown) {
  const { body } = errorAnswer(err, ctx.locale);
  return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(body) }] };
}

function buildServer(ctx: Ctx, request: Request): McpServer {
  const server = new McpServer({ name: "club-api", version: "1.0" }, { capabilities: { tools: {} } });
  for (const def of TOOLS) {
    // The raw shape, not the named object: a named root would become a $ref, and MCP wants "type": "object".
    server.registerTool(
      def.name,
      { title: def.title, description: def.description, inputSchema: def.input.shape, annotations: def.annotations },
      async (args: unknown) => {
        const state = getState(request);
        if (state) state.tool = def.name;
        try {
          const result = await def.run(ctx, args as never);
          const structured = result && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>) : { result };
          return { content: [{ type: "text" as const, text: JSON.stringify(result) }], structuredContent: structured };
        } catch (err) {
          return toolError(ctx, err);
        }
      },
    );
  }
  return server;
}

export async function handleMcp(ctx: Ctx, request: Request, parsedBody: unknown): Promise<Response> {
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
