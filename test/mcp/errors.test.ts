// How the MCP endpoint refuses, through the official SDK client: a tool's refusal carries the same
// `{detail, code}` body as the HTTP answer to the same request, in the club's language.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ListToolsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { setup, type TestEnv } from "../helpers";
import { members } from "../../db/schema";
import { memberRow, seedMember } from "../members-fixtures";
import { callTool, mcpClient } from "./client";
import { refusalOf } from "../refusal";

let env: TestEnv;
let client: Awaited<ReturnType<typeof mcpClient>>;
beforeAll(async () => {
  env = await setup();
  // German, so that a message left in English (the SDK's) or French (the default) shows.
  expect((await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { locale: "de" } })).status).toBe(200);
  client = await mcpClient(env);
});
afterAll(async () => {
  await client.close();
  await env.close();
});

const extendPath = (memberId: string) => `/api/clubs/${env.clubId}/members/${memberId}/actions/extend`;

describe("MCP tool refusals are the HTTP API's", () => {
  it("a business-rule refusal (404) has the HTTP body", async () => {
    const missing = crypto.randomUUID();
    const http = await env.call("POST", extendPath(missing), { body: { extend_months: 1 } });
    expect(http.status).toBe(404);
    const mcp = await callTool(client, "extend_membership", { member_id: missing, extend_months: 1 });
    expect(mcp.isError).toBe(true);
    expect(mcp.body).toEqual({ ...http.body, request_id: expect.any(String) });
    expect(mcp.body.code).toBe("MEMBER_NOT_FOUND");
  });

  it("a rule the verb checks (422 ValidationFailed) has the HTTP body, and changes nothing", async () => {
    const member = await seedMember(env);
    const args = { extend_until: "2099-01-01", extend_months: 2 };
    const http = await env.call("POST", extendPath(member.id), { body: args });
    expect(http.status).toBe(422);
    const mcp = await callTool(client, "extend_membership", { member_id: member.id, ...args });
    expect(mcp.isError).toBe(true);
    expect(mcp.body).toEqual({ ...http.body, request_id: expect.any(String) });
    expect(mcp.body.detail[0].loc).toEqual(["body", "extend_months"]);
    expect((await memberRow(env, member.id)).membership_end).toBe(member.membership_end);
  });
});

describe("MCP tool arguments are checked like an HTTP request (422 VALIDATION_FAILED)", () => {
  it("a body field of the wrong type: the HTTP 422 body exactly, in the club's language; nothing changes", async () => {
    const member = await seedMember(env);
    const args = { extend_months: "drei", extend_until: "bald" };
    const http = await env.call("POST", extendPath(member.id), { body: args });
    expect(http.status).toBe(422);
    const mcp = await callTool(client, "extend_membership", { member_id: member.id, ...args });
    expect(mcp.isError).toBe(true);
    expect(mcp.body).toEqual({ ...http.body, request_id: expect.any(String) });
    expect(mcp.body.code).toBe("VALIDATION_FAILED");
    expect(mcp.body.detail.map((i: { loc: unknown }) => i.loc)).toEqual([
      ["body", "extend_until"],
      ["body", "extend_months"],
    ]);
    expect(JSON.stringify(mcp.body)).not.toContain("MCP error");
    expect((await memberRow(env, member.id)).membership_end).toBe(member.membership_end);
  });

  it("an id argument that is no UUID: the HTTP path's item, under the argument's name", async () => {
    const mcp = await callTool(client, "extend_membership", { member_id: "x" });
    const http = await env.call("POST", extendPath("x"), { body: {} });
    expect(http.status).toBe(422);
    expect(http.body.detail[0].loc).toEqual(["path", "member_id"]);
    expect(mcp.isError).toBe(true);
    expect(mcp.body).toEqual({ code: "VALIDATION_FAILED", detail: [{ ...http.body.detail[0], loc: ["body", "member_id"] }], request_id: expect.any(String) });
  });

  it("an unknown tool is a JSON-RPC invalid-params error (MCP spec), not a result", async () => {
    expect(await refusalOf(client.callTool({ name: "no_such_tool", arguments: {} }))).toMatchObject({ code: -32602 });
  });

  it("missing required arguments: every item, as HTTP lists them; no member is written", async () => {
    const before = await env.db.read.select().from(members);
    const http = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, { body: {} });
    expect(http.status).toBe(422);
    const mcp = await callTool(client, "add_member", {});
    expect(mcp.isError).toBe(true);
    expect(mcp.body).toEqual({ ...http.body, request_id: expect.any(String) });
    expect(mcp.body.detail.length).toBeGreaterThan(1);
    expect(await env.db.read.select().from(members)).toHaveLength(before.length);
  });
});

