// /mcp serves both protocol generations side by side: the first SDK's client (an `initialize`
// handshake, 2025-11-25) and the second's pinned to the stateless revision 2026-07-28
// (`server/discover`, every request carrying its version in `_meta`). Both reach the same tools,
// resources, prompts, refusals, idempotency and audit.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, members } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import type { Client as Client2026 } from "@modelcontextprotocol/client";
import { type AnyClient, callTool, ENVELOPE, MODERN, mcpClient, modernPost } from "./client";

let env: TestEnv;
let legacy: AnyClient;
let modern: Client2026;
beforeAll(async () => {
  env = await setup();
  legacy = await mcpClient(env);
  modern = await mcpClient(env, env.key, MODERN);
});
afterAll(async () => {
  await legacy.close();
  await modern.close();
  await env.close();
});

describe("two protocol generations on one endpoint", () => {
  it("the second generation's client negotiates 2026-07-28 through server/discover; the first, 2025-11-25", () => {
    expect(modern.getProtocolEra()).toBe("modern");
    expect(modern.getServerVersion()?.name).toBe("club-api");
    expect(modern.getInstructions()).toContain("whoami");
    expect((legacy as { getServerVersion(): { name: string } | undefined }).getServerVersion()?.name).toBe("club-api");
  });

  it("both list the same tools with the same schemas", async () => {
    const [a, b] = await Promise.all([legacy.listTools(), modern.listTools()]);
    const shape = (tools: { name: string; inputSchema: unknown; annotations?: unknown }[]) =>
      tools.map((t) => ({ name: t.name, input: t.inputSchema, annotations: t.annotations })).sort((x, y) => x.name.localeCompare(y.name));
    expect(shape(b.tools)).toEqual(shape(a.tools));
    expect(b.tools.length).toBeGreaterThan(30);
  });

  it("a write tool over 2026-07-28 does what it does over 2025-11-25: stored, and audited as a tool call", async () => {
    const { isError, body } = await callTool(modern, "add_member", {
      email: "modern@example.org",
      first_name: "Mo",
      last_name: "Dern",
      membership_end: "2099-12-31",
    });
    expect({ isError, code: body.code }).toEqual({ isError: false, code: undefined });
    expect(body.email).toBe("modern@example.org");
    const [row] = await env.db.read.select().from(members).where(eq(members.email, "modern@example.org"));
    expect(row.first_name).toBe("Mo");
    const audited = await env.db.read
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.via, "mcp"), eq(auditLog.tool, "add_member")));
    expect(audited.map((r) => r.mcp_method)).toEqual(["tools/call"]);
  });

  it("a refusal is the HTTP API's body on both, and changes nothing", async () => {
    const args = { email: "not an address", first_name: "X", last_name: "Y", membership_end: "2099-12-31" };
    const [a, b] = await Promise.all([callTool(legacy, "add_member", args), callTool(modern, "add_member", args)]);
    expect(b.isError).toBe(true);
    expect(b.body.code).toBe("VALIDATION_FAILED");
    expect(b.body.detail).toEqual(a.body.detail);
    expect(await env.db.read.select().from(members).where(eq(members.email, "not an address"))).toHaveLength(0);
  });

  it("the same idempotency key replays the first result across generations: one member", async () => {
    const args = { email: "once@example.org", first_name: "On", last_name: "Ce", membership_end: "2099-12-31", idempotency_key: "rev-test-1" };
    const first = await callTool(modern, "add_member", args);
    const again = await callTool(legacy, "add_member", args);
    expect(again.body.id).toBe(first.body.id);
    expect(await env.db.read.select().from(members).where(eq(members.email, "once@example.org"))).toHaveLength(1);
  });

  it("resources and prompts answer alike", async () => {
    const uri = `club://${env.clubId}`;
    const [a, b] = await Promise.all([legacy.readResource({ uri }), modern.readResource({ uri })]);
    expect(JSON.parse(String((b.contents[0] as { text: string }).text)).id).toBe(env.clubId);
    expect(b.contents).toEqual(a.contents);
    const prompts = await modern.listPrompts();
    expect(prompts.prompts.map((p: { name: string }) => p.name)).toContain("monthly_report");
  });

  it("a version the server does not speak: the protocol's own error, naming the supported revision", async () => {
    const res = await modernPost(env, "tools/list", {}, { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01" });
    expect(res.body.error.code).toBe(-32022);
    expect(res.body.error.data.supported).toContain(MODERN);
    expect(res.body.error.data.requested).toBe("2099-01-01");
  });

  /** A raw 2025 handshake, `params` as given. */
  const initialize = (id: number, params: unknown) =>
    env.call("POST", "/mcp", { headers: { accept: "application/json, text/event-stream" }, body: { jsonrpc: "2.0", id, method: "initialize", params } });
  const handshake = (protocolVersion: string) => ({ protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } });

  it("an initialize asking for an unknown version is answered with the newest 2025 revision (the handshake's negotiation)", async () => {
    const res = await initialize(1, handshake("2099-01-01"));
    expect(res.status).toBe(200);
    expect(res.body.result.protocolVersion).toBe("2025-11-25");
  });

  it("an initialize whose params are not the handshake's is invalid params (-32602) naming them, not an internal error", async () => {
    for (const params of [{}, { protocolVersion: 123, capabilities: null, clientInfo: "x" }]) {
      const res = await initialize(7, params);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(7);
      expect(res.body.error.code).toBe(-32602);
      expect(res.body.error.message).toStartWith("Invalid params for initialize:");
      expect(res.body.error.message).toContain("protocolVersion");
    }
    // And a good one after it is still answered (nothing was left half-negotiated).
    const res = await initialize(8, handshake("2025-06-18"));
    expect(res.body.result).toMatchObject({ protocolVersion: "2025-06-18", serverInfo: { name: "club-api" } });
    expect(res.body.result.instructions).toBeString();
    expect(res.body.result.capabilities.tools).toEqual({});
  });

  it("a raw 2026-07-28 request without a key is 401, with one it is served and audited", async () => {
    const refused = await env.call("POST", "/mcp", { key: null, body: { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } } });
    expect(refused.status).toBe(401);
    const res = await modernPost(env, "server/discover", {});
    expect(res.status).toBe(200);
    expect(res.body.result.supportedVersions).toContain(MODERN);
    const rows = await env.db.read.select().from(auditLog).where(eq(auditLog.mcp_method, "server/discover"));
    expect(rows.length).toBeGreaterThan(0);
  });
});
