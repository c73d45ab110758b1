// OAuth grants (DESIGN.md section 17): what an admin allowed a client on the consent page, and
// the secrets that carry it. An authorization code (single use, two minutes, bound to its client,
// redirect URI, PKCE S256 challenge and resource) becomes a grant with an access token (one hour,
// bound to the resource: BASE_URL/mcp) and a refresh token (30 days) that rotates at each use; a
// refresh token used twice, or a code used twice, revokes the grant it belongs to. Only hashes
// are stored. Grants are listed beside the API keys and revoked like them: revoking ends every
// token of the grant at once (lib/auth/caller checks the grant on every call).
import { createHash } from "node:crypto";
import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import type { Db, Queryable } from "../../db";
import { admins, oauthCodes, oauthGrants, oauthTokens } from "../../db/schema";
import { type AdminCaller, AREAS, type Area, type Caller, LEVELS, type Level, mayRevokeCredentialOf, type Scope, type Scopes, ScopesSchema } from "../access";
import { ACCESS_TOKEN_PREFIX, adminAccessEnded, REFRESH_TOKEN_PREFIX } from "../auth/caller";
import { Conflict, Forbidden, NotFound, OAuthRefused } from "../errors";
import { newId, nowIso, randomBase62, sha256Hex } from "../ids";
import { recurringJob } from "../jobs";
import type { OAuthClient } from "./clients";

export const CODE_TTL_SECONDS = 120;
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 86400;

/** Every scope string a token may carry: the key scopes, `members:view` ... `card:edit`. */
export const SCOPES_SUPPORTED: Scope[] = AREAS.flatMap((a) => LEVELS.map((l) => `${a}:${l}` as Scope));

/** `members:view events:edit` (OAuth's space-separated form). */
export function scopeString(scopes: Scopes): string {
  return Object.entries(scopes)
    .map(([a, l]) => `${a}:${l}`)
    .join(" ");
}

/** Parses OAuth's `scope` parameter; unknown scopes are left out (RFC 6749 section 3.3 lets the server choose). */
export function parseScopeParam(text: string | null | undefined): Scopes {
  const scopes: Scopes = {};
  for (const part of (text ?? "").split(/\s+/).filter(Boolean)) {
    const [area, level] = part.split(":") as [Area, Level];
    if (!AREAS.includes(area) || !LEVELS.includes(level)) continue;
    if (scopes[area] !== "edit") scopes[area] = level;
  }
  return scopes;
}

/** Whether every scope of `asked` is within `held`. */
function within(asked: Scopes, held: Scopes): boolean {
  return Object.entries(asked).every(([a, l]) => held[a as Area] === "edit" || held[a as Area] === l);
}

const S256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");
/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** What an S256 challenge looks like: the base64url of 32 bytes. */
export const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
};

/**
 * An authorization code for what the signed-in admin allowed `client` (the consent page's
 * "allow"). The scopes never exceed the admin's: more (a read-only admin's edit) is refused
 * (403 SCOPES_EXCEED_ADMIN), as for a key.
 */
export async function issueCode(
  db: Db,
  actor: AdminCaller,
  input: { client: OAuthClient; redirectUri: string; redirectUriGiven: boolean; scopes: Scopes; resource: string; codeChallenge: string },
): Promise<string> {
  if (!within(input.scopes, actor.scopes) || (actor.readOnly && Object.values(input.scopes).includes("edit"))) throw new Forbidden("SCOPES_EXCEED_ADMIN");
  const code = randomBase62(43);
  const now = Date.now();
  await db.tx((t) =>
    t.insert(oauthCodes).values({
      id: newId(),
      code_hash: sha256Hex(code),
      club_id: actor.clubId,
      admin_id: actor.adminId,
      client_id: input.client.client_id,
      client_name: input.client.client_name,
      scopes: input.scopes,
      resource: input.resource,
      redirect_uri: input.redirectUri,
      redirect_uri_given: input.redirectUriGiven,
      code_challenge: input.codeChallenge,
      expires_at: new Date(now + CODE_TTL_SECONDS * 1000).toISOString(),
      used_at: null,
      grant_id: null,
      created_at: new Date(now).toISOString(),
    }),
  );
  return code;
}

/**
 * A new access and refresh token for `grantId`, written with `t`. The access token carries
 * `narrowed` when a refresh asked for less than the grant; the refresh token always the grant's
 * scopes (RFC 6749 section 6: a new refresh token's scope is the one presented).
 */
