// API keys: created for an admin with chosen scopes, shown once, stored as a SHA-256 hash with a
// display prefix, listed and revoked by the admin's dashboard session or the CLI (never by a key).
import { and, desc, eq, or } from "drizzle-orm";
import { z } from "zod";
import { oneLine } from "../schema-types";
import type { Db } from "../../db";
import { admins, apiKeys } from "../../db/schema";
import { Conflict, Forbidden, NotFound, ValidationFailed } from "../errors";
import { newId, nowIso, randomBase62, sha256Hex } from "../ids";
import { type Caller, mayRevokeCredentialOf } from "../access";
import { KEY_PREFIX } from "./caller";
import { type Ctx, verb } from "../context";
import { type Scopes, ScopesSchema } from "../access";

export const ApiKeyCreate = z
  .object({
    name: oneLine().max(100).nullish(),
    scopes: ScopesSchema,
    expires_at: z.iso.datetime({ offset: true }).nullish().meta({ description: "When the key stops working (in the future); null: never." }),
  })
  .meta({ id: "ApiKeyCreate", examples: [{ name: "Spreadsheet sync", scopes: { members: "view", events: "view" } }] });

export const ApiKeyItem = z
  .object({
    id: z.uuid(),
    name: z.string().nullable(),
    prefix: z.string(),
    admin_id: z.uuid(),
    scopes: ScopesSchema,
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
    last_used_at: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "ApiKeyItem" });

export const ApiKeyCreated = ApiKeyItem.extend({
  api_key: z.string().meta({ description: "The full key. Shown this once; only its hash is kept." }),
}).meta({ id: "ApiKeyCreated" });

export type ApiKeyItem = z.infer<typeof ApiKeyItem>;

function toItem(row: typeof apiKeys.$inferSelect): ApiKeyItem {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    admin_id: row.admin_id,
    scopes: row.scopes as Scopes,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
    created_at: row.created_at,
  };
}

/**
 * Creates a key for `adminId`. A read-only admin can only hold view scopes (a key never does more
 * than its admin): asking for edit is refused with 403 rather than silently capped. Scopes of no
 * area are a 422 (`KEY_SCOPES_EMPTY`). An
 * `expiresAt` that is not in the future is a 422 (`KEY_EXPIRES_IN_PAST`).
 */
export async function createApiKey(db: Db, input: { adminId: string; scopes: Scopes; name?: string | null; expiresAt?: string | null }) {
  const [admin] = await db.read.select().from(admins).where(eq(admins.id, input.adminId)).limit(1);
  if (!admin || admin.removed_at) throw new NotFound("ADMIN_NOT_FOUND");
  // A key of no area could call nothing but /api/auth/me: asked for by mistake, on the API as on the keys page.
  if (!Object.keys(input.scopes).length) throw new ValidationFailed([{ loc: ["body", "scopes"], code: "KEY_SCOPES_EMPTY" }]);
  if (admin.read_only && Object.values(input.scopes).includes("edit")) throw new Forbidden("SCOPES_EXCEED_ADMIN");
  // A key born expired is a mistake (a wrong year, a time zone): say so rather than hand out a key that answers 401.
  if (input.expiresAt && !(Date.parse(input.expiresAt) > Date.now())) {
    throw new ValidationFailed([{ loc: ["body", "expires_at"], code: "KEY_EXPIRES_IN_PAST", params: { expires_at: input.expiresAt } }]);
  }
  const apiKey = KEY_PREFIX + randomBase62(40);
  const row = {
    id: newId(),
    club_id: admin.club_id,
    admin_id: admin.id,
    name: input.name ?? null,
    prefix: apiKey.slice(0, KEY_PREFIX.length + 4),
    key_hash: sha256Hex(apiKey),
    scopes: input.scopes,
    expires_at: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
    revoked_at: null,
    last_used_at: null,
    created_at: nowIso(),
  };
  await db.tx((t) => t.insert(apiKeys).values(row));
  return { ...toItem(row), api_key: apiKey };
}

/** Every key of the club, newest first, revoked ones included (marked by `revoked_at`). */
export async function listApiKeys(db: Db, clubId: string): Promise<ApiKeyItem[]> {
  const rows = await db.read.select().from(apiKeys).where(eq(apiKeys.club_id, clubId)).orderBy(desc(apiKeys.created_at));
  return rows.map(toItem);
}

/**
 * The club's keys for a dashboard session (the API's account section and the dashboard's keys
 * page): every admin, whatever their areas, since a key is made in the admin's own account
 * section (SPEC: API keys, 2) and can never do more than its admin. No scope, so the page's
 * navigation entry and its routes, which take theirs from here, show and open it to every admin.
 */
export const listClubApiKeys = verb([], async function listClubApiKeys(ctx: Ctx, _input: Record<string, never> = {}): Promise<ApiKeyItem[]> {
  return listApiKeys(ctx.db, ctx.clubId);
});

/**
 * Revokes a key by id or display prefix. From a dashboard session, `by` is the caller: the key
 * must be of their club, and another admin's key needs `access_control: edit` (a read-only admin
 * may still revoke their own keys, which only takes rights away). The CLI may act on any club.
 * The next request made with the key answers 401. Revoking twice is a 409.
 */
export async function revokeApiKey(db: Db, idOrPrefix: string, by?: { clubId: string; actor: Caller }): Promise<ApiKeyItem> {
  return db.tx(async (t) => {
    const match = or(eq(apiKeys.id, idOrPrefix), eq(apiKeys.prefix, idOrPrefix));
    const rows = await t
      .select()
      .from(apiKeys)
      .where(by ? and(match, eq(apiKeys.club_id, by.clubId)) : match)
      .limit(2);
    // A 4-character prefix could in principle be shared; refuse to guess which key is meant.
    if (rows.length !== 1) throw new NotFound("KEY_NOT_FOUND");
    if (by && !mayRevokeCredentialOf(by.actor, rows[0].admin_id)) throw new Forbidden("KEY_OF_ANOTHER_ADMIN");
    if (rows[0].revoked_at) throw new Conflict("KEY_ALREADY_REVOKED");
    const [row] = await t.update(apiKeys).set({ revoked_at: nowIso() }).where(eq(apiKeys.id, rows[0].id)).returning();
    return toItem(row);
  });
}
