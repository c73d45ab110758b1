// MCP tools of a registration's and an event's whole life (DESIGN.md section 12) through the
// official SDK client: add_registration, confirm_registration, cancel_registration, update_event
// (cancelling), update_promo_code; their annotations and structuredContent; refusals change nothing.
import { beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { jobs, promoCodes } from "../../db/schema";
import { createEventVia, registrationPayments, registrationRow } from "../events-fixtures";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { TestEnv } from "../helpers";
import { callTool, mcpClient, mcpSuite } from "./client";

const suite = mcpSuite();
let env: TestEnv;
let client: Client;
beforeAll(() => {
  ({ env, client } = suite);
});

const TOOLS = ["add_registration", "confirm_registration", "cancel_registration", "update_event", "update_promo_code"];

describe("MCP registration and event life tools", () => {
  it("are listed with their hints: cancel_registration is destructive, none read-only", async () => {
    const listed = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    for (const name of TOOLS) {
      const tool = listed.get(name);
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false });
    }
    expect(listed.get("cancel_registration")?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(listed.get("add_registration")?.annotations).toMatchObject({ destructiveHint: false });
    expect(listed.get("update_promo_code")?.annotations).toMatchObject({ idempotentHint: true, destructiveHint: false });
  });

  it("add_registration, confirm_registration, cancel_registration with a refund: answers in structuredContent, stored", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Guest", non_member_price_cents: 1500 }] });
    const added = (await client.callTool({
      name: "add_registration",
      arguments: { event_id: event.id, ticket_id: event.tickets[0].id, first_name: "Mia", last_name: "Keller", email: "mia@example.org" },
    })) as { structuredContent?: Record<string, unknown>; isError?: boolean };
    expect(added.isError).toBeFalsy();
    expect(added.structuredContent).toMatchObject({ status: "pending", amount_cents: 1500, source: "admin" });
    const id = added.structuredContent?.id as string;

    const confirmed = await callTool(client, "confirm_registration", { event_id: event.id, registration_id: id, payment_method: "cash" });
    expect(confirmed.body).toMatchObject({ status: "confirmed", has_payment: true });
    expect((await registrationPayments(env, id)).map((p) => [p.amount_cents, p.method])).toEqual([[1500, "cash"]]);

    const cancelled = await callTool(client, "cancel_registration", { event_id: event.id, registration_id: id, refund_cents: 1500, reason: "Ill" });
    expect(cancelled.body).toMatchObject({ status: "cancelled", cancel_reason: "Ill" });
    expect((await registrationPayments(env, id)).map((p) => p.amount_cents)).toEqual([1500, -1500]);
    const again = await callTool(client, "cancel_registration", { event_id: event.id, registration_id: id });
    expect([again.isError, again.body.code]).toEqual([true, "REGISTRATION_ALREADY_CANCELLED"]);
  });

  it("confirm_registration needs finances:edit besides events:edit; a refund too: refused, nothing changes", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Guest", non_member_price_cents: 900 }] });
    const id = (await callTool(client, "add_registration", { event_id: event.id, ticket_id: event.tickets[0].id, first_name: "Noe", last_name: "Roth" })).body
      .id;
    const eventsOnly = await mcpClient(env, await env.makeKey({ events: "edit", finances: "view" }));
    try {
      const confirm = await callTool(eventsOnly, "confirm_registration", { event_id: event.id, registration_id: id });
      expect([confirm.isError, confirm.body.code]).toEqual([true, "SCOPE_MISSING"]);
      const refund = await callTool(eventsOnly, "cancel_registration", { event_id: event.id, registration_id: id, refund_cents: 100 });
      expect([refund.isError, refund.body.code]).toEqual([true, "SCOPE_MISSING"]);
      expect((await registrationRow(env, id)).status).toBe("pending");
      expect(await registrationPayments(env, id)).toEqual([]);
      // Without a refund, events:edit cancels.
      expect((await callTool(eventsOnly, "cancel_registration", { event_id: event.id, registration_id: id })).body.status).toBe("cancelled");
    } finally {
      await eventsOnly.close();
    }
  });

  it("update_event with status cancelled queues a mail per confirmed and pending registrant", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Free", non_member_price_cents: 0 }] });
    for (const first of ["Ana", "Bea"]) {
      await callTool(client, "add_registration", {
        event_id: event.id,
        ticket_id: event.tickets[0].id,
        first_name: first,
        last_name: "X",
        email: `${first}@example.org`,
      });
    }
    const mails = () =>
      env.db.read
        .select()
        .from(jobs)
        .where(and(eq(jobs.club_id, env.clubId), eq(jobs.kind, "mail")));
    // Only the mails the cancellation queued (earlier tests' payments queued receipts).
    const before = new Set((await mails()).map((j) => j.id));
    const res = await callTool(client, "update_event", { event_id: event.id, status: "cancelled" });
    expect(res.body.status).toBe("cancelled");
    const to = (await mails())
      .filter((j) => !before.has(j.id))
      .map((j) => (j.payload as { message: { to: string } }).message.to)
      .filter((a) => a.endsWith("@example.org"));
    expect(to.sort()).toEqual(["ana@example.org", "bea@example.org"]);
  });

  it("update_promo_code changes a code; another club's id is PROMO_CODE_NOT_FOUND", async () => {
    const created = await callTool(client, "create_promo_code", { code: "MCPCODE", discount_type: "percent", discount_value: 15 });
    const res = await callTool(client, "update_promo_code", { promo_code_id: created.body.id, is_active: false, max_uses: 10 });
    expect(res.body).toMatchObject({ is_active: false, max_uses: 10 });
    const [row] = await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, created.body.id));
    expect(row).toMatchObject({ is_active: false, max_uses: 10 });
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/promo-codes`, {
      key: other.api_key,
      body: { code: "THEIRMCP", discount_type: "percent", discount_value: 10 },
    });
    const refused = await callTool(client, "update_promo_code", { promo_code_id: theirs.body.id, is_active: false });
    expect([refused.isError, refused.body.code]).toEqual([true, "PROMO_CODE_NOT_FOUND"]);
  });
});