async function issueTokens(t: Queryable, grantId: string, scopes: Scopes, now: number, narrowed: Scopes | null = null): Promise<TokenResponse> {
  const access = ACCESS_TOKEN_PREFIX + randomBase62(43);
  const refresh = REFRESH_TOKEN_PREFIX + randomBase62(43);
  const created_at = new Date(now).toISOString();
  await t.insert(oauthTokens).values([
    {
      id: newId(),
      grant_id: grantId,
      kind: "access",
      token_hash: sha256Hex(access),
      scopes: narrowed,
      expires_at: new Date(now + ACCESS_TOKEN_TTL_SECONDS * 1000).toISOString(),
      created_at,
    },
    {
      id: newId(),
      grant_id: grantId,
      kind: "refresh",
      token_hash: sha256Hex(refresh),
      expires_at: new Date(now + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
      created_at,
    },
  ]);
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refresh,
    scope: scopeString(narrowed ?? scopes),
  };
}

const revoke = (t: Queryable, grantId: string, reason: string) =>
  t.update(oauthGrants).set({ revoked_at: nowIso(), revoked_reason: reason }).where(eq(oauthGrants.id, grantId));

/** The admin behind a grant may still act (not removed, access not ended). */
async function adminActive(t: Queryable, adminId: string, now: Date): Promise<boolean> {
  const [admin] = await t.select().from(admins).where(eq(admins.id, adminId)).limit(1);
  return !!admin && !adminAccessEnded(admin, now);
}

/**
 * The token request of the authorization code grant (RFC 6749 section 4.1.3 with PKCE, RFC
 * 7636, and RFC 8707's resource). The code is spent by any attempt that names it, so a wrong
 * verifier cannot be retried; a second use of a code that made a grant revokes that grant.
 * Refusals: `invalid_grant`, `invalid_target`, `invalid_request`.
 */
export async function exchangeCode(
  db: Db,
  input: { code: string; clientId: string; codeVerifier: string | undefined; redirectUri: string | undefined; resource: string | undefined },
  now = new Date(),
): Promise<TokenResponse> {
  const outcome = await db.tx(async (t): Promise<TokenResponse | OAuthRefused> => {
    const [code] = await t
      .select()
      .from(oauthCodes)
      .where(eq(oauthCodes.code_hash, sha256Hex(input.code)))
      .limit(1);
    if (!code) return new OAuthRefused("invalid_grant", "unknown authorization code");
    if (code.used_at) {
      if (code.grant_id) await revoke(t, code.grant_id, "code_reused");
      return new OAuthRefused("invalid_grant", "authorization code already used; the access it gave is revoked");
    }
    await t.update(oauthCodes).set({ used_at: now.toISOString() }).where(eq(oauthCodes.id, code.id));
    if (Date.parse(code.expires_at) <= now.getTime()) return new OAuthRefused("invalid_grant", "authorization code expired");
    if (code.client_id !== input.clientId) return new OAuthRefused("invalid_grant", "authorization code was issued to another client");
    // RFC 6749 section 4.1.3: required when the authorization request named it, and then the same.
    if (code.redirect_uri_given && input.redirectUri === undefined)
      return new OAuthRefused("invalid_request", "redirect_uri is required: the authorization request named it");
    if (input.redirectUri !== undefined && input.redirectUri !== code.redirect_uri)
      return new OAuthRefused("invalid_grant", "redirect_uri differs from the authorization request's");
    if (!input.codeVerifier) return new OAuthRefused("invalid_request", "code_verifier is required (PKCE)");
    if (!VERIFIER.test(input.codeVerifier) || S256(input.codeVerifier) !== code.code_challenge)
      return new OAuthRefused("invalid_grant", "code_verifier does not match the code_challenge");
    if (input.resource !== undefined && input.resource !== code.resource)
      return new OAuthRefused("invalid_target", `resource must be ${code.resource}, as in the authorization request`);
    if (!(await adminActive(t, code.admin_id, now))) return new OAuthRefused("invalid_grant", "the admin who allowed this client no longer has access");
    const grantId = newId();
    await t.insert(oauthGrants).values({
      id: grantId,
      club_id: code.club_id,
      admin_id: code.admin_id,
      client_id: code.client_id,
      client_name: code.client_name,
      scopes: code.scopes,
      resource: code.resource,
      created_at: now.toISOString(),
    });
    await t.update(oauthCodes).set({ grant_id: grantId }).where(eq(oauthCodes.id, code.id));
    return issueTokens(t, grantId, code.scopes as Scopes, now.getTime());
  });
  if (outcome instanceof OAuthRefused) throw outcome;
  return outcome;
}

