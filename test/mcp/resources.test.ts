// The MCP server's instructions and resources through the official SDK client: the club, its
// tiers and the member list (a template), read through the same verbs and scopes as the API.
import { describe, expect, it } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { and, eq } from "drizzle-orm";
import { auditLog } from "../../db/schema";
import { seedMember } from "../members-fixtures";
import { mcpClient, mcpSuite, rpcError } from "./client";

const s = mcpSuite();

const uri = (path = "") => `club://${s.env.clubId}${path}`;

async function readJson(c: Client, address: string) {
  const { contents } = await c.readResource({ uri: address });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri: address, mimeType: "application/json" });
  return JSON.parse((contents[0] as { text: string }).text);
}

describe("server instructions", () => {
  it("tell an assistant what the server is for, to call whoami first, and the conventions", () => {
    const text = s.client.getInstructions() ?? "";
    expect(text).toContain("membership club");
    expect(text).toContain("Call whoami first");
    expect(text).toContain("integer cents");
    expect(text).toContain("YYYY-MM-DD");
    expect(text).toContain("audit log");
    expect(text).toContain("club://<club_id>/members");
  });

  it("come with the tools, resources and prompts capabilities", () => {
    const caps = s.client.getServerCapabilities();
    expect(caps).toHaveProperty("tools");
    expect(caps).toHaveProperty("resources");
    expect(caps).toHaveProperty("prompts");
  });
});

describe("resources", () => {
  it("resources/list shows the club, its tiers and its chart of accounts at the caller's club URIs", async () => {
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => [r.name, r.uri, r.mimeType])).toEqual([
      ["club", uri(), "application/json"],
      ["tiers", uri("/tiers"), "application/json"],
      ["accounts", uri("/accounts"), "application/json"],
    ]);
    expect(resources.every((r) => (r.description?.length ?? 0) > 20)).toBe(true);
  });

  it("resources/templates/list shows the member list and an invoice's PDF, their query variables in the template", async () => {
    const { resourceTemplates } = await s.client.listResourceTemplates();
    expect(resourceTemplates.map((r) => [r.name, r.uriTemplate, r.mimeType])).toEqual([
      ["members", uri("/members{?search,status,sort,dir,page,limit}"), "application/json"],
      ["invoice_pdf", uri("/invoices/pdf{?invoice_id}"), "application/pdf"],
    ]);
  });

  it("the club reads as the API shows it (ClubAdmin)", async () => {
    const club = await readJson(s.client, uri());
    const me = await s.env.call("GET", "/api/auth/me");
    expect(club).toEqual(me.body.club);
    expect(club.id).toBe(s.env.clubId);
  });

  it("the tiers read as the API lists them", async () => {
    const created = await s.env.call("POST", `/api/clubs/${s.env.clubId}/tiers`, { body: { name: "Junior", price_cents: 2500 } });
    expect(created.status).toBe(201);
    const tiers = await readJson(s.client, uri("/tiers"));
    const http = await s.env.call("GET", `/api/clubs/${s.env.clubId}/tiers`);
    expect(tiers).toEqual(http.body);
    expect(tiers.map((t: { name: string }) => t.name)).toContain("Junior");
  });

  it("the member list takes search, status and page from the URI, as the API's query", async () => {
    for (const [first, end] of [
      ["Zelda", "2099-01-01"],
      ["Zeno", "2099-02-01"],
      ["Zora", "2000-01-01"],
    ])
      await seedMember(s.env, { first_name: first, last_name: "Quux", membership_end: end });
    const page = await readJson(s.client, uri("/members?search=quux&status=active&sort=name&dir=asc&limit=1&page=2"));
    const http = await s.env.call("GET", `/api/clubs/${s.env.clubId}/members?search=quux&status=active&sort=name&dir=asc&limit=1&page=2`);
    expect(page).toEqual(http.body);
    expect([page.total, page.page, page.limit, page.items.map((m: { first_name: string }) => m.first_name)]).toEqual([2, 2, 1, ["Zeno"]]);
    const all = await readJson(s.client, uri("/members"));
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(all.limit).toBe(50);
  });

  it("a bad query variable is invalid params (-32602) with the API's 422 items, under query", async () => {
    const err = await rpcError(s.client.readResource({ uri: uri("/members?status=asleep&page=0") }));
    expect(err).toMatchObject({ code: -32602, data: { status: 422, code: "VALIDATION_FAILED" } });
    expect((err.data as { detail: { loc: string[] }[] }).detail.map((i) => i.loc)).toEqual([
      ["query", "status"],
      ["query", "page"],
    ]);
  });

  it("a key without members:view cannot read the members or tiers: refused in the club's language, and audited", async () => {
    const key = await s.env.makeKey({ page: "view" });
    const viewOnly = await mcpClient(s.env, key);
    expect((await readJson(viewOnly, uri())).id).toBe(s.env.clubId);
    for (const path of ["/members?search=quux", "/tiers"]) {
      expect(await rpcError(viewOnly.readResource({ uri: uri(path) }))).toMatchObject({
        code: -32600,
        message: expect.stringContaining("Cette clé n'a pas la permission « members:view »."),
        data: { status: 403, code: "SCOPE_MISSING" },
      });
    }
    await viewOnly.close();
    const rows = await s.env.db.read
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.key_prefix, key.slice(0, 12)), eq(auditLog.mcp_method, "resources/read")));
    expect(rows.map((r) => r.tool).sort()).toEqual([uri(), uri("/members?search=quux"), uri("/tiers")]);
    const log = await s.env.call("GET", `/api/clubs/${s.env.clubId}/audit-log?key_prefix=${key.slice(0, 12)}`);
    expect(log.body.items.map((r: { tool: string }) => r.tool)).toContain(uri("/members?search=quux"));
  });

  it("another club's URI is refused as the API refuses it (CLUB_FORBIDDEN); an unknown one, or one naming no club, is not found: -32602 with its uri (the revision of 2026-07-28, on every revision)", async () => {
    const other = await s.env.otherClub();
    expect(await rpcError(s.client.readResource({ uri: `club://${other.club_id}/members` }))).toMatchObject({
      code: -32600,
      data: { status: 403, code: "CLUB_FORBIDDEN" },
    });
    for (const unknown of [uri("/nothing"), "https://example.org/", "not a uri", "club:///members", "club:/tiers", "club://"]) {
      expect(await rpcError(s.client.readResource({ uri: unknown }))).toMatchObject({ code: -32602, data: { uri: unknown } });
    }
  });
});
