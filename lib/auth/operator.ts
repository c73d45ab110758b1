// The caller the admin CLI acts as: the installation's operator, on one club, as that club's
// owner with every scope (whoever can run the CLI can read the database file anyway).
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { admins } from "../../db/schema";
import { getClubRow } from "../clubs/internal";
import type { Config } from "../config";
import { type Ctx, siteOf } from "../context";
import { NotFound } from "../errors";
import { asLocale } from "../i18n";
import type { Caller } from "../access";
import { allScopes } from "../access";

export async function operatorCtx(db: Db, clubId: string, config: Config): Promise<Ctx> {
  const club = await getClubRow(db, clubId);
  const [owner] = await db.read
    .select()
    .from(admins)
    .where(and(eq(admins.club_id, clubId), isNull(admins.removed_at)))
    // The owner; when the club has none left (removed), its oldest admin still present.
    .orderBy(sql`${admins.role} = 'owner' desc`, asc(admins.created_at))
    .limit(1);
  if (!owner) throw new NotFound("ADMIN_NOT_FOUND");
  const actor: Caller = {
    kind: "session",
    adminId: owner.id,
    clubId,
    locale: asLocale(club.locale),
    scopes: allScopes("edit"),
    readOnly: false,
    isSuperadmin: false,
    keyId: null,
    keyPrefix: null,
  };
  return { db, actor, clubId, locale: actor.locale, ...siteOf(config) };
}
