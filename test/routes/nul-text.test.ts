// A NUL (U+0000) in any string of a request: PostgreSQL refuses a statement that carries one (it
// was a 500 there for a member search), SQLite would store it. Refused before anything runs, as a
// 422 naming where, on every way in: the API's query and body, a tool's arguments, the dashboard.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { members } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { browser } from "../dashboard/helpers";
import { callTool, mcpClient } from "../mcp/client";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("a NUL in a request", () => {
  it("in a query parameter (member search): 422 naming it, not a 500", async () => {
    const res = await env.call("GET", `/api/clubs/${env.clubId}/members?search=a%00b`);
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: string[]; type: string }) => [d.loc, d.type])).toEqual([[["query", "search"], "text_control_character"]]);
    const audit = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?path=%2Fapi%00`);
    expect(audit.status).toBe(422);
  });

  it("in a JSON body's free text: 422 naming the field, and nothing is written", async () => {
    const before = (await env.db.read.select().from(members)).length;
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.org", membership_end: "2030-01-01", custom_fields: { note: "x\u0000y" } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([["body", "custom_fields", "note"]]);
    expect((await env.db.read.select().from(members)).length).toBe(before);
  });

  it("in a tool's arguments: the same 422 body, under body", async () => {
    const client = await mcpClient(env);
    try {
      const res = await callTool(client, "list_members", { search: "a\u0000b" });
      expect(res.isError).toBe(true);
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([["body", "search"]]);
    } finally {
      await client.close();
    }
  });

  it("in the dashboard's address: a 422 page, not a 500", async () => {
    const owner = browser(env);
    await owner.signIn();
    const page = await owner.request("GET", "/admin/members?search=a%00b");
    expect(page.status).toBe(422);
  });
});
