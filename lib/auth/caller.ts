// Who is calling: an API key (acting as the admin who created it, within its scopes) or a
// dashboard session (the admin in person). Resolved from the bearer token before anything else
// of the request is read, so a bad key with a malformed body is still a 401.
import { timingSafeEqual } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { adminSessions, admins, apiKeys, clubs, oauthGrants, oauthTokens } from "../../db/schema";
import { Unauthorized } from "../errors";
import { asLocale, type Locale } from "../i18n";
import { sha256Hex } from "../ids";
import { type AdminCaller, allScopes, capToAdmin, type Scopes } from "../access";
import { countKeyRequest, type KeyRow } from "../../db/rates";
import { hitRate, type RateDecision, slotDecision } from "../ratelimit";

export const KEY_PREFIX = "mk_live_";
export const SESSION_PREFIX = "ms_";
/** OAuth tokens of MCP clients (lib/oauth/grants): access and refresh. */
export const ACCESS_TOKEN_PREFIX = "mca_";
export const REFRESH_TOKEN_PREFIX = "mcr_";

/** A refusal from a recognised key still belongs in its club's audit log. */
export class CallerRefused extends Unauthorized {
  constructor(
    code: "KEY_REVOKED" | "KEY_EXPIRED" | "ADMIN_ACCESS_ENDED",
    readonly known: { clubId: string; adminId: string; keyPrefix: string | null; locale: Locale },
  ) {
    super(code);
  }
}

function bearerToken(authorization: string | null | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1] : null;
}

export function adminAccessEnded(admin: { removed_at: string | null; access_expires_at: string | null }, now: Date) {
  return admin.removed_at !== null || (admin.access_expires_at !== null && Date.parse(admin.access_expires_at) <= now.getTime());
}

/**
 * The caller behind an `Authorization: Bearer ...` header. Throws Unauthorized for a missing,
 * unknown, revoked or expired key, or a key whose admin was removed or whose access has ended.
 * `resource` is what the request addresses (BASE_URL/mcp for the MCP endpoint, null elsewhere):
 * an OAuth access token is taken only there, its audience (RFC 8707). Reads the database on
 * every call: a revocation counts from the very next request.
 */
export async function resolveCaller(db: Db, authorization: string | null | undefined, now = new Date(), resource: string | null = null): Promise<AdminCaller> {
  const token = bearerToken(authorization);
  if (!token) throw new Unauthorized();
  if (token.startsWith(KEY_PREFIX)) return resolveKey(db, token, now);
  if (token.startsWith(SESSION_PREFIX)) return resolveSession(db, token, now);
  if (token.startsWith(ACCESS_TOKEN_PREFIX)) return resolveAccessToken(db, token, now, resource);
  throw new Unauthorized();
}

/** How an OAuth client shows in the audit log's `key_prefix`, a member's history and the CLI's list of keys: never a secret, always marked, 40 characters at most. */
export const clientLabel = (clientName: string) => `oauth:${clientName}`.slice(0, 40);

/**
 * An OAuth access token acts as a key of its admin with the grant's scopes (capped by the
 * admin's rights): `kind: key`, so it is rate-limited per grant (`keyId`), audited, and kept out
 * of the session-only routes like a key. Refused (401) when unknown, expired, for another
 * resource than `resource`, its grant revoked, or its admin's access ended.
 */
async function resolveAccessToken(db: Db, token: string, now: Date, resource: string | null): Promise<AdminCaller> {
  const [row] = await db.read
    .select({ token: oauthTokens, grant: oauthGrants, admin: admins, locale: clubs.locale })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grant_id))
    .innerJoin(admins, eq(admins.id, oauthGrants.admin_id))
    .innerJoin(clubs, eq(clubs.id, oauthGrants.club_id))
    .where(and(eq(oauthTokens.token_hash, sha256Hex(token)), eq(oauthTokens.kind, "access")))
    .limit(1);
  if (!row || Date.parse(row.token.expires_at) <= now.getTime() || row.grant.resource !== resource) throw new Unauthorized();
  const { grant, admin } = row;
  const known = { clubId: grant.club_id, adminId: admin.id, keyPrefix: clientLabel(grant.client_name), locale: asLocale(row.locale) };
  if (grant.revoked_at) throw new CallerRefused("KEY_REVOKED", known);
  if (adminAccessEnded(admin, now)) throw new CallerRefused("ADMIN_ACCESS_ENDED", known);
  return {
    kind: "key",
    adminId: admin.id,
    clubId: grant.club_id,
    locale: known.locale,
    // A token a refresh narrowed carries its own scopes (always within the grant's).
    scopes: capToAdmin((row.token.scopes ?? grant.scopes) as Scopes, admin.read_only),
    readOnly: admin.read_only,
    isSuperadmin: admin.is_superadmin,
    keyId: grant.id,
    keyPrefix: known.keyPrefix,
    clientName: grant.client_name,
  };
}

/** A key's row as the caller is made of it: the key, its admin, its club's language. */
type KeyRead = {
  key: { id: string; club_id: string; prefix: string; key_hash: string; scopes: unknown; expires_at: string | null; revoked_at: string | null };
  admin: { id: string; read_only: boolean; is_superadmin: boolean; removed_at: string | null; access_expires_at: string | null };
  locale: string;
};

