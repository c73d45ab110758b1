// The MCP invoice tools through the SDK client (issue 27): create_invoice and list_invoices run the
// same verbs and answer the same shapes as POST and GET invoices (the refusals too: 422 naming the
// field, the scopes); send_invoice mails the PDF.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readdirSync } from "node:fs";
import { eq } from "drizzle-orm";
import { invoices } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";
import { callTool, mcpClient } from "./client";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("invoice tools", () => {
  it("create_invoice makes a numbered invoice, list_invoices finds it, send_invoice mails it; bad input and missing scopes are refused", async () => {
    const member = await seedMember(env, { first_name: "Mia" });
    const client = await mcpClient(env, await env.makeKey({ finances: "edit", communication: "edit" }));
    try {
      const made = await callTool(client, "create_invoice", { member_id: member.id, lines: [{ label: "Cotisation", amount_cents: 5000 }] });
      expect(made.isError).toBe(false);
      expect(made.body).toMatchObject({ member_id: member.id, amount_cents: 5000, status: "open", number: `${new Date().getUTCFullYear()}-0001` });
      const [row] = await env.db.read.select().from(invoices).where(eq(invoices.id, made.body.id));
      expect(row.number).toBe(made.body.number);

      const listed = await callTool(client, "list_invoices", { member_id: member.id });
      expect(listed.body).toMatchObject({ total: 1, items: [{ id: made.body.id }] });

      const bad = await callTool(client, "create_invoice", { member_id: member.id, lines: [{ label: "Rien", amount_cents: 0 }] });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.body)).toContain("lines");

      const sent = await callTool(client, "send_invoice", { invoice_id: made.body.id });
      expect(sent.body).toMatchObject({ sent: true, to: member.email });
      expect(readdirSync(env.config.outboxDir).filter((f) => f.endsWith(".eml"))).toHaveLength(1);
    } finally {
      await client.close();
    }
    const viewer = await mcpClient(env, await env.makeKey({ finances: "view" }));
    try {
      expect((await callTool(viewer, "list_invoices", {})).body.total).toBe(1);
      expect((await callTool(viewer, "create_invoice", { member_id: member.id, lines: [{ label: "x", amount_cents: 100 }] })).body.code).toBe("SCOPE_MISSING");
    } finally {
      await viewer.close();
    }
  }, 30_000);
});
