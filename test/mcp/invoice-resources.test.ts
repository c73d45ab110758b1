// The invoice tools point at the invoice's PDF as an MCP resource (a resource link), which reads
// as the PDF itself (as GET .../invoices/<id>/pdf serves it), and the chart of accounts is a
// resource: both through the verbs' scopes (finances:view), on both protocol revisions.
import { describe, expect, it } from "bun:test";
import { seedMember } from "../members-fixtures";
import { MODERN, mcpClient, mcpSuite, rpcError } from "./client";

const s = mcpSuite();

type Link = { type: string; uri: string; name: string; mimeType?: string };

describe("invoice and accounting resources", () => {
  it("create_invoice and list_invoices link each invoice's PDF; the link reads as the PDF the API serves", async () => {
    const member = await seedMember(s.env, { first_name: "Lina" });
    const made = (await s.client.callTool({
      name: "create_invoice",
      arguments: { member_id: member.id, lines: [{ label: "Cotisation", amount_cents: 4200 }] },
    })) as {
      content: Link[];
      structuredContent: { id: string; number: string };
    };
    const link = made.content.find((c) => c.type === "resource_link") as Link;
    expect(link).toMatchObject({ uri: `club://${s.env.clubId}/invoices/pdf?invoice_id=${made.structuredContent.id}`, mimeType: "application/pdf" });
    expect(link.name).toContain(made.structuredContent.number);

    const listed = (await s.client.callTool({ name: "list_invoices", arguments: { member_id: member.id } })) as { content: Link[] };
    expect(listed.content.filter((c) => c.type === "resource_link").map((c) => c.uri)).toEqual([link.uri]);

    const modern = await mcpClient(s.env, s.env.key, MODERN);
    for (const client of [s.client, modern]) {
      const read = await client.readResource({ uri: link.uri });
      const [content] = read.contents as { uri: string; mimeType: string; blob: string }[];
      expect(content.mimeType).toBe("application/pdf");
      const bytes = Buffer.from(content.blob, "base64");
      expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
      const http = await s.env.call("GET", `/api/clubs/${s.env.clubId}/invoices/${made.structuredContent.id}/pdf`);
      expect(http.status).toBe(200);
      // The whole document: a page and its end (Helvetica's invoice embeds no font: about 2 KB).
      expect(bytes.length).toBeGreaterThan(1_500);
      expect(bytes.subarray(-7).toString()).toContain("%%EOF");
    }
    await modern.close();
  });

  it("the invoice PDF template is listed; an unknown invoice is not found; a key without finances cannot read it", async () => {
    const { resourceTemplates } = await s.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(`club://${s.env.clubId}/invoices/pdf{?invoice_id}`);
    const missing = await rpcError(s.client.readResource({ uri: `club://${s.env.clubId}/invoices/pdf?invoice_id=${crypto.randomUUID()}` }));
    expect(missing).toMatchObject({ code: -32602, data: { status: 404 } });
    const bad = await rpcError(s.client.readResource({ uri: `club://${s.env.clubId}/invoices/pdf?invoice_id=nope` }));
    expect(bad).toMatchObject({ code: -32602, data: { status: 422 } });
    const members = await mcpClient(s.env, await s.env.makeKey({ members: "view" }));
    expect(await rpcError(members.readResource({ uri: `club://${s.env.clubId}/accounts` }))).toMatchObject({ data: { status: 403, code: "SCOPE_MISSING" } });
    await members.close();
  });

  it("the chart of accounts reads as the club set it (SPEC's defaults here), with the journal code", async () => {
    const read = await s.client.readResource({ uri: `club://${s.env.clubId}/accounts` });
    const chart = JSON.parse(String((read.contents[0] as { text: string }).text));
    const club = (await s.env.call("GET", `/api/clubs/${s.env.clubId}`)).body;
    expect(chart.journal).toBe(club.accounting_journal);
    expect(chart.accounts.map((a: { role: string; number: string }) => [a.role, a.number])).toEqual([
      ["bank", club.accounting_account_bank],
      ["passage", club.accounting_account_passage],
      ["revenue", club.accounting_account_revenue],
      ["events", club.accounting_account_events],
      ["fees", club.accounting_account_fees],
    ]);
    expect(chart.accounts.find((a: { role: string }) => a.role === "revenue").number).toBe("3100");
  });
});

describe("prompts for the season's jobs", () => {
  it("dues_run reads a dry run now and writes nothing; mailing_to_lapsed counts the lapsed members", async () => {
    await seedMember(s.env, { first_name: "Due", last_name: "Soon", email: "due.soon@example.org", membership_end: "2026-12-01" });
    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(["dues_run", "mailing_to_lapsed", "not_renewed", "monthly_report"]));
    const before = (await s.env.call("GET", `/api/clubs/${s.env.clubId}/invoices`)).body.total;
    const dues = await s.client.getPrompt({ name: "dues_run", arguments: { until: "2027-01-01" } });
    const text = (dues.messages[0].content as { text: string }).text;
    expect(text).toContain("until 2027-01-01");
    expect(text).toMatch(/A dry run read now \(nothing written\): \d+ membership invoice/);
    expect(text).toContain("run_invoices");
    expect((await s.env.call("GET", `/api/clubs/${s.env.clubId}/invoices`)).body.total).toBe(before);
    await seedMember(s.env, { email: "lapsed@example.org", membership_end: "2020-01-31" });
    const expired = (await s.env.call("GET", `/api/clubs/${s.env.clubId}/members?status=expired`)).body.total;
    const mailing = await s.client.getPrompt({ name: "mailing_to_lapsed", arguments: {} });
    expect((mailing.messages[0].content as { text: string }).text).toContain(`membership ended: ${expired} member(s) now`);
    expect((await rpcError(s.client.getPrompt({ name: "dues_run", arguments: { until: "soon" } }))).code).toBe(-32602);
  });
});