async function resolveKey(db: Db, token: string, now: Date): Promise<AdminCaller> {
  const hash = sha256Hex(token);
  // Every request with a key runs this: prepared once (see Db.prepareRead).
  const [row] = await db
    .prepareRead("auth.keyByHash", (q) =>
      q
        // Only what a caller is made of: every key's request reads this row.
        .select({
          key: {
            id: apiKeys.id,
            club_id: apiKeys.club_id,
            prefix: apiKeys.prefix,
            key_hash: apiKeys.key_hash,
            scopes: apiKeys.scopes,
            expires_at: apiKeys.expires_at,
            revoked_at: apiKeys.revoked_at,
          },
          admin: {
            id: admins.id,
            read_only: admins.read_only,
            is_superadmin: admins.is_superadmin,
            removed_at: admins.removed_at,
            access_expires_at: admins.access_expires_at,
          },
          locale: clubs.locale,
        })
        .from(apiKeys)
        .innerJoin(admins, eq(admins.id, apiKeys.admin_id))
        .innerJoin(clubs, eq(clubs.id, apiKeys.club_id))
        .where(eq(apiKeys.key_hash, sql.placeholder("hash")))
        .limit(1),
    )
    .execute({ hash });
  return keyCaller(row, hash, now);
}

/** The caller a key's row makes, or why it is refused (none: 401; revoked, expired, access ended: CallerRefused). */
function keyCaller(row: KeyRead | undefined, hash: string, now: Date): AdminCaller {
  // The lookup is by hash; comparing the stored hash in constant time as well costs nothing.
  if (!row || !timingSafeEqual(Buffer.from(row.key.key_hash), Buffer.from(hash))) throw new Unauthorized();
  const { key, admin } = row;
  const locale = asLocale(row.locale);
  const known = { clubId: key.club_id, adminId: admin.id, keyPrefix: key.prefix, locale };
  if (key.revoked_at) throw new CallerRefused("KEY_REVOKED", known);
  if (key.expires_at && Date.parse(key.expires_at) <= now.getTime()) throw new CallerRefused("KEY_EXPIRED", known);
  if (adminAccessEnded(admin, now)) throw new CallerRefused("ADMIN_ACCESS_ENDED", known);
  return {
    kind: "key",
    adminId: admin.id,
    clubId: key.club_id,
    locale,
    scopes: capToAdmin(key.scopes as Scopes, admin.read_only),
    readOnly: admin.read_only,
    isSuperadmin: admin.is_superadmin,
    keyId: key.id,
    keyPrefix: key.prefix,
  };
}

/** A key's row as db/rates.ts reads it (flat, `scopes` as its JSON text), as the caller is made of it. */
function keyRead({ admin_id, read_only, is_superadmin, removed_at, access_expires_at, locale, scopes, ...key }: KeyRow): KeyRead {
  return { key: { ...key, scopes: JSON.parse(scopes) }, admin: { id: admin_id, read_only, is_superadmin, removed_at, access_expires_at }, locale };
}

/** The rate scope of keys' requests (SPEC "Limits"), counted under the key's id (an OAuth token: its grant's). */
export const KEY_RATE_SCOPE = "key";

/**
 * The caller behind `authorization`, as resolveCaller finds it, and, for a key (or an OAuth
 * token), its request counted against `perMinute` (lib/ratelimit; a session's is not counted:
 * null). Refused requests are not counted. On PostgreSQL an API key's lookup and its count are
 * one statement (db/rates.ts countKeyRequest): a round trip of every keyed request fewer.
 */
export async function resolveCountedCaller(
  db: Db,
  authorization: string | null | undefined,
  perMinute: number,
  now = new Date(),
  resource: string | null = null,
): Promise<{ caller: AdminCaller; rate: RateDecision | null }> {
  const token = bearerToken(authorization);
  const count = (caller: AdminCaller) => hitRate(db, KEY_RATE_SCOPE, caller.keyId as string, perMinute, 60_000, now.getTime());
  if (db.engine === "postgres" && token?.startsWith(KEY_PREFIX)) {
    const hash = sha256Hex(token);
    const found = await countKeyRequest(db, KEY_RATE_SCOPE, hash, perMinute, 60_000, now.getTime());
    const caller = keyCaller(found ? keyRead(found.key) : undefined, hash, now);
    // Served here but not counted by the statement (it compares the times as stored text): counted now.
    return { caller, rate: found?.count ? slotDecision(found.count, perMinute) : await count(caller) };
  }
  const caller = await resolveCaller(db, authorization, now, resource);
  return { caller, rate: caller.kind === "key" ? await count(caller) : null };
}

async function resolveSession(db: Db, token: string, now: Date): Promise<AdminCaller> {
  const [row] = await db.read
    .select({ session: adminSessions, admin: admins, locale: clubs.locale })
    .from(adminSessions)
    .innerJoin(admins, eq(admins.id, adminSessions.admin_id))
    .innerJoin(clubs, eq(clubs.id, admins.club_id))
    .where(and(eq(adminSessions.token_hash, sha256Hex(token))))
    .limit(1);
  if (!row || Date.parse(row.session.expires_at) <= now.getTime() || adminAccessEnded(row.admin, now)) throw new Unauthorized();
  return {
    kind: "session",
    adminId: row.admin.id,
    clubId: row.admin.club_id,
    locale: asLocale(row.locale),
    scopes: allScopes(row.admin.read_only ? "view" : "edit"),
    readOnly: row.admin.read_only,
    isSuperadmin: row.admin.is_superadmin,
    keyId: null,
    keyPrefix: null,
  };
}
