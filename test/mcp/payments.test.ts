// The MCP tool import_bank_statement, through the SDK client: the same verb and answer as POST
// payments/import, its scope, and its audit rows.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { creditorReference } from "../../lib/payments/reference";
import { setup, type TestEnv } from "../helpers";
import { memberRow, seedMember, todayUtc } from "../members-fixtures";
import { callTool, mcpClient } from "./client";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("import_bank_statement", () => {
  it("dry_run reports, a real run records; finances:view is refused; each call is audited with the tool's name", async () => {
    const m = await seedMember(env, { referral_code: "MCPBANK3", payment_status: "pending", amount_due_cents: 4200 });
    const statement = `Datum;Betrag;Referenz\n${todayUtc()};42,00;${creditorReference("MCPBANK3")}\n${todayUtc()};10,00;RF00NOPE\n`;
    const key = await env.makeKey({ finances: "edit" });
    const client = await mcpClient(env, key);
    const dry = await callTool(client, "import_bank_statement", { statement, dry_run: true });
    expect(dry.isError).toBe(false);
    expect(dry.body).toMatchObject({ format: "csv", dry_run: true, matched: [{ line: 2, member_id: m.id, amount_cents: 4200 }] });
    expect(dry.body.unmatched.map((u: { reason: string }) => u.reason)).toEqual(["REFERENCE_INVALID"]);
    expect((await memberRow(env, m.id)).payment_status).toBe("pending");
    const real = await callTool(client, "import_bank_statement", { statement, confirm: true });
    expect(real.body.matched).toHaveLength(1);
    expect((await memberRow(env, m.id)).payment_status).toBe("paid");
    await client.close();

    const viewer = await mcpClient(env, await env.makeKey({ finances: "view" }));
    expect((await callTool(viewer, "import_bank_statement", { statement })).body.code).toBe("SCOPE_MISSING");
    await viewer.close();

    const reader = await env.makeKey({ access_control: "view" });
    const audit = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${key.slice(0, 12)}&limit=100`, { key: reader });
    expect(audit.body.items.map((r: { tool: string; status: number }) => [r.tool, r.status])).toEqual([
      ["import_bank_statement", 200],
      ["import_bank_statement", 200],
    ]);
  });
});
