// OAuth for remote MCP clients (DESIGN.md section 17, issue 20): the official SDK client's whole
// flow against the real app (discovery, registration, consent by form posts, PKCE, tokens), the
// refusals the spec asks for, grants listed and revoked like keys, and the metadata documents
// checked against the SDK's own schemas.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  OAuthClientInformationFullSchema,
  OAuthMetadataSchema,
  OAuthProtectedResourceMetadataSchema,
  OAuthTokensSchema,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { resolveCaller } from "../../lib/auth/caller";
import { registerClient } from "../../lib/oauth/clients";
import { exchangeCode, issueCode } from "../../lib/oauth/grants";
import { setup, type TestEnv } from "../helpers";
import { callTool } from "./client";
import { adminBrowser, challengeOf, connectWithOAuth, formPost, MemoryProvider, REDIRECT, transportFor } from "./oauth-flow";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const VERIFIER = "v".repeat(20) + "-verifier.for~the_tests-0123456789";

let registrations = 0;
/** Registers a client, each from its own address (registration is limited per address). */
async function register(name = "Raw client", redirect_uris = [REDIRECT]) {
  const res = await env.app.handle(
    new Request("http://localhost/oauth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: name, redirect_uris, token_endpoint_auth_method: "none" }),
    }),
    `192.0.2.${++registrations}`,
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizeUrl(clientId: string, extra: Record<string, string | null> = {}) {
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challengeOf(VERIFIER),
    code_challenge_method: "S256",
    resource: "http://localhost/mcp",
    state: "st4te",
    scope: "members:view events:edit",
    ...extra,
  };
  const url = new URL("http://localhost/admin/oauth/authorize");
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url;
}

/** A code for a freshly registered client, allowed by the owner. */
async function codeFor(scopes: Record<string, string> = { members: "view" }) {
  const clientId = await register();
  const admin = await adminBrowser(env);
  const { location } = await admin.consent(authorizeUrl(clientId), { decision: "allow", scopes });
  expect(location?.origin + (location?.pathname ?? "")).toBe(REDIRECT);
  expect(location?.searchParams.get("state")).toBe("st4te");
  expect(location?.searchParams.get("iss")).toBe("http://localhost");
  return { clientId, code: location?.searchParams.get("code") as string };
}

async function tokensFor(scopes?: Record<string, string>) {
  const { clientId, code } = await codeFor(scopes);
  const res = await formPost(env, "/oauth/token", {
    grant_type: "authorization_code",
    code,
    client_id: clientId,
    code_verifier: VERIFIER,
    redirect_uri: REDIRECT,
    resource: "http://localhost/mcp",
  });
  expect(res.status).toBe(200);
  return { clientId, tokens: OAuthTokensSchema.parse(res.body) };
}

const mcpPing = (token: string) =>
  env.app.handle(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
    }),
  );

