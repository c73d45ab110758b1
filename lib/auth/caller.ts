// Who is calling: an API key (acting as the admin who created it, within its scopes) or a
// dashboard session (the admin in person). Resolved from the bearer token before anything else
// of the request is read, so a bad key with a malformed body is still a 401.
import { timingSafeEqual } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { adminSessions, admins, apiKeys, clubs } from "../../db/schema";
import { Unauthorized } from "../errors";
import { asLocale, type Locale } from "../i18n";
import { sha256Hex } from "../ids";
import { type AdminCaller, allScopes, capToAdmin, type Scopes } from "../access";

export const KEY_PREFIX = "mk_live_";
export const SESSION_PREFIX = "ms_";

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
 * Reads the database on every call: a revocation counts from the very next request.
 */
export async function resolveCaller(db: Db, authorization: string | null | undefined, now = new Date()): Promise<AdminCaller> {
  const token = bearerToken(authorization);
  if (!token) throw new Unauthorized();
  if (token.startsWith(KEY_PREFIX)) return resolveKey(db, token, now);
  if (token.startsWith(SESSION_PREFIX)) return resolveSession(db, token, now);
  throw new Unauthorized();
}

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
