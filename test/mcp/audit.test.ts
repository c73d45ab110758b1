// What an MCP session leaves in the audit log: every request has its row, named by its JSON-RPC
// method; the log shows the tool calls and hides the handshakes and listings unless asked.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { callTool, listTools, mcpClient } from "./client";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

type Row = { method: string; path: string; status: number; via: string; tool: string | null; mcp_method: string | null };

async function auditOf(key: string, query = "") {
  const prefix = key.slice(0, 12);
  const reader = await env.makeKey({ access_control: "view" });
  const res = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&limit=1000${query}`, { key: reader });
  expect(res.status).toBe(200);
  return res.body as { total: number; items: Row[] };
}

describe("MCP requests in the audit log", () => {
  it("a session (connect, tools/list, whoami) shows the whoami call and no nameless row; include_protocol=true shows the handshake", async () => {
    const key = await env.makeKey({ members: "view" });
    const client = await mcpClient(env, key);
    expect((await listTools(client)).tools.map((t) => t.name)).toContain("list_members");
    expect((await callTool(client, "whoami")).isError).toBe(false);
    await client.close();

    const shown = await auditOf(key);
    expect(shown.items.map((r) => [r.mcp_method, r.tool])).toEqual([["tools/call", "whoami"]]);
    expect(shown.items[0]).toMatchObject({ method: "POST", path: "/mcp", status: 200, via: "mcp" });

    const all = await auditOf(key, "&include_protocol=true");
    const methods = all.items.map((r) => r.mcp_method).reverse();
    expect(methods).toEqual(["initialize", "notifications/initialized", "stream", "tools/list", "tools/call"]);
    expect(all.items.find((r) => r.mcp_method === "stream")).toMatchObject({ method: "GET", status: 405, tool: null });
    // Nothing is lost: the database holds one row per request, the hidden ones too.
    const stored = await env.db.read
      .select()
      .from(auditLog)
      .where(eq(auditLog.key_prefix, key.slice(0, 12)));
    expect(stored).toHaveLength(5);
    expect(stored.every((r) => r.mcp_method !== null)).toBe(true);
  });

  it("HTTP requests keep their rows, with no MCP method, whatever the flag", async () => {
    const key = await env.makeKey({ members: "view" });
    await env.call("GET", "/api/auth/me", { key });
    for (const query of ["", "&include_protocol=false", "&include_protocol=true"]) {
      const { items } = await auditOf(key, query);
      expect(items.map((r) => [r.path, r.via, r.mcp_method])).toEqual([["/api/auth/me", "http", null]]);
    }
    const reader = await env.makeKey({ access_control: "view" });
    expect((await env.call("GET", `/api/clubs/${env.clubId}/audit-log?include_protocol=maybe`, { key: reader })).status).toBe(422);
  });

  it("a batch that slips a tool call in with a ping is shown, under both methods", async () => {
    const key = await env.makeKey({ members: "view" });
    const headers = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } },
    ];
    const res = await env.call("POST", "/mcp", { key, body: batch, headers });
    expect(res.status).toBe(200);
    const { items } = await auditOf(key);
    expect(items.map((r) => [r.mcp_method, r.tool])).toEqual([["ping,tools/call", "whoami"]]);
  });

  it("a GET that is no stream request (a browser) is shown", async () => {
    const key = await env.makeKey({ members: "view" });
    const res = await env.call("GET", "/mcp", { key, headers: { accept: "text/html" } });
    expect(res.status).toBe(405);
    const { items } = await auditOf(key);
    expect(items.map((r) => [r.method, r.status, r.mcp_method])).toEqual([["GET", 405, null]]);
  });
});
