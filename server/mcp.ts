// The MCP endpoint (Streamable HTTP, stateless): a new server and transport per request, the
// caller handed over as `authInfo`, each tool registered from lib/mcp with its zod schema. Tool
// errors come back as `isError` results carrying the same `{detail, code}` as the HTTP API.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import type { Ctx } from "../lib/context";
import { AppError, ValidationFailed } from "../lib/errors";
import { t } from "../lib/i18n";
import { TOOLS } from "../lib/mcp";
import { getState } from "./state";

function toolError(ctx: Ctx, err: unknown) {
  let body: unknown;
  if (err instanceof ValidationFailed) {
    body = { detail: err.items.map((i) => ({ loc: i.loc, msg: t(ctx.locale, i.code, i.params), type: i.code.toLowerCase() })), code: err.code };
  } else if (err instanceof AppError) {
    body = { detail: t(ctx.locale, err.code, err.params), code: err.code };
  } else {
    console.error("mcp tool error:", err);
    body = { detail: t(ctx.locale, "INTERNAL"), code: "INTERNAL" };
  }
  return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(body) }] };
}

function buildServer(ctx: Ctx, request: Request): McpServer {
  const server = new McpServer({ name: "club-api", version: "1.0" }, { capabilities: { tools: {} } });
  for (const def of TOOLS) {
    server.registerTool(
      def.name,
      // An unnamed copy: a named shape (`.meta({ id })`) would become a root `$ref`, and MCP
      // clients require an input schema of type "object" at the root.
      { title: def.title, description: def.description, inputSchema: z.object(def.input.shape), annotations: def.annotations },
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
