// The MCP endpoint through the official SDK client: same key, same scopes, same audit.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, clubs } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { callTool, mcpClient } from "./client";
import { refusalOf } from "../refusal";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("MCP endpoint", () => {
  it("answers 401 without a key", async () => {
    const res = await env.call("POST", "/mcp", { key: null, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(res.status).toBe(401);
    expect(await refusalOf(mcpClient(env, null))).toBeInstanceOf(Error);
  });

  it("lists the foundation's tools with descriptions and annotations", async () => {
    const client = await mcpClient(env);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ["whoami", "get_club", "update_club"]) expect(names).toContain(name);
    const whoami = tools.find((t) => t.name === "whoami");
    expect(whoami?.description?.length).toBeGreaterThan(20);
    expect(whoami?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === "update_club")?.inputSchema.properties).toHaveProperty("card_custom_link_url");
    await client.close();
  });

  it("whoami returns the same profile as GET /api/auth/me", async () => {
    const client = await mcpClient(env);
    const { isError, body } = await callTool(client, "whoami");
    expect(isError).toBe(false);
    const http = await env.call("GET", "/api/auth/me");
    expect(body.club_id).toBe(http.body.club_id);
    expect(body.scopes).toEqual(http.body.scopes);
    await client.close();
  });

  it("update_club changes the club through the same rules, and records the tool in the audit log", async () => {
    const client = await mcpClient(env);
    const { isError, body } = await callTool(client, "update_club", { description: "Via MCP", slug: "ignored" });
    expect(isError).toBe(false);
    expect(body.description).toBe("Via MCP");
    const [row] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expect(row.description).toBe("Via MCP");
    expect(row.slug).not.toBe("ignored");
    const audited = await env.db.read
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.via, "mcp"), eq(auditLog.tool, "update_club")));
    expect(audited).toHaveLength(1);
    expect(audited[0].key_prefix).toBe(env.key.slice(0, 12));
    await client.close();
  });

  it("never does more than the key allows: a view key's update is refused and nothing changes", async () => {
    const client = await mcpClient(env, await env.makeKey({ page: "view" }));
    const { isError, body } = await callTool(client, "update_club", { description: "Should not land" });
    expect(isError).toBe(true);
    expect(body.code).toBe("SCOPE_MISSING");
    expect(body.detail).toContain("page:edit");
    const [row] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expect(row.description).not.toBe("Should not land");
    await client.close();
  });

  it("reports bad arguments as a tool error, not a crash", async () => {
    const client = await mcpClient(env);
    const result = (await client.callTool({ name: "update_club", arguments: { primary_color: 42 } })) as { isError?: boolean };
    expect(result.isError).toBe(true);
    await client.close();
  });
});
