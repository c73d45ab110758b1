// ALL /mcp — the Model Context Protocol endpoint (Streamable HTTP) for AI assistants
import { handleMcp } from "../server/mcp";
import { route } from "../server/route";

export const ALL = route({
  summary: "MCP endpoint (Streamable HTTP)",
  tags: ["mcp"],
  hidden: true,
  raw: true,
  handler: ({ ctx, request, body }) => handleMcp(ctx, request, body),
});
