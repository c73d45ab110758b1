// MCP tools verify_card and attendance, through the official SDK client.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, count, desc, eq } from "drizzle-orm";
import { auditLog, scans } from "../../db/schema";
import { addMember, addScan, addTier } from "../card-fixtures";
import { setup, type TestEnv } from "../helpers";
import { callTool, mcpClient } from "./client";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const scanCount = async () => (await env.db.read.select({ n: count() }).from(scans))[0].n;

describe("MCP verify_card and attendance", () => {
  it("lists both tools, attendance read-only and verify_card not (it records a scan)", async () => {
    const client = await mcpClient(env);
    const { tools } = await client.listTools();
    const verify = tools.find((t) => t.name === "verify_card");
    const att = tools.find((t) => t.name === "attendance");
    expect(verify?.inputSchema.required).toEqual(["serial"]);
    expect(verify?.annotations?.readOnlyHint).toBe(false);
    expect(Object.keys(att?.inputSchema.properties ?? {}).sort()).toEqual(["date", "from", "period", "to"]);
    expect(att?.annotations?.readOnlyHint).toBe(true);
    await client.close();
  });

  it("verify_card answers like the HTTP route, stores the scan and is audited with its tool name", async () => {
    const tier = await addTier(env, { name: "Gold" });
    const m = await addMember(env, { first_name: "Zoé", tier_id: tier.id, referral_code: "MCP7RT4Q" });
    const client = await mcpClient(env);
    const { isError, body } = await callTool(client, "verify_card", { serial: "mcp7rt4q" });
    expect(isError).toBe(false);
    expect(body).toEqual({
      valid: true,
      status: "active",
      member: { id: m.id, first_name: "Zoé", last_name: "Martin", tier_name: "Gold", membership_end: m.membership_end },
      scanned_at: expect.any(String),
    });
    const [scan] = await env.db.read.select().from(scans).orderBy(desc(scans.id)).limit(1);
    expect(scan).toMatchObject({ member_id: m.id, status: "active", code: "mcp7rt4q", scanned_at: body.scanned_at });
    const audited = await env.db.read
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.via, "mcp"), eq(auditLog.tool, "verify_card")));
    expect(audited).toHaveLength(1);
    const unknown = await callTool(client, "verify_card", { serial: "NOBODY" });
    expect(unknown.body).toMatchObject({ valid: false, status: "unknown", member: null });
    await client.close();
  });

  it("verify_card with a key without access_control is refused and stores no scan", async () => {
    const before = await scanCount();
    const client = await mcpClient(env, await env.makeKey({ members: "edit" }));
    const { isError, body } = await callTool(client, "verify_card", { serial: "ANY" });
    expect(isError).toBe(true);
    expect(body.code).toBe("SCOPE_MISSING");
    expect(await scanCount()).toBe(before);
    await client.close();
  });

  it("attendance answers like the HTTP route, and refuses a bad range with the same detail items", async () => {
    const m = await addMember(env);
    await addScan(env, { at: "2025-06-02T10:00:00.000Z", memberId: m.id });
    await addScan(env, { at: "2025-06-03T10:00:00.000Z", memberId: m.id });
    await addScan(env, { at: "2025-06-04T10:00:00.000Z" });
    const client = await mcpClient(env, await env.makeKey({ access_control: "view" }));
    const { isError, body } = await callTool(client, "attendance", { from: "2025-06-02", to: "2025-06-04" });
    expect(isError).toBe(false);
    expect(body).toMatchObject({ from_date: "2025-06-02", to_date: "2025-06-04", total_scans: 3, unique_members: 1 });
    const http = await env.call("GET", `/api/clubs/${env.clubId}/attendance?from=2025-06-02&to=2025-06-04`);
    expect(body).toEqual(http.body);
    const today = await callTool(client, "attendance", {});
    expect(today.isError).toBe(false);
    expect(today.body.date).toBe(new Date().toISOString().slice(0, 10));
    const bad = await callTool(client, "attendance", { from: "2025-06-04", to: "2025-06-02" });
    expect(bad.isError).toBe(true);
    expect(bad.body).toMatchObject({ code: "VALIDATION_FAILED", detail: [{ loc: ["query", "to"], type: "attendance_range_order" }] });
    const conflict = await callTool(client, "attendance", { date: "2025-06-02", period: "week" });
    expect(conflict.body).toMatchObject({ code: "VALIDATION_FAILED", detail: [{ type: "attendance_filter_conflict" }] });
    await client.close();
  });

  it("attendance rejects an unknown period through the tool's schema", async () => {
    const client = await mcpClient(env);
    const res = (await client.callTool({ name: "attendance", arguments: { period: "decade" } })) as { isError?: boolean };
    expect(res.isError).toBe(true);
    await client.close();
  });
});
