// An MCP client (the official SDK's) talking to the real app through `app.handle`, with a key: the
// first generation (@modelcontextprotocol/sdk 1.x, protocol 2025-11-25 after an `initialize`
// handshake) unless a test asks for the second (@modelcontextprotocol/client 2.x pinned to the
// stateless revision 2026-07-28, which starts with `server/discover`).
import { afterAll, beforeAll } from "bun:test";
import { Client as Client2026, StreamableHTTPClientTransport as Transport2026 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { setup, type TestEnv } from "../helpers";
import { refusalOf } from "../refusal";

/** The stateless revision the second generation speaks. */
export const MODERN = "2026-07-28";

type Revision = typeof MODERN | "2025-11-25";

/** A second-generation client that answers elicitations (the user, in a test): declares the capability. */
type ModernOptions = {
  elicit?: (params: { message: string }) => { action: "accept" | "decline" | "cancel"; content?: Record<string, string | number | boolean> };
};

/** Either generation's client: what the helpers below use of it. */
export type AnyClient = Client | Client2026;

function transportInit(env: TestEnv, key: string | null) {
  return {
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : undefined,
    fetch: (url: string | URL, init?: RequestInit) => env.app.handle(new Request(url, init)),
  };
}

/** `key: null` connects without credentials (to see the refusal). The first generation's is the last overload (`ReturnType`'s). */
export async function mcpClient(env: TestEnv, key: string | null, revision: typeof MODERN, opts?: ModernOptions): Promise<Client2026>;
export async function mcpClient(env: TestEnv, key?: string | null): Promise<Client>;
export async function mcpClient(env: TestEnv, key: string | null = env.key, revision: Revision = "2025-11-25", opts: ModernOptions = {}): Promise<AnyClient> {
  const url = new URL("http://localhost/mcp");
  if (revision === MODERN) {
    const capabilities = opts.elicit ? { elicitation: { form: {} } } : {};
    const client = new Client2026({ name: "test", version: "1.0" }, { capabilities, versionNegotiation: { mode: { pin: MODERN } } });
    const elicit = opts.elicit;
    if (elicit) client.setRequestHandler("elicitation/create", async (request) => elicit(request.params as { message: string }));
    await client.connect(new Transport2026(url, transportInit(env, key)));
    return client;
  }
  const client = new Client({ name: "test", version: "1.0" });
  await client.connect(new StreamableHTTPClientTransport(url, transportInit(env, key)));
  return client;
}

/** The `_meta` envelope of a raw 2026-07-28 request. */
export const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** A raw 2026-07-28 request: the version in `_meta` and in the headers the revision asks for. */
export function modernPost(env: TestEnv, method: string, params: Record<string, unknown>, meta: Record<string, unknown> = ENVELOPE) {
  const headers: Record<string, string> = { "mcp-protocol-version": String(meta["io.modelcontextprotocol/protocolVersion"]), "mcp-method": method };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  return env.call("POST", "/mcp", { headers, body: { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: meta } } });
}

const listed = new WeakSet<AnyClient>();

/** `tools/list`, after which the SDK checks each tool answer of this client against its outputSchema. */
export async function listTools(client: AnyClient) {
  const answer = await client.listTools();
  listed.add(client);
  return answer;
}

/**
 * Calls a tool and parses its JSON text answer (a refusal's too: `{detail, code}`); `isError` tells
 * a refusal. The client has listed the tools first, so the SDK checks the tool's
 * `structuredContent` against its outputSchema (an answer that breaks its promise fails the test).
 */
export async function callTool(client: AnyClient, name: string, args: Record<string, unknown> = {}) {
  if (!listed.has(client)) await listTools(client);
  const res = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { type: string; text: string }[] };
  const text = res.content[0]?.text ?? "";
  try {
    return { isError: !!res.isError, body: JSON.parse(text) };
  } catch {
    throw new Error(`${name}: the answer is not JSON: ${text.slice(0, 300)}`);
  }
}

/** A JSON-RPC error; a refusal's `data` is the HTTP answer's status and body. */
export type RpcError = { code: number; message: string; data?: { status?: number; code?: string; uri?: string; detail?: unknown } };

/**
 * The JSON-RPC error a request ends with (fails the test if it succeeds). Awaited plainly
 * (test/refusal.ts) rather than with `expect(...).rejects`, which also took Bun ~0.7 s per SDK request.
 */
export async function rpcError(request: Promise<unknown>): Promise<RpcError> {
  return (await refusalOf(request)) as RpcError;
}

/** A test file's database and app, and the owner's client: made before its tests, closed after. */
export function mcpSuite(): { env: TestEnv; client: Client } {
  const suite = {} as { env: TestEnv; client: Client };
  beforeAll(async () => {
    suite.env = await setup();
    suite.client = await mcpClient(suite.env);
  });
  afterAll(async () => {
    await suite.client.close();
    await suite.env.close();
  });
  return suite;
}
