// ALL /mcp — the Model Context Protocol endpoint (Streamable HTTP) for AI assistants
import { lazy } from "../lib/lazy";
import { route } from "../server/route";

/** The MCP SDK and the tool table load with the first MCP request, not at start. */
const mcp = lazy(() => import("../server/mcp"));

export const ALL = route({
  summary: "MCP endpoint (Streamable HTTP)",
  tags: ["mcp"],
  hidden: true,
  // Streamable HTTP without sessions or a server stream: POST only (server/mcp refuses the rest, 405).
  answers: ["POST"],
  raw: true,
  handler: async ({ ctx, request, body }) => (await mcp()).handleMcp(ctx, request, body),
});
