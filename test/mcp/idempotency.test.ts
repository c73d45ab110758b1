// MCP write tools take an optional `idempotency_key` (DESIGN.md section 12), through the SDK
// client: the same call again returns the first result and does nothing; other arguments under
// the key are refused (IDEMPOTENCY_KEY_REUSED); a refused argument check is not kept; read-only
// tools do not offer it.
import { describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { members, payments } from "../../db/schema";
import { addDays, todayUtc } from "../members-fixtures";
import { callTool, mcpSuite } from "./client";

const suite = mcpSuite();
const newMember = (email: string) => ({ first_name: "Mia", last_name: "Cp", email, membership_end: addDays(todayUtc(), 90) });
const count = async (email: string) => (await suite.env.db.read.select().from(members).where(eq(members.email, email))).length;

describe("MCP idempotency_key", () => {
  it("is offered by write tools only", async () => {
    const { tools } = await suite.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      const offered = "idempotency_key" in (t.inputSchema.properties ?? {});
      expect([t.name, offered]).toEqual([t.name, t.annotations?.readOnlyHint !== true]);
    }
    expect(byName.add_member.inputSchema.properties?.idempotency_key).toMatchObject({ type: "string", minLength: 1, maxLength: 255 });
  });

  it("the same call again returns the first result, marked replayed, and adds nobody", async () => {
    const args = { ...newMember("mia.once@test.org"), idempotency_key: "mcp-add-1" };
    const first = await suite.client.callTool({ name: "add_member", arguments: args });
    expect(first.isError).toBeFalsy();
    const again = await suite.client.callTool({ name: "add_member", arguments: { ...args } });
    expect(again.content).toEqual(first.content);
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again._meta).toMatchObject({ idempotent_replayed: true });
    expect(first._meta?.idempotent_replayed).toBeUndefined();
    expect(await count("mia.once@test.org")).toBe(1);
  });

  it("arguments in another order are the same call", async () => {
    const { email, ...rest } = newMember("mia.order@test.org");
    const first = await callTool(suite.client, "add_member", { email, ...rest, idempotency_key: "mcp-order" });
    const again = await callTool(suite.client, "add_member", { idempotency_key: "mcp-order", ...rest, email });
    expect(again).toEqual(first);
    expect(await count("mia.order@test.org")).toBe(1);
  });

  it("other arguments, or another tool, under the same key: IDEMPOTENCY_KEY_REUSED, nothing done", async () => {
    await callTool(suite.client, "add_member", { ...newMember("mia.reuse@test.org"), idempotency_key: "mcp-reuse" });
    const other = await callTool(suite.client, "add_member", { ...newMember("mia.other@test.org"), idempotency_key: "mcp-reuse" });
    expect([other.isError, other.body.code]).toEqual([true, "IDEMPOTENCY_KEY_REUSED"]);
    expect(typeof other.body.request_id).toBe("string");
    expect(await count("mia.other@test.org")).toBe(0);
    const tool = await callTool(suite.client, "create_tier", { name: "Reused", price_cents: 100, idempotency_key: "mcp-reuse" });
    expect([tool.isError, tool.body.code]).toEqual([true, "IDEMPOTENCY_KEY_REUSED"]);
  });

  it("the HTTP header and the MCP argument share a caller's keys: one key names one operation", async () => {
    const http = await suite.env.call("POST", `/api/clubs/${suite.env.clubId}/members/manual`, {
      body: newMember("mia.http@test.org"),
      headers: { "idempotency-key": "mcp-shared" },
    });
    expect(http.status).toBe(201);
    const mcp = await callTool(suite.client, "add_member", { ...newMember("mia.http@test.org"), idempotency_key: "mcp-shared" });
    expect([mcp.isError, mcp.body.code]).toEqual([true, "IDEMPOTENCY_KEY_REUSED"]);
  });

  it("an Idempotency-Key header on /mcp is ignored: a refused tool under both keys answers, and later writes go on", async () => {
    const call = suite.env.call("POST", "/mcp", {
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", "idempotency-key": "mcp-header-both" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "mark_member_paid", arguments: { member_id: crypto.randomUUID(), amount_cents: 100, idempotency_key: "mcp-tool-both" } },
      },
    });
    // Before: the tool's refusal waited on the header's keyed write, and so did every write after it.
    const answered = await Promise.race([call.then(() => true), Bun.sleep(5000).then(() => false)]);
    expect(answered).toBe(true);
    expect((await call).text).toContain("MEMBER_NOT_FOUND");
    const after = await callTool(suite.client, "add_member", newMember("mia.after-header@test.org"));
    expect(after.isError).toBe(false);
    expect(await count("mia.after-header@test.org")).toBe(1);
  });

  it("a refused argument check is not kept: fixed, the call runs under the same key", async () => {
    const bad = await callTool(suite.client, "add_member", { ...newMember("not-an-email"), idempotency_key: "mcp-fix" });
    expect([bad.isError, bad.body.code]).toEqual([true, "VALIDATION_FAILED"]);
    const fixed = await callTool(suite.client, "add_member", { ...newMember("mia.fixed@test.org"), idempotency_key: "mcp-fix" });
    expect(fixed.isError).toBe(false);
    expect(await count("mia.fixed@test.org")).toBe(1);
  });

  it("a malformed key is a validation refusal naming the argument", async () => {
    const res = await callTool(suite.client, "add_member", { ...newMember("mia.badkey@test.org"), idempotency_key: "has space" });
    expect([res.isError, res.body.code, res.body.detail[0].loc]).toEqual([true, "VALIDATION_FAILED", ["body", "idempotency_key"]]);
    expect(await count("mia.badkey@test.org")).toBe(0);
  });

  it("a payment retried under its key is recorded once", async () => {
    const added = await callTool(suite.client, "add_member", newMember("mia.pays@test.org"));
    const pay = { member_id: added.body.id, amount_cents: 1500, idempotency_key: "mcp-pay" };
    const first = await callTool(suite.client, "mark_member_paid", pay);
    expect(first.isError).toBe(false);
    const again = await callTool(suite.client, "mark_member_paid", pay);
    expect(again).toEqual(first);
    expect((await suite.env.db.read.select().from(payments).where(eq(payments.member_id, added.body.id))).length).toBe(1);
  });
});
