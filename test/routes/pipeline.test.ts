// What every request meets, whatever its route: an unknown path is a 404 and a wrong method a
// 405 with or without a key; a refused bearer says `WWW-Authenticate: Bearer`; every answer
// carries an X-Request-Id; one JSON log line per request; a key's `last_used_at` is kept;
// /health checks the database.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { apiKeys, auditLog } from "../../db/schema";
import { loadConfig } from "../../lib/config";
import { createApp } from "../../app";
import { setup, type TestEnv } from "../helpers";

describe("the request pipeline", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(() => env.close());

  it("an unknown path is a 404 with a key, without one, and with a wrong one", async () => {
    for (const key of [env.key, null, "mk_live_unknownunknownunknownunknown00"]) {
      const res = await env.call("GET", "/api/clubs/nowhere/at/all", { key });
      expect([res.status, res.body.code]).toEqual([404, "ROUTE_NOT_FOUND"]);
    }
  });

  it("a known path with a method it does not take is a 405 with Allow, before any key is asked for", async () => {
    const res = await env.call("DELETE", `/api/clubs/${env.clubId}/stats`, { key: null });
    expect([res.status, res.body.code]).toEqual([405, "METHOD_NOT_ALLOWED"]);
    expect(res.headers.get("allow")).toBe("GET");
  });

  it("authorization comes before the body is read: a key without the scope gets 403 whatever it sends", async () => {
    const view = await env.makeKey({ members: "view" });
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      key: view,
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect([res.status, res.body.code]).toEqual([403, "SCOPE_MISSING"]);
    const other = await env.call("POST", `/api/clubs/${crypto.randomUUID()}/members/manual`, {
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect([other.status, other.body.code]).toEqual([403, "CLUB_FORBIDDEN"]);
    const upper = await env.call("GET", `/api/clubs/${env.clubId.toUpperCase()}/members`);
    expect(upper.status).toBe(200);
  });

  it("a wrong method with a key is still counted against the key and audited (a key cannot probe without a trace)", async () => {
    const key = await env.makeKey({ members: "view" });
    const res = await env.call("PROPFIND", "/api/auth/me", { key });
    expect(res.status).toBe(405);
    expect(res.headers.get("ratelimit-remaining")).not.toBeNull();
    await env.app.audit.drain();
    const rows = await env.db.read
      .select()
      .from(auditLog)
      .where(eq(auditLog.key_prefix, key.slice(0, 12)));
    expect(rows.map((r) => [r.method, r.status])).toEqual([["PROPFIND", 405]]);
  });

  it("a plain OPTIONS lists the path's methods", async () => {
    const res = await env.app.handle(new Request(`http://localhost/api/clubs/${env.clubId}/stats`, { method: "OPTIONS" }));
    expect([res.status, res.headers.get("allow")]).toEqual([204, "GET, OPTIONS"]);
  });

  it("a 401 carries WWW-Authenticate: Bearer, on the API and on /mcp (so MCP clients ask for a key)", async () => {
    const none = await env.call("POST", "/mcp", { key: null, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(none.status).toBe(401);
    // On /mcp it also names the OAuth protected resource metadata (RFC 9728, DESIGN.md section 17).
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="club-api", resource_metadata="http://localhost/.well-known/oauth-protected-resource"');
    const wrong = await env.call("GET", "/api/auth/me", { key: "mk_live_unknownunknownunknownunknown00" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe('Bearer realm="club-api", error="invalid_token"');
  });

  it("every answer carries X-Request-Id: the client's when sane, else a new one", async () => {
    const mine = await env.call("GET", "/api/auth/me", { headers: { "x-request-id": "trace-42" } });
    expect(mine.headers.get("x-request-id")).toBe("trace-42");
    const insane = await env.call("GET", "/api/auth/me", { headers: { "x-request-id": 'a "quoted" id' } });
    expect(insane.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await env.call("GET", "/api/auth/me", { key: null });
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a key's last_used_at is written with its request's audit row, at most once a minute", async () => {
    const key = await env.makeKey({ members: "view" });
    const prefix = key.slice(0, 12);
    const before = await env.db.read.select().from(apiKeys);
    expect(before.find((k) => key.startsWith(k.prefix) && k.prefix === prefix)?.last_used_at).toBeNull();
    const t0 = new Date().toISOString();
    await env.call("GET", "/api/auth/me", { key });
    const after = (await env.db.read.select().from(apiKeys)).find((k) => k.prefix === prefix);
    expect(after?.last_used_at).not.toBeNull();
    expect(after!.last_used_at! >= t0).toBe(true);
    // Exact to the minute: a second request within it leaves the row alone (no write per request).
    await env.call("GET", "/api/auth/me", { key });
    const again = (await env.db.read.select().from(apiKeys)).find((k) => k.prefix === prefix);
    expect(again?.last_used_at).toBe(after!.last_used_at);
  });

  it("GET /health answers 200 with the database checked, without a key, documented in the OpenAPI description", async () => {
    const res = await env.call("GET", "/health", { key: null });
    expect([res.status, res.body]).toEqual([200, { ok: true, database: "ok" }]);
    const spec = (await env.call("GET", "/api/public/openapi.json", { key: null })).body;
    expect(spec.paths["/health"]?.get?.description).toContain("database");
  });
});

describe("GET /health under a flood", () => {
  it("answers 429 with Retry-After past 600 checks a minute from one address; another address is still answered", async () => {
    const env = await setup();
    try {
      const check = (ip: string) => env.app.handle(new Request("http://localhost/health"), ip);
      for (let i = 0; i < 600; i++) expect((await check("203.0.113.5")).status).toBe(200);
      const refused = await check("203.0.113.5");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await check("203.0.113.6")).status).toBe(200);
    } finally {
      await env.close();
    }
  });
});

describe("the request log", () => {
  it("writes one JSON line per request: time, request id, method, path (no query), status, duration, key prefix", async () => {
    const env = await setup();
    const lines: string[] = [];
    const app = await createApp(env.db, loadConfig({ DATABASE_URL: env.config.databaseUrl, LOG_LEVEL: "info" }), { logSink: (l) => lines.push(l) });
    try {
      await app.handle(
        new Request(`http://localhost/api/clubs/${env.clubId}/members?search=secret`, {
          headers: { authorization: `Bearer ${env.key}`, "x-request-id": "req-1" },
        }),
      );
      await app.handle(new Request("http://localhost/nowhere"));
      expect(lines).toHaveLength(2);
      const first = JSON.parse(lines[0]);
      expect(first).toMatchObject({ level: "info", msg: "request", request_id: "req-1", method: "GET", path: `/api/clubs/${env.clubId}/members`, status: 200 });
      expect(first.key_prefix).toBe(env.key.slice(0, 12));
      expect(typeof first.duration_ms).toBe("number");
      expect(Date.parse(first.time)).not.toBeNaN();
      expect(lines[0]).not.toContain("secret");
      expect(JSON.parse(lines[1])).toMatchObject({ status: 404, key_prefix: null });
    } finally {
      await app.audit.drain();
      await env.close();
    }
  });

  it("LOG_LEVEL=warn keeps ordinary requests out; a bad LOG_LEVEL stops the configuration", async () => {
    const env = await setup();
    const lines: string[] = [];
    const app = await createApp(env.db, loadConfig({ DATABASE_URL: env.config.databaseUrl, LOG_LEVEL: "warn" }), { logSink: (l) => lines.push(l) });
    try {
      await app.handle(new Request("http://localhost/health"));
      expect(lines).toEqual([]);
      expect(() => loadConfig({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL must be one of debug, info, warn, error, silent/);
    } finally {
      await env.close();
    }
  });
});