describe("metadata", () => {
  test("protected resource metadata (RFC 9728) passes the SDK's schema, at both addresses", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const res = await env.call("GET", path, { key: null, headers: { origin: "https://inspector.example" } });
      expect(res.status).toBe(200);
      const meta = OAuthProtectedResourceMetadataSchema.parse(res.body);
      expect(meta.resource).toBe("http://localhost/mcp");
      expect(meta.authorization_servers).toEqual(["http://localhost"]);
      expect(meta.scopes_supported).toHaveLength(14);
      expect(meta.scopes_supported).toContain("members:view");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  test("authorization server metadata (RFC 8414) passes the SDK's schema: S256 only, CIMD, registration", async () => {
    const res = await env.call("GET", "/.well-known/oauth-authorization-server", { key: null });
    expect(res.status).toBe(200);
    const meta = OAuthMetadataSchema.parse(res.body);
    expect(meta.issuer).toBe("http://localhost");
    expect(meta.code_challenge_methods_supported).toEqual(["S256"]);
    expect(meta.registration_endpoint).toBe("http://localhost/oauth/register");
    expect(meta.authorization_endpoint).toBe("http://localhost/admin/oauth/authorize");
    expect((res.body as Record<string, unknown>).client_id_metadata_document_supported).toBe(true);
    expect(meta.scopes_supported).toContain("card:edit");
  });

  test("/mcp without credentials: 401 naming the resource metadata", async () => {
    const res = await env.app.handle(new Request("http://localhost/mcp", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('resource_metadata="http://localhost/.well-known/oauth-protected-resource"');
    // Elsewhere the challenge stays as it was.
    const api = await env.call("GET", "/api/auth/me", { key: null });
    expect(api.headers.get("www-authenticate")).not.toContain("resource_metadata");
  });
});

describe("the SDK client's flow", () => {
  test("connects, lists tools, calls one the scope allows and is refused one it does not; audited with the client's name", async () => {
    const { client, provider } = await connectWithOAuth(env, { members: "view" });
    expect(provider.saved?.scope).toBe("members:view");
    const tools = await client.listTools();
    expect(tools.tools.length).toBeGreaterThan(5);
    const who = await callTool(client, "whoami");
    expect(who.isError).toBe(false);
    expect(who.body.scopes).toEqual({ members: "view" });
    const listed = await callTool(client, "list_members");
    expect(listed.isError).toBe(false);
    const refused = await callTool(client, "list_events");
    expect(refused.isError).toBe(true);
    expect(refused.body.code).toBe("SCOPE_MISSING");
    await client.close();
    await env.app.audit.drain();
    const log = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?key_prefix=${encodeURIComponent("oauth:Test assistant")}&limit=100`);
    const rows = (log.body as { items: { tool: string | null; via: string; admin_id: string }[] }).items;
    expect(rows.map((r) => r.tool)).toContain("list_events");
    expect(rows.every((r) => r.via === "mcp" && r.admin_id === env.adminId)).toBe(true);
    // The grant shows when it was last used, as a key does.
    const session = (await adminBrowser(env)).jar.get("club_session") as string;
    const grants = (await env.call("GET", "/api/account/oauth-grants", { key: session })).body as { client_name: string; last_used_at: string | null }[];
    expect(grants.find((g) => g.client_name === "Test assistant")?.last_used_at).toEqual(expect.any(String));
  });

  test("an API key keeps working beside tokens", async () => {
    const res = await mcpPing(env.key);
    expect(res.status).toBe(200);
  });

  test("a refreshed token keeps working; the old refresh token used again revokes the grant", async () => {
    const { clientId, tokens } = await tokensFor();
    const refreshed = await formPost(env, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string, client_id: clientId });
    expect(refreshed.status).toBe(200);
    const fresh = OAuthTokensSchema.parse(refreshed.body);
    expect(fresh.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpPing(fresh.access_token)).status).toBe(200);
    const reused = await formPost(env, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string, client_id: clientId });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
    // The whole grant ended: the new access token and the new refresh token too.
    expect((await mcpPing(fresh.access_token)).status).toBe(401);
    const after = await formPost(env, "/oauth/token", { grant_type: "refresh_token", refresh_token: fresh.refresh_token as string, client_id: clientId });
    expect(after.body.error).toBe("invalid_grant");
  });
});

describe("refusals", () => {
  test("a wrong resource: at the authorize page (redirected with invalid_target) and at the token endpoint", async () => {
    const clientId = await register();
    const admin = await adminBrowser(env);
    const page = await admin.request("GET", (({ pathname, search }) => pathname + search)(authorizeUrl(clientId, { resource: "https://evil.example/mcp" })));
    expect(page.status).toBe(303);
    const location = new URL(page.headers.get("location") as string);
    expect(location.searchParams.get("error")).toBe("invalid_target");
    const { clientId: c2, code } = await codeFor();
    const res = await formPost(env, "/oauth/token", {
      grant_type: "authorization_code",
      code,
      client_id: c2,
      code_verifier: VERIFIER,
      redirect_uri: REDIRECT,
      resource: "http://localhost/api",
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_target");
  });

  test("the token and revocation endpoints refuse a request missing what it must name, in OAuth's shape", async () => {
    const a = await codeFor();
    for (const [path, body, error] of [
      ["/oauth/token", { grant_type: "authorization_code", code: a.code, code_verifier: VERIFIER }, "invalid_request"],
      ["/oauth/token", { grant_type: "authorization_code", client_id: a.clientId }, "invalid_request"],
      ["/oauth/token", { grant_type: "refresh_token", client_id: a.clientId }, "invalid_request"],
      ["/oauth/token", { grant_type: "password", client_id: a.clientId, username: "x", password: "y" }, "unsupported_grant_type"],
      ["/oauth/token", { client_id: a.clientId }, "unsupported_grant_type"],
      ["/oauth/revoke", { client_id: a.clientId }, "invalid_request"],
    ] as const) {
      const res = await formPost(env, path, body);
      expect({ path, body, status: res.status, error: res.body.error }).toEqual({ path, body, status: 400, error });
    }
    // None of these spent the code: it still gives tokens.
    const tokens = await formPost(env, "/oauth/token", {
      grant_type: "authorization_code",
      code: a.code,
      client_id: a.clientId,
      code_verifier: VERIFIER,
      redirect_uri: REDIRECT,
    });
    expect(tokens.status).toBe(200);
  });

  test("a missing or wrong PKCE verifier is refused, and the code is spent by the attempt", async () => {
    const a = await codeFor();
    const missing = await formPost(env, "/oauth/token", { grant_type: "authorization_code", code: a.code, client_id: a.clientId, redirect_uri: REDIRECT });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_request");
    const b = await codeFor();
    const exchange = (code_verifier: string) =>
      formPost(env, "/oauth/token", { grant_type: "authorization_code", code: b.code, client_id: b.clientId, code_verifier, redirect_uri: REDIRECT });
    const wrong = await exchange("w".repeat(50));
    expect(wrong.body.error).toBe("invalid_grant");
    const retried = await exchange(VERIFIER);
    expect(retried.body.error).toBe("invalid_grant");
    expect(Object.keys(retried.body).sort()).toEqual(["error", "error_description"]);
  });

  test("PKCE `plain` and a missing challenge are refused back to the client", async () => {
    const clientId = await register();
    const admin = await adminBrowser(env);
    for (const extra of [
      { code_challenge_method: "plain", code_challenge: VERIFIER },
      { code_challenge: null, code_challenge_method: null },
    ]) {
      const url = authorizeUrl(clientId, extra);
      const page = await admin.request("GET", url.pathname + url.search);
      expect(page.status).toBe(303);
      const location = new URL(page.headers.get("location") as string);
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("state")).toBe("st4te");
    }
  });

  test("a parameter given twice is invalid_request (RFC 6749 section 3.1): sent back to the client, or shown when it is client_id or redirect_uri", async () => {
    const clientId = await register();
    const admin = await adminBrowser(env);
    for (const name of ["scope", "state", "response_type", "code_challenge", "resource"]) {
      const url = authorizeUrl(clientId);
      url.searchParams.append(name, url.searchParams.get(name) as string);
      const page = await admin.request("GET", url.pathname + url.search);
      expect({ name, status: page.status }).toEqual({ name, status: 303 });
      const location = new URL(page.headers.get("location") as string);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("error_description")).toContain(`${name} given more than once`);
    }
    for (const name of ["client_id", "redirect_uri"]) {
      const url = authorizeUrl(clientId);
      url.searchParams.append(name, url.searchParams.get(name) as string);
      const page = await admin.request("GET", url.pathname + url.search);
      expect({ name, status: page.status, location: page.headers.get("location") }).toEqual({ name, status: 400, location: null });
    }
  });

  test("a foreign redirect URI is shown to the admin, never redirected to; registration refuses a non-loopback http one", async () => {
    const clientId = await register();
    const admin = await adminBrowser(env);
    const url = authorizeUrl(clientId, { redirect_uri: "https://evil.example/callback" });
    const page = await admin.request("GET", url.pathname + url.search);
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
    expect(page.text).toContain("https://evil.example/callback");
    // Any port on loopback is the same local client (RFC 8252).
    const otherPort = authorizeUrl(clientId, { redirect_uri: "http://127.0.0.1:50111/callback" });
    expect((await admin.request("GET", otherPort.pathname + otherPort.search)).status).toBe(200);
    const res = await env.call("POST", "/oauth/register", { key: null, body: { client_name: "x", redirect_uris: ["http://evil.example/cb"] }, headers: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_redirect_uri", error_description: expect.any(String) });
  });

  test("the code is single use: a second exchange revokes what the first gave", async () => {
    const { clientId, code } = await codeFor();
    const form = { grant_type: "authorization_code", code, client_id: clientId, code_verifier: VERIFIER, redirect_uri: REDIRECT };
    const first = await formPost(env, "/oauth/token", form);
    expect(first.status).toBe(200);
    const second = await formPost(env, "/oauth/token", form);
    expect(second.body.error).toBe("invalid_grant");
    expect((await mcpPing(first.body.access_token)).status).toBe(401);
  });

  test("a token is for /mcp only (its audience): the REST API refuses it", async () => {
    const { tokens } = await tokensFor();
    expect((await mcpPing(tokens.access_token)).status).toBe(200);
    const res = await env.call("GET", "/api/auth/me", { key: tokens.access_token });
    expect(res.status).toBe(401);
  });

  test("deny sends access_denied back", async () => {
    const clientId = await register();
    const admin = await adminBrowser(env);
    const { location } = await admin.consent(authorizeUrl(clientId), { decision: "deny" });
    expect(location?.searchParams.get("error")).toBe("access_denied");
    expect(location?.searchParams.get("code")).toBeNull();
  });

  test("the consent form without its CSRF token is refused", async () => {
    const clientId = await register();
    const admin = await adminBrowser(env);
    const url = authorizeUrl(clientId);
    const form = Object.fromEntries(url.searchParams);
    const res = await admin.request("POST", "/admin/oauth/authorize", { form: { ...form, decision: "allow", scope_members: "view" } });
    expect(res.status).toBe(403);
    expect(res.headers.get("location")).toBeNull();
  });

  test("not signed in: the authorize page sends the admin to the sign-in, which comes back to it", async () => {
    const clientId = await register();
    const url = authorizeUrl(clientId);
    const res = await env.app.handle(new Request(url));
    expect(res.status).toBe(303);
    const login = new URL(res.headers.get("location") as string, "http://localhost");
    expect(login.pathname).toBe("/admin/login");
    expect(login.searchParams.get("next")).toBe(url.pathname + url.search);
  });

  test("no scope asked: view of every area preselected; allowing with none picked shows the form again, sends nothing", async () => {
    const clientId = await register();
    const admin = await adminBrowser(env);
    const url = authorizeUrl(clientId, { scope: null });
    const page = await admin.request("GET", url.pathname + url.search);
    expect(page.status).toBe(200);
    expect(page.text.match(/<option value="view" selected/g)?.length).toBe(7);
    expect(page.text).not.toMatch(/<option value="edit" selected/);
    const { page: again, location } = await admin.consent(url, { decision: "allow", scopes: {} });
    expect(location).toBeNull();
    expect(again.status).toBe(422);
    expect(again.text).toContain('name="client_id"');
  });

  test("a read-only admin is offered view only, and cannot grant edit", async () => {
    const viewer = await env.makeAdmin({ readOnly: true });
    const clientId = await register();
    const admin = await adminBrowser(env, viewer.email, "admin-password");
    const url = authorizeUrl(clientId, { scope: "members:edit" });
    const page = await admin.request("GET", url.pathname + url.search);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('value="edit"');
    expect(page.text).toMatch(/<option value="view" selected/);
    const { page: refused, location } = await admin.consent(url, { decision: "allow", scopes: { members: "edit" } });
    expect(location).toBeNull();
    expect(refused.status).toBe(403);
  });
});

describe("grants with the keys", () => {
  test("listed under the client's name without secrets, revoked from the account routes: tokens end at once", async () => {
    const { clientId, tokens } = await tokensFor({ events: "view" });
    const b = await adminBrowser(env);
    const session = (b.jar.get("club_session") as string) ?? "";
    const list = await env.call("GET", "/api/account/oauth-grants", { key: session });
    expect(list.status).toBe(200);
    const grant = (list.body as { id: string; client_id: string; client_name: string; scopes: unknown }[]).find((g) => g.client_id === clientId);
    expect(grant?.client_name).toBe("Raw client");
    expect(grant?.scopes).toEqual({ events: "view" });
    expect(JSON.stringify(list.body)).not.toContain(tokens.access_token);
    // A key may not list or revoke grants (account routes are for sessions).
    expect((await env.call("GET", "/api/account/oauth-grants")).status).toBe(403);
    const revoked = await env.call("DELETE", `/api/account/oauth-grants/${grant?.id}`, { key: session });
    expect(revoked.status).toBe(200);
    expect((revoked.body as { revoked_reason: string }).revoked_reason).toBe("revoked");
    expect((await mcpPing(tokens.access_token)).status).toBe(401);
    const refresh = await formPost(env, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token as string, client_id: clientId });
    expect(refresh.body.error).toBe("invalid_grant");
    expect((await env.call("DELETE", `/api/account/oauth-grants/${grant?.id}`, { key: session })).status).toBe(409);
  });

  test("the dashboard's keys page lists a grant under its client's name and revokes it: tokens end at once", async () => {
    const { clientId, tokens } = await tokensFor({ members: "view" });
    const b = await adminBrowser(env);
    const [grant] = (await env.call("GET", "/api/account/oauth-grants", { key: (b.jar.get("club_session") as string) ?? "" })).body.filter(
      (g: { client_id: string }) => g.client_id === clientId,
    );
    const page = await b.request("GET", "/admin/keys");
    expect(page.text).toContain("Assistant (OAuth)");
    expect(page.text).toContain(`/admin/keys/grants/${grant.id}/revoke`);
    expect(page.text).not.toContain(tokens.access_token);
    const revoked = await b.post(`/admin/keys/grants/${grant.id}/revoke`, {}, "/admin/keys");
    expect(revoked.status).toBe(303);
    expect((await mcpPing(tokens.access_token)).status).toBe(401);
    expect((await b.request("GET", "/admin/keys")).text).not.toContain(`/admin/keys/grants/${grant.id}/revoke`);
  });

  test("the CLI lists grants with the keys and revokes one", async () => {
    const { clientId, tokens } = await tokensFor({ members: "view" });
    const cli = async (...args: string[]) => {
      const proc = Bun.spawn(["bun", "scripts/cli.ts", ...args, "--json"], {
        cwd: `${import.meta.dir}/../..`,
        env: { ...process.env, DATABASE_URL: env.config.databaseUrl },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      return { code, json: JSON.parse(out) };
    };
    const listed = await cli("keys", "list", "--club", env.clubId);
    expect(listed.code).toBe(0);
    expect(listed.json.keys.length).toBeGreaterThan(0);
    const grant = listed.json.grants.find((g: { client_id: string }) => g.client_id === clientId);
    expect(grant.client_name).toBe("Raw client");
    expect(JSON.stringify(listed.json)).not.toContain(tokens.refresh_token);
    expect((await cli("grants", "revoke", grant.id)).json).toEqual({ revoked: true });
    expect((await mcpPing(tokens.access_token)).status).toBe(401);
  });

  test("RFC 7009 revocation by the client ends the grant", async () => {
    const { clientId, tokens } = await tokensFor();
    const res = await formPost(env, "/oauth/revoke", { token: tokens.refresh_token as string, client_id: clientId });
    expect(res.status).toBe(200);
    expect((await mcpPing(tokens.access_token)).status).toBe(401);
  });

  test("a body that is not JSON is refused in OAuth's shape, not the house one", async () => {
    for (const [path, error] of [
      ["/oauth/register", "invalid_client_metadata"],
      ["/oauth/token", "invalid_request"],
    ]) {
      const res = await env.app.handle(
        new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" }),
        `198.51.100.${path.length}`,
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error, error_description: expect.any(String) });
    }
  });

  test("registration answers RFC 7591's shape (the SDK's schema)", async () => {
    const res = await env.call("POST", "/oauth/register", { key: null, body: { client_name: "Shape", redirect_uris: ["https://app.example/cb"] } });
    expect(res.status).toBe(201);
    const info = OAuthClientInformationFullSchema.parse(res.body);
    expect(info.token_endpoint_auth_method).toBe("none");
    expect((res.body as Record<string, unknown>).client_secret).toBeUndefined();
  });
});

test("the SDK client is sent to sign in again when its grant is revoked", async () => {
  const provider = new MemoryProvider("Revoked assistant");
  const { client } = await connectWithOAuth(env, { members: "view" }, provider);
  await client.close();
  const b = await adminBrowser(env);
  const session = b.jar.get("club_session") as string;
  const list = (await env.call("GET", "/api/account/oauth-grants", { key: session })).body as { id: string; client_name: string; revoked_at: string | null }[];
  const grant = list.find((g) => g.client_name === "Revoked assistant" && !g.revoked_at);
  expect((await env.call("DELETE", `/api/account/oauth-grants/${grant?.id}`, { key: session })).status).toBe(200);
  provider.authorizeUrl = null;
  const again = new Client({ name: "oauth-test", version: "1.0" });
  const failed = await again.connect(transportFor(env, provider)).then(
    () => null,
    (err: unknown) => err,
  );
  expect(String(failed)).toContain("Unauthorized");
  expect(provider.authorizeUrl).not.toBeNull();
});

test("a token counts against the rate limit per grant, as a key does (RATE_LIMIT_PER_MINUTE)", async () => {
  const small = await setup({ RATE_LIMIT_PER_MINUTE: "3" });
  try {
    const owner = await resolveCaller(small.db, `Bearer ${small.key}`);
    const client = await registerClient(small.db, { client_name: "Busy", redirect_uris: [REDIRECT] });
    const code = await issueCode(small.db, owner, {
      client: { client_id: client.client_id, kind: "registered", client_name: "Busy", client_uri: null, redirect_uris: [REDIRECT] },
      redirectUri: REDIRECT,
      redirectUriGiven: true,
      scopes: { members: "view" },
      resource: "http://localhost/mcp",
      codeChallenge: challengeOf(VERIFIER),
    });
    const tokens = await exchangeCode(small.db, { code, clientId: client.client_id, codeVerifier: VERIFIER, redirectUri: REDIRECT, resource: undefined });
    const ping = () =>
      small.app.handle(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
      );
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ping()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The key's own budget is apart from the grant's.
    expect((await small.call("GET", "/api/auth/me")).status).toBe(200);
  } finally {
    await small.close();
  }
});
