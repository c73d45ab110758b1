// A new club with its owner and one all-edit API key: what `cli init` and the first start on an
// empty database both do. Here, not in lib/clubs, because it makes an admin and a key: the club
// area stays below the auth area.
import { count } from "drizzle-orm";
import { type Db, withinTx } from "../../db";
import { lockName } from "../../db/locks";
import { clubs } from "../../db/schema";
import { allScopes } from "../access";
import { createClub } from "../clubs";
import { DEFAULT_LOCALE } from "../i18n";
import { FIRST_CLUB_NAME } from "../i18n/texts";
import { createAdmin } from "./admins";
import { createApiKey } from "./keys";
import { createSignInLink, type SignInLink } from "./sign-in-links";

export type InitResult = { club_id: string; admin_id: string; api_key: string };

export async function initClub(
  db: Db,
  input: { clubName: string; email: string; locale?: string; currency?: string; password?: string | null },
): Promise<InitResult> {
  const { club, admin } = await db.tx(async (t) => {
    const club = await createClub(t, { name: input.clubName, locale: input.locale, currency: input.currency });
    const admin = await createAdmin(t, { clubId: club.id, email: input.email, role: "owner", password: input.password });
    return { club, admin };
  });
  const key = await createApiKey(db, { adminId: admin.id, scopes: allScopes("edit"), name: "owner (created at init)" });
  return { club_id: club.id, admin_id: admin.id, api_key: key.api_key };
}

/**
 * The first start's club, its owner, key and one-time sign-in link, all in one transaction: null
 * when the database holds a club already. Several processes starting at once on an empty
 * database (a host's systemd units) make one club, not one each: the check and the creation run
 * under one lock (PostgreSQL's advisory lock; SQLite's write lock).
 */
export async function initFirstClub(
  db: Db,
  input: { clubName?: string | null; email: string; baseUrl: string },
): Promise<(InitResult & { link: SignInLink }) | null> {
  return db.tx(async (t) => {
    await lockName(t, "first-club");
    const [{ n }] = await t.select({ n: count() }).from(clubs);
    if (n) return null;
    const inside = withinTx(db, t);
    // Unnamed: "My club" in the language a new club starts in.
    const first = await initClub(inside, { clubName: input.clubName || FIRST_CLUB_NAME[DEFAULT_LOCALE], email: input.email });
    // The owner has no password yet: the link lets them choose one in the dashboard, no CLI needed.
    const link = await createSignInLink(inside, { adminId: first.admin_id, baseUrl: input.baseUrl });
    return { ...first, link };
  });
}