describe("malformed MCP requests are invalid params (-32602), not internal errors", () => {
  it("tools/call without params, or without a tool name", async () => {
    for (const request of [{ method: "tools/call" }, { method: "tools/call", params: { arguments: {} } }]) {
      const refused = client.request(request as never, CallToolResultSchema);
      expect(await refusalOf(refused)).toMatchObject({ code: -32602 });
    }
  });

  it("tools/list with a cursor that is not a string", async () => {
    const refused = client.request({ method: "tools/list", params: { cursor: 5 } } as never, ListToolsResultSchema);
    expect(await refusalOf(refused)).toMatchObject({ code: -32602 });
    expect((await client.request({ method: "tools/list", params: {} }, ListToolsResultSchema)).tools.length).toBeGreaterThan(10);
  });
});

describe("methods other than POST", () => {
  /** The answer and its whole body, or null when the body is still open after a second. */
  async function within(res: Response, ms = 1000): Promise<string | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), ms);
    });
    const text = await Promise.race([res.text(), late]);
    clearTimeout(timer);
    if (text === null) await res.body?.cancel();
    return text;
  }

  it("GET asking for an event stream is 405 with Allow: POST, answered and closed at once (stateless: no stream)", async () => {
    const headers = { authorization: `Bearer ${env.key}`, accept: "text/event-stream" };
    const res = await env.app.handle(new Request("http://localhost/mcp", { method: "GET", headers }));
    const text = await within(res);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(text).not.toBeNull();
    const body = JSON.parse(text as string);
    expect(body.code).toBe("METHOD_NOT_ALLOWED");
    expect(body.detail).toBe("/mcp akzeptiert nur POST, nicht GET.");
  });

  it("DELETE (no session to end) and PUT are 405 with Allow: POST too", async () => {
    for (const method of ["DELETE", "PUT"]) {
      const res = await env.app.handle(new Request("http://localhost/mcp", { method, headers: { authorization: `Bearer ${env.key}` } }));
      expect(await within(res)).toContain("METHOD_NOT_ALLOWED");
      expect([res.status, res.headers.get("allow")]).toEqual([405, "POST"]);
    }
  });

  it("the SDK client takes the 405 as 'no stream' and works on", async () => {
    const seen: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), {
      requestInit: { headers: { authorization: `Bearer ${env.key}` } },
      fetch: async (url, init) => {
        const res = await env.app.handle(new Request(url, init));
        seen.push(`${init?.method ?? "GET"} ${res.status}`);
        return res;
      },
    });
    const sdk = new Client({ name: "test", version: "1.0" });
    await sdk.connect(transport);
    expect((await callTool(sdk, "whoami")).body.club_id).toBe(env.clubId);
    await sdk.close();
    expect(seen).toContain("GET 405");
    expect(seen.filter((s) => s.startsWith("POST")).every((s) => s.endsWith(" 200") || s.endsWith(" 202"))).toBe(true);
  });

  it("without a key, any method is still 401", async () => {
    const res = await env.app.handle(new Request("http://localhost/mcp", { method: "GET", headers: { accept: "text/event-stream" } }));
    expect(res.status).toBe(401);
    expect(JSON.parse((await within(res)) as string).code).toBe("UNAUTHORIZED");
  });
});
