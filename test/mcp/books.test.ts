// The MCP tools list_payments and export_journal, through the SDK client: the verbs and answers of
// GET payments and GET journal, their scope.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { receiptNumber } from "../../lib/payments/reference";
import { insertPayment } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { callTool, mcpClient } from "./client";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("list_payments and export_journal", () => {
  it("answer what the HTTP routes answer; finances:view is needed", async () => {
    const bank = await insertPayment(env, { kind: "membership", amount: 5000, paidAt: "2025-06-02T09:00:00.000Z" });
    await insertPayment(env, { kind: "event", amount: 3000, fee: 90, paidAt: "2025-06-03T09:00:00.000Z" });
    const client = await mcpClient(env, await env.makeKey({ finances: "view" }));
    const listed = await callTool(client, "list_payments", { from: "2025-06-01", to: "2025-06-30" });
    expect(listed.isError).toBe(false);
    expect(listed.body).toEqual((await env.call("GET", `/api/clubs/${env.clubId}/payments?from=2025-06-01&to=2025-06-30`)).body);
    expect(listed.body.totals).toMatchObject({ count: 2, gross_cents: 8000, provider_fees_cents: 90 });

    const json = await callTool(client, "export_journal", { from: "2025-06-01", to: "2025-06-30" });
    const http = (await env.call("GET", `/api/clubs/${env.clubId}/journal?from=2025-06-01&to=2025-06-30`)).body;
    expect(json.body).toMatchObject({ format: "json", line_count: 3, lines: http.lines, accounts: http.accounts, text: null });
    expect(json.body.url).toEndWith(`/api/clubs/${env.clubId}/journal?from=2025-06-01&to=2025-06-30&format=json`);
    expect(json.body.lines[0]).toMatchObject({ doc: receiptNumber(bank.id), debit_account: "1020", credit_account: "3100", amount_cents: 5000 });

    const banana = await callTool(client, "export_journal", { from: "2025-06-01", to: "2025-06-30", format: "banana" });
    expect(banana.body.text.split("\n")[0]).toBe("Date\tDoc\tDescription\tAccountDebit\tAccountCredit\tAmount");
    const datev = await callTool(client, "export_journal", { from: "2025-06-01", to: "2025-06-30", format: "datev" });
    expect(datev.body).toMatchObject({ text: null, lines: null, line_count: 3 });
    const reversed = await callTool(client, "export_journal", { from: "2025-06-30", to: "2025-06-01" });
    expect(reversed.isError).toBe(true);
    await client.close();

    const members = await mcpClient(env, await env.makeKey({ members: "edit" }));
    expect((await callTool(members, "list_payments", {})).body.code).toBe("SCOPE_MISSING");
    expect((await callTool(members, "export_journal", { from: "2025-06-01", to: "2025-06-30" })).body.code).toBe("SCOPE_MISSING");
    await members.close();
  });
});
