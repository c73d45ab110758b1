// The grant rules of lib/oauth/grants that the end-to-end flow (test/mcp/oauth.test.ts) never
// reaches: a code or refresh token presented by another client, too late, for another redirect
// URI, with a wider scope, or after its admin's access ended; and who may revoke a grant.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { admins, oauthGrants, oauthTokens } from "../../db/schema";
import type { Scopes } from "../../lib/access";
import { resolveCaller } from "../../lib/auth/caller";
import { OAuthRefused } from "../../lib/errors";
import { sha256Hex } from "../../lib/ids";
import { registerClient } from "../../lib/oauth/clients";
import { exchangeCode, issueCode, refreshTokens, revokeGrant } from "../../lib/oauth/grants";
import { setup, type TestEnv } from "../helpers";
import { refusalOf } from "../refusal";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const REDIRECT = "https://app.example/cb";
const VERIFIER = "v".repeat(43);
const CHALLENGE = createHash("sha256").update(VERIFIER).digest("base64url");
const RESOURCE = "http://localhost/mcp";

/** A code of the admin behind `key` for a freshly registered client. */
async function codeFor(key = env.key, scopes: Scopes = { members: "view" }) {
  const client = await registerClient(env.db, { client_name: "Grants test", redirect_uris: [REDIRECT, "https://app.example/other"] });
  const actor = await resolveCaller(env.db, `Bearer ${key}`);
  const code = await issueCode(env.db, actor, {
    client: { client_id: client.client_id, kind: "registered", client_name: "Grants test", client_uri: null, redirect_uris: client.redirect_uris },
    redirectUri: REDIRECT,
    redirectUriGiven: false,
    scopes,
    resource: RESOURCE,
    codeChallenge: CHALLENGE,
  });
  return { clientId: client.client_id, code };
}

const exchange = (code: string, clientId: string, extra: { redirectUri?: string } = {}, now?: Date) =>
  exchangeCode(env.db, { code, clientId, codeVerifier: VERIFIER, redirectUri: extra.redirectUri ?? REDIRECT, resource: undefined }, now);

