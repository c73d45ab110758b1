// /mcp and DNS rebinding (MCP transport spec, Streamable HTTP: servers must validate Origin): a
// request from another site's page is refused with 403 and a JSON-RPC error before its key counts
// for anything, key or not; the server's own origin (BASE_URL) and the CORS_ORIGINS list pass, as
// does a client that sends no Origin. On loopback, a Host that is not this machine's nor
// BASE_URL's is refused too.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLog, tiers } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";

const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": "2025-06-18" };

/** A tools/call of `create_tier` (a write: whether it ran shows in the database), with extra headers. */
async function createTier(env: TestEnv, name: string, headers: Record<string, string>) {
  const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "create_tier", arguments: { name, price_cents: 1000, duration_months: 12 } } };
  const res = await env.app.handle(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: { ...HEADERS, authorization: `Bearer ${env.key}`, ...headers },
      body: JSON.stringify(body),
    }),
  );
  const stored = await env.db.read.select().from(tiers).where(eq(tiers.name, name));
  return { status: res.status, body: await res.json(), stored: stored.length };
}

describe("/mcp and another site's page", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await setup({ BASE_URL: "http://localhost:3000", CORS_ORIGINS: "https://tool.example" });
  });
  afterAll(() => env.close());

  it("refuses an Origin of another site with 403 and a JSON-RPC error, the key notwithstanding: nothing runs, the refusal is audited", async () => {
    const res = await createTier(env, "Rebound", { origin: "https://evil.example.com" });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, data: { status: 403, code: "MCP_ORIGIN_NOT_ALLOWED" } },
    });
    expect(res.body.error.message).toContain("https://evil.example.com");
    expect(res.body.error.message).toContain("CORS_ORIGINS");
    expect(res.stored).toBe(0);
    await env.app.audit.drain();
    const rows = await env.db.read.select().from(auditLog).where(eq(auditLog.path, "/mcp"));
    expect(rows.map((r) => [r.method, r.status, r.via])).toContainEqual(["POST", 403, "mcp"]);
  });

  it("refuses a page of no site (Origin: null, a sandboxed frame or a file)", async () => {
    const res = await createTier(env, "Sandboxed", { origin: "null" });
    expect(res.status).toBe(403);
    expect(res.stored).toBe(0);
  });

  it("answers the server's own origin (BASE_URL), an origin of CORS_ORIGINS, and a client that sends none", async () => {
    for (const [name, headers] of [
      ["Own page", { origin: "http://localhost:3000" }],
      ["Listed tool", { origin: "https://tool.example" }],
      ["No browser", {}],
    ] as const) {
      const res = await createTier(env, name, headers);
      expect({ name, status: res.status, refused: !!(res.body.result?.isError ?? res.body.error) }).toEqual({ name, status: 200, refused: false });
      expect(res.stored).toBe(1);
    }
  });

  it("on loopback, refuses a Host that is neither this machine nor BASE_URL's host (DNS rebinding without an Origin)", async () => {
    const refused = await createTier(env, "Rebound host", { host: "evil.example.com:3000" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.data.code).toBe("MCP_HOST_NOT_ALLOWED");
    expect(refused.body.error.message).toContain("evil.example.com:3000");
    expect(refused.stored).toBe(0);
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "LOCALHOST:3000"]) {
      const res = await createTier(env, `Host ${host}`, { host });
      expect({ host, status: res.status }).toEqual({ host, status: 200 });
    }
  });

  it("answers a Host that is BASE_URL's own behind a reverse proxy on the same machine", async () => {
    const proxied = await setup({ BASE_URL: "https://club.example.org" });
    try {
      expect((await createTier(proxied, "Proxied", { host: "club.example.org", origin: "https://club.example.org" })).status).toBe(200);
      expect((await createTier(proxied, "Other name", { host: "rebind.example.net" })).status).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it("does not judge the Host when the server listens on every address (HOST=0.0.0.0: reached by names it cannot know)", async () => {
    const lan = await setup({ HOST: "0.0.0.0", BASE_URL: "http://192.168.1.5:3000" });
    try {
      expect((await createTier(lan, "LAN", { host: "club-pc.local:3000" })).status).toBe(200);
      expect((await createTier(lan, "LAN evil", { host: "club-pc.local:3000", origin: "https://evil.example.com" })).status).toBe(403);
    } finally {
      await lan.close();
    }
  });
});
