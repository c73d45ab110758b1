// MCP tools of the events area, through the official SDK client over Streamable HTTP.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLog, checkIns, events, promoCodes } from "../../db/schema";
import { createEventVia, insertPayment, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { callTool, mcpClient } from "./client";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const connect = (key: string = env.key) => mcpClient(env, key);
const call = callTool;

describe("MCP events tools", () => {
  it("lists the nine tools", async () => {
    const client = await connect();
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const n of [
      "list_events",
      "get_event",
      "create_event",
      "update_event",
      "event_registrations",
      "checkin_event",
      "list_promo_codes",
      "create_promo_code",
      "club_stats",
    ]) {
      expect(names).toContain(n);
    }
    await client.close();
  });

  it("create_event, get_event, list_events, update_event", async () => {
    const client = await connect();
    const created = await call(client, "create_event", {
      title: "Via MCP",
      starts_at: "2030-09-01T18:00:00Z",
      tickets: [{ name: "Std", non_member_price_cents: 1000 }],
    });
    expect(created.isError).toBe(false);
    expect(created.body).toMatchObject({ title: "Via MCP", status: "published", slug: "via-mcp" });
    const [row] = await env.db.read.select().from(events).where(eq(events.id, created.body.id));
    expect(row.title).toBe("Via MCP");

    const got = await call(client, "get_event", { event_id: created.body.id });
    expect(got.body.tickets[0].name).toBe("Std");
    const list = await call(client, "list_events");
    expect(list.body.some((e: { id: string }) => e.id === created.body.id)).toBe(true);

    const updated = await call(client, "update_event", { event_id: created.body.id, status: "draft", title: "Renamed" });
    expect(updated.body).toMatchObject({ status: "draft", title: "Renamed" });
    const [after] = await env.db.read.select().from(events).where(eq(events.id, created.body.id));
    expect(after.status).toBe("draft");

    const bad = await call(client, "update_event", { event_id: created.body.id, ends_at: "2030-08-01T00:00:00Z" });
    expect(bad.isError).toBe(true);
    expect(bad.body.code).toBe("VALIDATION_FAILED");
    await call(client, "update_event", { event_id: created.body.id, status: "cancelled" });
    const refused = await call(client, "update_event", { event_id: created.body.id, title: "Again" });
    expect(refused.body.code).toBe("EVENT_CANCELLED");
    await client.close();
  });

  it("event_registrations and checkin_event (a retried nonce checks in once)", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "T" }] });
    const reg = await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[0].id });
    const client = await connect();
    const regs = await call(client, "event_registrations", { event_id: e.id });
    expect(regs.body).toHaveLength(1);
    expect(regs.body[0].qr_token).toBe(reg.qr_token);
    const first = await call(client, "checkin_event", { event_id: e.id, code: reg.qr_token, nonce: "n1" });
    expect(first.body.verdict).toBe("valid");
    expect((await call(client, "checkin_event", { event_id: e.id, code: reg.qr_token, nonce: "n1" })).body).toEqual(first.body);
    expect((await call(client, "checkin_event", { event_id: e.id, code: reg.qr_token })).body.verdict).toBe("already");
    expect((await call(client, "checkin_event", { event_id: e.id, code: "NOPE" })).body.verdict).toBe("not_registered");
    expect(await env.db.read.select().from(checkIns).where(eq(checkIns.event_id, e.id))).toHaveLength(3);
    const missing = await call(client, "get_event", { event_id: crypto.randomUUID() });
    expect(missing.body.code).toBe("EVENT_NOT_FOUND");
    await client.close();
  });

  it("create_promo_code and list_promo_codes", async () => {
    const client = await connect();
    const created = await call(client, "create_promo_code", { code: "mcp10", discount_type: "percent", discount_value: 10 });
    expect(created.body).toMatchObject({ code: "mcp10", scope: "membership", used_count: 0 });
    expect(await env.db.read.select().from(promoCodes).where(eq(promoCodes.code_key, "MCP10"))).toHaveLength(1);
    expect((await call(client, "create_promo_code", { code: "MCP10", discount_type: "amount", discount_value: 10 })).body.code).toBe("PROMO_CODE_TAKEN");
    expect((await call(client, "create_promo_code", { code: "MCP11", discount_type: "percent", discount_value: 150 })).body.code).toBe("VALIDATION_FAILED");
    const list = await call(client, "list_promo_codes", { scope: "membership" });
    expect(list.body.map((p: { code: string }) => p.code)).toContain("mcp10");
    await client.close();
  });

  it("list_promo_codes declares the route's filters (PromoCodeListQuery) with a JSON boolean", async () => {
    const client = await connect();
    const tool = (await client.listTools()).tools.find((t) => t.name === "list_promo_codes")!;
    const props = tool.inputSchema.properties as Record<string, { type?: string; enum?: string[]; default?: unknown; description?: string }>;
    expect(Object.keys(props).sort()).toEqual(["event_id", "include_inactive", "scope"]);
    expect(props.include_inactive).toMatchObject({ type: "boolean", default: true, description: "Also list inactive codes (default true)." });
    expect(props.scope).toMatchObject({ enum: ["membership", "event", "all"], default: "all" });
    expect(props.scope.description).toContain("membership");
    expect(props.event_id.description).toBe("Only the codes of this event.");
    await call(client, "create_promo_code", { code: "GONE1", discount_type: "percent", discount_value: 5, is_active: false });
    const active = await call(client, "list_promo_codes", { include_inactive: false });
    expect(active.body.map((p: { code: string }) => p.code)).not.toContain("GONE1");
    expect((await call(client, "list_promo_codes", {})).body.map((p: { code: string }) => p.code)).toContain("GONE1");
    await client.close();
  });

  it("club_stats, and each call audited with its tool name", async () => {
    await insertPayment(env, { kind: "membership", amount: 1234, paidAt: new Date().toISOString() });
    const client = await connect();
    const stats = await call(client, "club_stats");
    expect(stats.body.currency).toBe("CHF");
    expect(stats.body.revenue.all_time.memberships_cents).toBeGreaterThanOrEqual(1234);
    await client.close();
    await env.app.audit.drain();
    const rows = await env.db.read
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.club_id, env.clubId), eq(auditLog.tool, "club_stats")));
    expect(rows.length).toBeGreaterThanOrEqual(1);
  });

  it("a tool never does more than the key allows", async () => {
    const client = await connect(await env.makeKey({ events: "view" }));
    const res = await call(client, "create_event", { title: "No", starts_at: "2030-01-01T00:00:00Z" });
    expect(res.isError).toBe(true);
    expect(res.body.code).toBe("SCOPE_MISSING");
    expect((await call(client, "club_stats")).body.code).toBe("SCOPE_MISSING");
    expect((await call(client, "checkin_event", { event_id: crypto.randomUUID(), code: "X" })).body.code).toBe("SCOPE_MISSING");
    expect((await call(client, "list_events")).isError).toBe(false);
    await client.close();
  });
});