/** The OAuth error code a refused promise carries. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const err = await refusalOf(promise);
  expect(err).toBeInstanceOf(OAuthRefused);
  return (err as OAuthRefused).error;
}

describe("the authorization code", () => {
  test("presented by another client: invalid_grant", async () => {
    const { code } = await codeFor();
    const other = await codeFor();
    expect(await refusal(exchange(code, other.clientId))).toBe("invalid_grant");
  });

  test("without the redirect_uri its authorization request named: invalid_request (RFC 6749 section 4.1.3); with it, tokens", async () => {
    const client = await registerClient(env.db, { client_name: "Named", redirect_uris: [REDIRECT] });
    const actor = await resolveCaller(env.db, `Bearer ${env.key}`);
    const issue = (redirectUriGiven: boolean) =>
      issueCode(env.db, actor, {
        client: { client_id: client.client_id, kind: "registered", client_name: "Named", client_uri: null, redirect_uris: [REDIRECT] },
        redirectUri: REDIRECT,
        redirectUriGiven,
        scopes: { members: "view" },
        resource: RESOURCE,
        codeChallenge: CHALLENGE,
      });
    const bare = (code: string) =>
      exchangeCode(env.db, { code, clientId: client.client_id, codeVerifier: VERIFIER, redirectUri: undefined, resource: undefined });
    expect(await refusal(bare(await issue(true)))).toBe("invalid_request");
    expect((await exchange(await issue(true), client.client_id)).scope).toBe("members:view");
    // Left out of the authorization request (the client has one redirect URI): it may be left out here too.
    expect((await bare(await issue(false))).scope).toBe("members:view");
  });

  test("with another of the client's redirect URIs than the authorization request's: invalid_grant", async () => {
    const { clientId, code } = await codeFor();
    expect(await refusal(exchange(code, clientId, { redirectUri: "https://app.example/other" }))).toBe("invalid_grant");
  });

  test("after its two minutes: invalid_grant", async () => {
    const { clientId, code } = await codeFor();
    expect(await refusal(exchange(code, clientId, {}, new Date(Date.now() + 121_000)))).toBe("invalid_grant");
  });

  test("its admin's access ended since the consent: invalid_grant, no grant made", async () => {
    const admin = await env.makeAdmin();
    const key = await env.makeKey(env.allEdit, { adminId: admin.id });
    const { clientId, code } = await codeFor(key);
    await env.db.tx((t) => t.update(admins).set({ removed_at: new Date().toISOString() }).where(eq(admins.id, admin.id)));
    expect(await refusal(exchange(code, clientId))).toBe("invalid_grant");
    expect(await env.db.read.select().from(oauthGrants).where(eq(oauthGrants.admin_id, admin.id))).toEqual([]);
  });
});

describe("the refresh token", () => {
  async function tokensFor(key = env.key, scopes: Scopes = { members: "view" }) {
    const { clientId, code } = await codeFor(key, scopes);
    return { clientId, tokens: await exchange(code, clientId) };
  }
  const refresh = (refreshToken: string, clientId: string, extra: { scope?: string } = {}, now?: Date) =>
    refreshTokens(env.db, { refreshToken, clientId, resource: undefined, scope: extra.scope }, now);

  test("presented by another client: invalid_grant, and it still works for its own", async () => {
    const { clientId, tokens } = await tokensFor();
    const other = await codeFor();
    expect(await refusal(refresh(tokens.refresh_token, other.clientId))).toBe("invalid_grant");
    expect((await refresh(tokens.refresh_token, clientId)).scope).toBe("members:view");
  });

  test("after its 30 days: invalid_grant", async () => {
    const { clientId, tokens } = await tokensFor();
    expect(await refusal(refresh(tokens.refresh_token, clientId, {}, new Date(Date.now() + 31 * 86_400_000)))).toBe("invalid_grant");
  });

  test("asking a scope beyond the grant: invalid_scope, and the token is not spent", async () => {
    const { clientId, tokens } = await tokensFor(env.key, { members: "view" });
    expect(await refusal(refresh(tokens.refresh_token, clientId, { scope: "members:edit" }))).toBe("invalid_scope");
    expect(await refusal(refresh(tokens.refresh_token, clientId, { scope: "events:view" }))).toBe("invalid_scope");
    expect((await refresh(tokens.refresh_token, clientId, { scope: "members:view" })).scope).toBe("members:view");
  });

  test("asking fewer scopes narrows the new access token (RFC 6749 section 6); the new refresh token keeps the grant's", async () => {
    const { clientId, tokens } = await tokensFor(env.key, { members: "edit", events: "view" });
    const narrowed = await refresh(tokens.refresh_token, clientId, { scope: "members:view" });
    expect(narrowed.scope).toBe("members:view");
    const caller = await resolveCaller(env.db, `Bearer ${narrowed.access_token}`, new Date(), RESOURCE);
    expect(caller.scopes).toEqual({ members: "view" });
    const [row] = await env.db.read
      .select()
      .from(oauthTokens)
      .where(eq(oauthTokens.token_hash, sha256Hex(narrowed.access_token)));
    expect(row.scopes).toEqual({ members: "view" });
    // The next refresh, asking nothing, gives the whole grant again; asking a scope of none of its areas is refused.
    const whole = await refresh(narrowed.refresh_token, clientId);
    expect(whole.scope).toBe("members:edit events:view");
    expect((await resolveCaller(env.db, `Bearer ${whole.access_token}`, new Date(), RESOURCE)).scopes).toEqual({ members: "edit", events: "view" });
    expect(await refusal(refresh(whole.refresh_token, clientId, { scope: "nothing:here" }))).toBe("invalid_scope");
  });

  test("its admin's access ended: invalid_grant", async () => {
    const admin = await env.makeAdmin();
    const key = await env.makeKey(env.allEdit, { adminId: admin.id });
    const { clientId, tokens } = await tokensFor(key);
    await env.db.tx((t) =>
      t
        .update(admins)
        .set({ access_expires_at: new Date(Date.now() - 1000).toISOString() })
        .where(eq(admins.id, admin.id)),
    );
    expect(await refusal(refresh(tokens.refresh_token, clientId))).toBe("invalid_grant");
  });
});

describe("revoking a grant", () => {
  async function grantOf(key: string) {
    const { clientId, code } = await codeFor(key);
    await exchange(code, clientId);
    const [grant] = await env.db.read.select().from(oauthGrants).where(eq(oauthGrants.client_id, clientId));
    return grant;
  }

  test("another admin's grant needs access_control:edit (403), and is left as it was", async () => {
    const admin = await env.makeAdmin();
    const theirs = await grantOf(await env.makeKey(env.allEdit, { adminId: admin.id }));
    const viewer = await resolveCaller(env.db, `Bearer ${await env.makeKey({ access_control: "view" })}`);
    const refused = await revokeGrant(env.db, theirs.id, { clubId: env.clubId, actor: viewer }).catch((e: { code?: string }) => e.code);
    expect(refused).toBe("GRANT_OF_ANOTHER_ADMIN");
    const [still] = await env.db.read.select().from(oauthGrants).where(eq(oauthGrants.id, theirs.id));
    expect(still.revoked_at).toBeNull();
    const owner = await resolveCaller(env.db, `Bearer ${env.key}`);
    expect((await revokeGrant(env.db, theirs.id, { clubId: env.clubId, actor: owner })).revoked_reason).toBe("revoked");
  });

  test("a grant of another club is not found from this one", async () => {
    const other = await env.otherClub();
    const theirs = await grantOf(other.api_key);
    const owner = await resolveCaller(env.db, `Bearer ${env.key}`);
    expect(await revokeGrant(env.db, theirs.id, { clubId: env.clubId, actor: owner }).catch((e: { code?: string }) => e.code)).toBe("GRANT_NOT_FOUND");
  });
});
