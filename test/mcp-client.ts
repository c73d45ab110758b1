// An official MCP SDK client connected to the app in-process: its HTTP requests go through
// `app.handle`, exactly as they would through the network.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { TestEnv } from "./helpers";

export async function mcpClient(env: TestEnv, key: string | null = env.key) {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : undefined,
    fetch: (url, init) => env.app.handle(new Request(url, init)),
  });
  const client = new Client({ name: "test-client", version: "1.0" });
  await client.connect(transport);
  return client;
}

/** The JSON a tool returned (its text content), and whether it is an error. */
export async function callTool(client: Awaited<ReturnType<typeof mcpClient>>, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[] };
  return { isError: result.isError === true, data: JSON.parse(result.content[0].text) };
}
