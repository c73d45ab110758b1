// Keys and scopes (DESIGN.md section 4): what a key may reach, when it stops working, and the
// dashboard-session routes that manage keys.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { admins, apiKeys } from "../../db/schema";
import { revokeApiKey } from "../../lib/auth/keys";
import { LOGIN_ATTEMPTS_PER_MINUTE } from "../../lib/auth/sessions";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const me = (key: string | null) => env.call("GET", "/api/auth/me", { key });

async function sessionToken(email = "owner@test.org", password = "owner-password") {
  const res = await env.call("POST", "/api/auth/login", { key: null, body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

describe("API keys", () => {
  it("are mk_live_ followed by at least 32 base62 characters, stored only as a SHA-256 hash", async () => {
    expect(env.key).toMatch(/^mk_live_[0-9A-Za-z]{32,}$/);
    const rows = await env.db.read.select().from(apiKeys);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(env.key);
    const hash = new Bun.CryptoHasher("sha256").update(env.key).digest("hex");
    expect(rows.some((r) => r.key_hash === hash)).toBe(true);
    expect(rows.find((r) => r.key_hash === hash)?.prefix).toBe(env.key.slice(0, 12));
  });

  it("stops working on the very next request once revoked", async () => {
    const key = await env.makeKey({ members: "view" });
    expect((await me(key)).status).toBe(200);
    await revokeApiKey(env.db, key.slice(0, 12));
    const res = await me(key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("KEY_REVOKED");
  });

  it("answers 401 once expired", async () => {
    const key = await env.makeKey({ members: "view" }, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    const res = await me(key);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("KEY_EXPIRED");
  });

  it("answers 401 when its admin was removed or the admin's access has ended", async () => {
    const removed = await env.makeAdmin();
    const k1 = await env.makeKey({ members: "view" }, { adminId: removed.id });
    expect((await me(k1)).status).toBe(200);
    await env.db.tx((t) => t.update(admins).set({ removed_at: new Date().toISOString() }).where(eq(admins.id, removed.id)));
    expect((await me(k1)).status).toBe(401);

    const ended = await env.makeAdmin({ accessExpiresAt: new Date(Date.now() - 60_000).toISOString() });
    const k2 = await env.makeKey({ members: "view" }, { adminId: ended.id });
    const res = await me(k2);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("ADMIN_ACCESS_ENDED");
  });

  it("of a read-only admin can read but never write, even if created with edit in the database", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const key = await env.makeKey({ page: "view" }, { adminId: ro.id });
    // Forge an edit scope directly in the database: the admin's limit still applies.
    await env.db.tx((t) =>
      t
        .update(apiKeys)
        .set({ scopes: { page: "edit" } })
        .where(eq(apiKeys.admin_id, ro.id)),
    );
    const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { key, body: { description: "x" } });
    expect(res.status).toBe(403);
    expect((await me(key)).body.scopes).toEqual({ page: "view" });
  });

  it("cannot reach the account, team or superadmin routes (403); an unknown path there is a 404 like any other", async () => {
    for (const [method, path] of [
      ["GET", "/api/account/api-keys"],
      ["POST", "/api/account/api-keys"],
      ["DELETE", `/api/account/api-keys/${crypto.randomUUID()}`],
      ["GET", "/api/team/admins"],
      ["GET", "/api/superadmin/clubs"],
    ]) {
      const res = await env.call(method, path, { body: method === "POST" ? { scopes: {} } : undefined });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 403`);
      expect(res.body.code).toBe("SESSION_REQUIRED");
    }
    const unknown = await env.call("GET", "/api/account/whatever");
    expect([unknown.status, unknown.body.code]).toEqual([404, "ROUTE_NOT_FOUND"]);
  });

  it("of another club gets 403 on this club's path", async () => {
    const other = await env.otherClub();
    const res = await env.call("PUT", `/api/clubs/${env.clubId}`, { key: other.api_key, body: { name: "Taken over" } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("CLUB_FORBIDDEN");
  });
});

describe("dashboard sessions", () => {
  it("refuse a wrong password with 401", async () => {
    const res = await env.call("POST", "/api/auth/login", { key: null, body: { email: "owner@test.org", password: "nope" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("INVALID_CREDENTIALS");
  });

  it("are limited to 10 sign-in attempts a minute per address (429 with Retry-After), other addresses unaffected", async () => {
    const attempt = (ip: string, password = "nope", email = "owner@test.org") =>
      env.app.handle(
        new Request("http://localhost/api/auth/login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password }),
        }),
        ip,
      );
    // Each a different account: the per-account limit (sign-in.test.ts) stays out of the way.
    for (let i = 0; i < LOGIN_ATTEMPTS_PER_MINUTE; i++) expect((await attempt("203.0.113.7", "nope", `nobody${i}@test.org`)).status).toBe(401);
    const refused = await attempt("203.0.113.7", "owner-password");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await attempt("203.0.113.8", "owner-password")).status).toBe(200);
  });

  it("refuse an admin whose access has ended once the password is right (ADMIN_ACCESS_ENDED), and a wrong password as usual", async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const ended = await env.makeAdmin({ email: "ended@test.org", accessExpiresAt: past });
    const right = await env.call("POST", "/api/auth/login", { key: null, body: { email: ended.email, password: "admin-password" } });
    expect(right.status).toBe(401);
    expect(right.body.code).toBe("ADMIN_ACCESS_ENDED");
    const wrong = await env.call("POST", "/api/auth/login", { key: null, body: { email: ended.email, password: "nope" } });
    expect(wrong.body.code).toBe("INVALID_CREDENTIALS");
  });

  it("create a key shown once, list it without the secret, and revoke it", async () => {
    const session = await sessionToken();
    const created = await env.call("POST", "/api/account/api-keys", { key: session, body: { name: "Sheet", scopes: { members: "view" } } });
    expect(created.status).toBe(201);
    expect(created.body.api_key).toMatch(/^mk_live_/);
    expect(created.body.scopes).toEqual({ members: "view" });
    expect((await me(created.body.api_key)).status).toBe(200);

    const list = await env.call("GET", "/api/account/api-keys", { key: session });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(created.body.api_key);
    expect(list.body.some((k: { id: string }) => k.id === created.body.id)).toBe(true);

    const revoked = await env.call("DELETE", `/api/account/api-keys/${created.body.id}`, { key: session });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toBeString();
    expect((await me(created.body.api_key)).status).toBe(401);
    expect((await env.call("DELETE", `/api/account/api-keys/${created.body.id}`, { key: session })).status).toBe(409);
    expect((await env.call("DELETE", `/api/account/api-keys/${crypto.randomUUID()}`, { key: session })).status).toBe(404);
  });

  it("refuses a key whose expires_at has passed, or of no area as the keys page does (422 naming the field, nothing stored)", async () => {
    const session = await sessionToken();
    const before = (await env.db.read.select().from(apiKeys)).length;
    const empty = await env.call("POST", "/api/account/api-keys", { key: session, body: { name: "Empty", scopes: {} } });
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toEqual([{ loc: ["body", "scopes"], msg: "Choisissez au moins un domaine.", type: "key_scopes_empty" }]);
    for (const expires_at of [new Date(Date.now() - 1000).toISOString(), "2020-01-01T00:00:00+02:00"]) {
      const res = await env.call("POST", "/api/account/api-keys", { key: session, body: { scopes: { members: "view" }, expires_at } });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([{ loc: ["body", "expires_at"], msg: expect.any(String), type: "key_expires_in_past" }]);
    }
    expect((await env.db.read.select().from(apiKeys)).length).toBe(before);
    const later = await env.call("POST", "/api/account/api-keys", { key: session, body: { scopes: { members: "view" }, expires_at: "2099-01-01T00:00:00Z" } });
    expect(later.status).toBe(201);
  });

  it("cannot revoke another club's key (404)", async () => {
    const other = await env.otherClub();
    const [row] = await env.db.read
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, other.api_key.slice(0, 12)));
    const res = await env.call("DELETE", `/api/account/api-keys/${row.id}`, { key: await sessionToken() });
    expect(res.status).toBe(404);
    expect((await me(other.api_key)).status).toBe(200);
  });

  it("let a read-only admin create only view keys", async () => {
    const ro = await env.makeAdmin({ readOnly: true, email: "ro@test.org" });
    const session = await sessionToken(ro.email, "admin-password");
    expect((await env.call("POST", "/api/account/api-keys", { key: session, body: { scopes: { members: "edit" } } })).status).toBe(403);
    expect((await env.call("POST", "/api/account/api-keys", { key: session, body: { scopes: { members: "view" } } })).status).toBe(201);
  });

  it("let a read-only admin revoke their own keys but not another admin's (403, the key still works)", async () => {
    const ro = await env.makeAdmin({ readOnly: true, email: "ro-revoke@test.org" });
    const session = await sessionToken(ro.email, "admin-password");
    const own = await env.call("POST", "/api/account/api-keys", { key: session, body: { scopes: { members: "view" } } });
    const ownerKey = await env.makeKey({ members: "view" });
    const [ownerRow] = await env.db.read
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, ownerKey.slice(0, 12)));
    const refused = await env.call("DELETE", `/api/account/api-keys/${ownerRow.id}`, { key: session });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("KEY_OF_ANOTHER_ADMIN");
    expect((await env.db.read.select().from(apiKeys).where(eq(apiKeys.id, ownerRow.id)))[0].revoked_at).toBeNull();
    expect((await me(ownerKey)).status).toBe(200);
    expect((await env.call("DELETE", `/api/account/api-keys/${own.body.id}`, { key: session })).status).toBe(200);
    // The owner (access control: edit) may revoke the read-only admin's keys.
    const another = await env.call("POST", "/api/account/api-keys", { key: session, body: { scopes: { members: "view" } } });
    expect((await env.call("DELETE", `/api/account/api-keys/${another.body.id}`, { key: await sessionToken() })).status).toBe(200);
  });

  it("reach the team route; the superadmin route needs a superadmin", async () => {
    const session = await sessionToken();
    const team = await env.call("GET", "/api/team/admins", { key: session });
    expect(team.status).toBe(200);
    expect(team.body.some((a: { email: string }) => a.email === "owner@test.org")).toBe(true);
    const sup = await env.call("GET", "/api/superadmin/clubs", { key: session });
    expect(sup.status).toBe(403);
    expect(sup.body.code).toBe("SUPERADMIN_REQUIRED");
    await env.db.tx((t) => t.update(admins).set({ is_superadmin: true }).where(eq(admins.id, env.adminId)));
    expect((await env.call("GET", "/api/superadmin/clubs", { key: session })).status).toBe(200);
  });

  it("answer 401 for a made-up session token", async () => {
    expect((await env.call("GET", "/api/account/api-keys", { key: "ms_notarealtokennotarealtokennotarealtoken" })).status).toBe(401);
  });
});