/**
 * The refresh token grant (RFC 6749 section 6): the token is spent and a new pair issued. A
 * spent token presented again means it leaked (or the client lost an answer): the grant is
 * revoked, every token of it ends (OAuth 2.1 section 4.3.1). `scope` narrows the new access
 * token (the answer's `scope` says so; the new refresh token keeps the grant's), and may ask
 * nothing beyond the grant nor name none of its scopes (`invalid_scope`); `resource` must be
 * the grant's (`invalid_target`).
 */
export async function refreshTokens(
  db: Db,
  input: { refreshToken: string; clientId: string; resource: string | undefined; scope: string | undefined },
  now = new Date(),
): Promise<TokenResponse> {
  const outcome = await db.tx(async (t): Promise<TokenResponse | OAuthRefused> => {
    const [row] = await t
      .select({ token: oauthTokens, grant: oauthGrants })
      .from(oauthTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grant_id))
      .where(and(eq(oauthTokens.token_hash, sha256Hex(input.refreshToken)), eq(oauthTokens.kind, "refresh")))
      .limit(1);
    if (!row) return new OAuthRefused("invalid_grant", "unknown refresh token");
    const { token, grant } = row;
    if (grant.client_id !== input.clientId) return new OAuthRefused("invalid_grant", "refresh token was issued to another client");
    if (grant.revoked_at) return new OAuthRefused("invalid_grant", "this access was revoked");
    if (token.rotated_at) {
      await revoke(t, grant.id, "refresh_token_reused");
      return new OAuthRefused("invalid_grant", "refresh token already used; the access it gave is revoked");
    }
    if (Date.parse(token.expires_at) <= now.getTime()) return new OAuthRefused("invalid_grant", "refresh token expired");
    if (input.resource !== undefined && input.resource !== grant.resource) return new OAuthRefused("invalid_target", `resource must be ${grant.resource}`);
    const scopes = grant.scopes as Scopes;
    const asked = input.scope === undefined ? null : parseScopeParam(input.scope);
    if (asked && !within(asked, scopes)) return new OAuthRefused("invalid_scope", "scope exceeds what was allowed");
    if (asked && !Object.keys(asked).length) return new OAuthRefused("invalid_scope", "scope names none of the scopes allowed");
    if (!(await adminActive(t, grant.admin_id, now))) return new OAuthRefused("invalid_grant", "the admin who allowed this client no longer has access");
    await t.update(oauthTokens).set({ rotated_at: now.toISOString() }).where(eq(oauthTokens.id, token.id));
    // The whole grant asked again is no narrowing: the token carries the grant's (null).
    const narrowed = asked && !within(scopes, asked) ? asked : null;
    return issueTokens(t, grant.id, scopes, now.getTime(), narrowed);
  });
  if (outcome instanceof OAuthRefused) throw outcome;
  return outcome;
}

