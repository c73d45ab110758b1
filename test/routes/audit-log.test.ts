// The audit log: one row per request made with a key, with its prefix and never the key.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { count, eq } from "drizzle-orm";
import { auditLog } from "../../db/schema";
import { authCases } from "../auth-cases";
import { setup, type TestEnv } from "../helpers";
import { callTool, mcpClient } from "../mcp/client";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const rowsOf = async (prefix: string) => (await env.db.read.select({ n: count() }).from(auditLog).where(eq(auditLog.key_prefix, prefix)))[0].n;

describe("audit log", () => {
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/audit-log`, scope: "access_control:view" });

  it("writes exactly one row per request, whatever the outcome, even when they arrive together", async () => {
    const key = await env.makeKey({ page: "edit", access_control: "view" });
    const prefix = key.slice(0, 12);
    const requests = [
      ...Array.from({ length: 40 }, () => env.call("GET", "/api/auth/me", { key })),
      ...Array.from({ length: 10 }, () => env.call("PUT", `/api/clubs/${env.clubId}`, { key, body: { primary_color: "nope" } })),
      env.call("GET", "/api/nowhere", { key }),
      env.call("PUT", `/api/clubs/${env.clubId}`, { key, rawBody: "{", headers: { "content-type": "application/json" } }),
    ];
    const answers = await Promise.all(requests);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(40);
    // Each answer waited for its row: the rows are there as soon as the answers are.
    expect(await rowsOf(prefix)).toBe(52);
    const rows = await env.db.read.select().from(auditLog).where(eq(auditLog.key_prefix, prefix));
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows.filter((r) => r.status === 422)).toHaveLength(10);
    expect(rows.every((r) => r.via === "http" && r.club_id === env.clubId && r.admin_id === env.adminId)).toBe(true);
  });

  it("records a refused request of a revoked key in its club's log", async () => {
    const key = await env.makeKey({ members: "view" });
    const { revokeApiKey } = await import("../../lib/auth/keys");
    await revokeApiKey(env.db, key.slice(0, 12));
    expect((await env.call("GET", "/api/auth/me", { key })).status).toBe(401);
    const [row] = await env.db.read
      .select()
      .from(auditLog)
      .where(eq(auditLog.key_prefix, key.slice(0, 12)));
    expect(row.status).toBe(401);
  });

  it("is read back paginated and filtered by key prefix, path and day", async () => {
    const key = await env.makeKey({ access_control: "view" });
    const prefix = key.slice(0, 12);
    for (let i = 0; i < 3; i++) await env.call("GET", "/api/auth/me", { key });
    const res = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&limit=2&page=1`, { key });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.items).toHaveLength(2);
    expect(res.body.limit).toBe(2);
    const page2 = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&limit=2&page=2`, { key });
    // The read itself was logged before it was answered, so it shows up too.
    expect(page2.body.items.length).toBeGreaterThanOrEqual(1);
    const byPath = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&path=/api/auth`, { key });
    expect(byPath.body.items.map((r: { path: string }) => r.path)).toEqual(["/api/auth/me", "/api/auth/me", "/api/auth/me"]);
    const elsewhere = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&path=/api/clubs`, { key });
    expect(elsewhere.body.total).toBeGreaterThanOrEqual(2);
    expect(elsewhere.body.items.every((r: { path: string }) => r.path.startsWith("/api/clubs/"))).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const day = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&from=${today}&to=${today}`, { key });
    expect(day.body.total).toBeGreaterThanOrEqual(3);
    const past = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&to=2020-01-01`, { key });
    expect(past.body.total).toBe(0);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/audit-log?page=0`, { key })).status).toBe(422);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/audit-log?limit=1001`, { key })).status).toBe(422);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/audit-log?from=yesterday`, { key })).status).toBe(422);
  });

  it("filters by transport: via=mcp keeps the MCP calls (with their tool), via=http the rest", async () => {
    const key = await env.makeKey({ access_control: "view", events: "view" });
    const prefix = key.slice(0, 12);
    await env.call("GET", "/api/auth/me", { key });
    const client = await mcpClient(env, key);
    expect((await callTool(client, "list_events")).isError).toBe(false);
    await client.close();
    await env.app.audit.drain();
    const read = async (via: string) => (await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&via=${via}&limit=1000`, { key })).body;
    const mcp = await read("mcp");
    expect(mcp.total).toBeGreaterThanOrEqual(1);
    expect(mcp.items.every((r: { via: string }) => r.via === "mcp")).toBe(true);
    expect(mcp.items.map((r: { tool: string | null }) => r.tool)).toContain("list_events");
    const http = await read("http");
    expect(http.items.map((r: { path: string }) => r.path)).toContain("/api/auth/me");
    expect(http.items.every((r: { via: string }) => r.via === "http")).toBe(true);
    const stored = await env.db.read.select().from(auditLog).where(eq(auditLog.key_prefix, prefix));
    // The client's handshake and listings are stored, and shown only when asked (test/mcp/audit.test.ts).
    expect(mcp.items.map((r: { tool: string | null }) => r.tool)).toEqual(["list_events"]);
    expect((await read("mcp&include_protocol=true")).total).toBe(stored.filter((r) => r.via === "mcp").length);
    // The http read counted the /me call and the mcp read; its own row was written after it counted.
    expect(http.total).toBe(2);
    expect(stored.filter((r) => r.via === "http")).toHaveLength(3);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/audit-log?via=smtp`, { key })).status).toBe(422);
  });

  it("a change of the club's accounting fields is kept with each field's old and new value, over HTTP and MCP; other fields and no change are not", async () => {
    const key = await env.makeKey({ access_control: "view", page: "edit", finances: "edit" });
    const prefix = key.slice(0, 12);
    const club = `/api/clubs/${env.clubId}`;
    const before = (await env.call("GET", club, { key })).body;
    const put = await env.call("PUT", club, {
      key,
      body: { accounting_account_bank: "1010", accounting_account_bank_name: "Banque cantonale", name: before.name },
    });
    expect(put.status).toBe(200);
    // The same again: nothing changes, nothing is kept by value.
    await env.call("PUT", club, { key, body: { accounting_account_bank: "1010" } });
    const client = await mcpClient(env, key);
    expect((await callTool(client, "update_club", { accounting_journal: "BK" })).isError).toBe(false);
    await client.close();
    await env.app.audit.drain();
    const rows = (await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&limit=100`, { key })).body.items as {
      method: string;
      via: string;
      tool: string | null;
      changes: unknown;
    }[];
    const puts = rows.filter((r) => r.method === "PUT");
    expect(puts.map((r) => r.changes)).toEqual([
      null,
      [
        { field: "accounting_account_bank", old: before.accounting_account_bank, new: "1010" },
        { field: "accounting_account_bank_name", old: before.accounting_account_bank_name, new: "Banque cantonale" },
      ],
    ]);
    expect(rows.find((r) => r.tool === "update_club")?.changes).toEqual([{ field: "accounting_journal", old: before.accounting_journal, new: "BK" }]);
    // Stored as JSON on the request's one row.
    const stored = await env.db.read.select().from(auditLog).where(eq(auditLog.key_prefix, prefix));
    expect(stored.filter((r) => r.changes !== null)).toHaveLength(2);
  });

  it("path filter: % and _ in the filter are taken literally, not as wildcards, nor dropped", async () => {
    const key = await env.makeKey({ access_control: "view" });
    const prefix = key.slice(0, 12);
    for (const p of ["/api/no_where", "/api/noXwhere", "/api/pct%25x", "/api/pctZ"]) await env.call("GET", p, { key });
    const paths = async (filter: string) =>
      (await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${prefix}&path=${encodeURIComponent(filter)}`, { key })).body.items.map(
        (r: { path: string }) => r.path,
      );
    expect(await paths("/api/no_w")).toEqual(["/api/no_where"]);
    expect(await paths("/api/pct%")).toEqual(["/api/pct%25x"]);
    expect(await paths("/api/pct%25")).toEqual(["/api/pct%25x"]);
    const stored = (await env.db.read.select().from(auditLog).where(eq(auditLog.key_prefix, prefix))).map((r) => r.path);
    expect(stored).toContain("/api/no_where");
    expect(stored).toContain("/api/noXwhere");
  });

  it("shows no other club's rows", async () => {
    const other = await env.otherClub();
    await env.call("GET", "/api/auth/me", { key: other.api_key });
    const res = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${other.api_key.slice(0, 12)}`);
    expect(res.body.total).toBe(0);
  });
});
