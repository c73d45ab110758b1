// The one owner of the read of a tier in its club (a "get in club or throw" helper): members,
// tiers and imports read a tier through it.
import { and, eq } from "drizzle-orm";
import type { Queryable } from "../../db";
import { tiers } from "../../db/schema";
import { NotFound } from "../errors";

export type TierRow = typeof tiers.$inferSelect;

/** The tier `tierId` of club `clubId`; 404 TIER_NOT_FOUND otherwise (another club's tier too). */
export async function getTierRow(q: Queryable, clubId: string, tierId: string): Promise<TierRow> {
  const [row] = await q
    .select()
    .from(tiers)
    .where(and(eq(tiers.club_id, clubId), eq(tiers.id, tierId)))
    .limit(1);
  if (!row) throw new NotFound("TIER_NOT_FOUND");
  return row;
}