/** A form or JSON body's string field; anything else (absent, repeated, not text, empty) is undefined. */
export function formField(body: unknown, name: string): string | undefined {
  const value = body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The token endpoint's request (POST /oauth/token, a form or JSON body): the authorization code
 * grant (exchangeCode) or the refresh token grant (refreshTokens), by `grant_type`. A public
 * client names itself (`client_id`, else `invalid_request`); a missing code or refresh token is
 * `invalid_request`, another grant type `unsupported_grant_type`.
 */
export async function tokenRequest(db: Db, body: unknown): Promise<TokenResponse> {
  const field = (name: string) => formField(body, name);
  const clientId = field("client_id");
  if (!clientId) throw new OAuthRefused("invalid_request", "client_id is required (public clients name themselves)");
  const resource = field("resource");
  switch (field("grant_type")) {
    case "authorization_code": {
      const code = field("code");
      if (!code) throw new OAuthRefused("invalid_request", "code is required");
      return exchangeCode(db, { code, clientId, codeVerifier: field("code_verifier"), redirectUri: field("redirect_uri"), resource });
    }
    case "refresh_token": {
      const refreshToken = field("refresh_token");
      if (!refreshToken) throw new OAuthRefused("invalid_request", "refresh_token is required");
      return refreshTokens(db, { refreshToken, clientId, resource, scope: field("scope") });
    }
    default:
      throw new OAuthRefused("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
  }
}

/** The revocation endpoint's request (POST /oauth/revoke): `token` required (`invalid_request`), then revokeByToken. */
export async function revokeRequest(db: Db, body: unknown): Promise<void> {
  const token = formField(body, "token");
  if (!token) throw new OAuthRefused("invalid_request", "token is required");
  await revokeByToken(db, token, formField(body, "client_id"));
}

/**
 * RFC 7009 revocation by the client: an access or refresh token of ours revokes its whole grant.
 * An unknown token is no error (section 2.2): the answer is the same either way.
 */
export async function revokeByToken(db: Db, token: string, clientId: string | undefined): Promise<void> {
  await db.tx(async (t) => {
    const [row] = await t
      .select({ grant: oauthGrants })
      .from(oauthTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grant_id))
      .where(eq(oauthTokens.token_hash, sha256Hex(token)))
      .limit(1);
    if (!row || row.grant.revoked_at || (clientId !== undefined && clientId !== row.grant.client_id)) return;
    await revoke(t, row.grant.id, "revoked");
  });
}

export const OAuthGrantItem = z
  .object({
    id: z.uuid(),
    client_id: z.string(),
    client_name: z.string().meta({ description: "The client's name as the consent page showed it (chosen by the client: not verified)." }),
    admin_id: z.uuid(),
    scopes: ScopesSchema,
    resource: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    revoked_reason: z.enum(["revoked", "refresh_token_reused", "code_reused"]).nullable(),
  })
  .meta({ id: "OAuthGrantItem" });
export type OAuthGrantItem = z.infer<typeof OAuthGrantItem>;

const toItem = (row: typeof oauthGrants.$inferSelect): OAuthGrantItem => ({
  id: row.id,
  client_id: row.client_id,
  client_name: row.client_name,
  admin_id: row.admin_id,
  scopes: row.scopes as Scopes,
  resource: row.resource,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  revoked_at: row.revoked_at,
  revoked_reason: row.revoked_reason as OAuthGrantItem["revoked_reason"],
});

/** Every grant of the club (what assistants were allowed), newest first, revoked ones included. No secret in it. */
export async function listGrants(db: Db, clubId: string): Promise<OAuthGrantItem[]> {
  const rows = await db.read.select().from(oauthGrants).where(eq(oauthGrants.club_id, clubId)).orderBy(desc(oauthGrants.created_at));
  return rows.map(toItem);
}

/**
 * Revokes a grant: its access and refresh tokens answer 401 from the next call. The rules of
 * revokeApiKey: from a session, the grant must be of the caller's club, another admin's grant
 * needs `access_control: edit`; the CLI (no `by`) acts on any. 404 GRANT_NOT_FOUND, 409
 * GRANT_ALREADY_REVOKED, 403 GRANT_OF_ANOTHER_ADMIN.
 */
export async function revokeGrant(db: Db, grantId: string, by?: { clubId: string; actor: Caller }): Promise<OAuthGrantItem> {
  return db.tx(async (t) => {
    const match = eq(oauthGrants.id, grantId);
    const [grant] = await t
      .select()
      .from(oauthGrants)
      .where(by ? and(match, eq(oauthGrants.club_id, by.clubId)) : match)
      .limit(1);
    if (!grant) throw new NotFound("GRANT_NOT_FOUND");
    if (by && !mayRevokeCredentialOf(by.actor, grant.admin_id)) throw new Forbidden("GRANT_OF_ANOTHER_ADMIN");
    if (grant.revoked_at) throw new Conflict("GRANT_ALREADY_REVOKED");
    const [row] = await revoke(t, grant.id, "revoked").returning();
    return toItem(row);
  });
}

/** Expired codes and tokens are kept a day past their end (a late reuse still reads as spent), then deleted. */
const EXPIRED_KEEP_MS = 86_400_000;

/**
 * Deletes the codes and tokens that ended more than a day before `now` (a spent refresh token is
 * kept until its own end, so a reuse is caught for as long as it could have worked). Grants stay:
 * they are the list of what was allowed. Answers how many rows went.
 */
export async function purgeExpiredOAuth(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - EXPIRED_KEEP_MS).toISOString();
  return db.tx(async (t) => {
    const codes = await t.delete(oauthCodes).where(lt(oauthCodes.expires_at, before)).returning({ id: oauthCodes.id });
    const tokens = await t.delete(oauthTokens).where(lt(oauthTokens.expires_at, before)).returning({ id: oauthTokens.id });
    return codes.length + tokens.length;
  });
}

export const OAUTH_PURGE = "oauth.purge";
/** Daily: an hourly access token per client would otherwise pile up for ever. */
export const oauthPurge = recurringJob(OAUTH_PURGE, 86_400_000, async (db, env) => `${await purgeExpiredOAuth(db, env.now)} OAuth codes and tokens purged`);
