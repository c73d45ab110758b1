// A new club with its owner and one all-edit API key: what `cli init` and the first start on an
// empty database both do. Here, not in lib/clubs, because it makes an admin and a key: the club
// area stays below the auth area.
import { count } from "drizzle-orm";
import type { Db } from "../../db";
import { clubs } from "../../db/schema";
import { allScopes } from "../access";
import { createClub } from "../clubs";
import { createAdmin } from "./admins";
import { createApiKey } from "./keys";

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

export async function isEmpty(db: Db): Promise<boolean> {
  const [{ n }] = await db.read.select({ n: count() }).from(clubs);
  return n === 0;
}
