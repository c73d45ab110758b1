// MCP tools of the webhooks (DESIGN.md section 15), read only: list_webhooks and
// webhook_deliveries through the SDK client, their answers checked against their outputSchema.
import { describe, expect, it } from "bun:test";
import { callTool, mcpClient, mcpSuite } from "./client";

const suite = mcpSuite();

describe("MCP webhook tools", () => {
  it("declares both tools read only", async () => {
    const byName = Object.fromEntries((await suite.client.listTools()).tools.map((t) => [t.name, t]));
    for (const name of ["list_webhooks", "webhook_deliveries"]) {
      expect(byName[name].annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(byName[name].outputSchema).toBeDefined();
    }
    expect(Object.keys(byName.webhook_deliveries.inputSchema.properties ?? {})).toEqual(["webhook_id", "status", "limit"]);
  });

  it("list_webhooks shows the endpoints without their secret; webhook_deliveries their log; another club's id is WEBHOOK_NOT_FOUND", async () => {
    const { env, client } = suite;
    const made = await env.call("POST", `/api/clubs/${env.clubId}/webhooks`, { body: { url: "https://hooks.invalid/club", events: ["member.created"] } });
    expect(made.status).toBe(201);
    const test = await env.call("POST", `/api/clubs/${env.clubId}/webhooks/${made.body.id}/test`);
    expect(test.status).toBe(202);
    const listed = await callTool(client, "list_webhooks");
    expect(listed.isError).toBe(false);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: made.body.id, url: "https://hooks.invalid/club", events: ["member.created"], enabled: true }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.secret);
    const log = await callTool(client, "webhook_deliveries", { webhook_id: made.body.id });
    expect(log.body.items).toEqual([expect.objectContaining({ id: test.body.id, type: "webhook.test", status: "pending" })]);
    const none = await callTool(client, "webhook_deliveries", { webhook_id: made.body.id, status: "succeeded" });
    expect(none.body.items).toEqual([]);
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/webhooks`, {
      key: other.api_key,
      body: { url: "https://hooks.invalid/theirs", events: ["*"] },
    });
    const refused = await callTool(client, "webhook_deliveries", { webhook_id: theirs.body.id });
    expect([refused.isError, refused.body.code]).toEqual([true, "WEBHOOK_NOT_FOUND"]);
  });

  it("needs access_control:view", async () => {
    const { env } = suite;
    const members = await mcpClient(env, await env.makeKey({ members: "view" }));
    const refused = await callTool(members, "list_webhooks");
    expect([refused.isError, refused.body.code]).toEqual([true, "SCOPE_MISSING"]);
    await members.close();
  });
});
