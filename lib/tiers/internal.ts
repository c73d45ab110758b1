// The one owner of the read of a tier in its club (a "get in club or throw" helper): members,
// tiers and imports read a tier through it; promo codes and tickets check the tier ids they
// refer to through it.
import { and, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../../db";
import { tiers } from "../../db/schema";
import { foldText } from "../../db/text";
import { type Invalid, NotFound } from "../errors";

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

/**
 * The 422 items of the tier ids in `refs` that are not tiers of club `clubId` (another club's
 * tier, a random UUID, any string), one per reference at its `loc`. An inactive tier of the club
 * is one of its tiers. A promo code or a ticket price naming a tier of another club would be
 * stored and never honoured, or leak that the id exists.
 */
export async function foreignTierItems(q: Queryable, clubId: string, refs: { id: string; loc: (string | number)[] }[]): Promise<Invalid[]> {
  if (!refs.length) return [];
  const ids = [...new Set(refs.map((r) => r.id))];
  const found = new Set(
    (
      await q
        .select({ id: tiers.id })
        .from(tiers)
        .where(and(eq(tiers.club_id, clubId), inArray(tiers.id, ids)))
    ).map((r) => r.id),
  );
  return refs.filter((r) => !found.has(r.id)).map((r) => ({ loc: r.loc, code: "TIER_NOT_IN_CLUB", params: { id: r.id } }));
}

/** A tier's name as people type it compared to the stored one: accents, case and runs of spaces ignored ("etudiant" is "Étudiant"). */
export const foldTierName = (name: string): string => foldText(name).replace(/\s+/g, " ").trim();

/** The tier of `list` that `ref` names, by id or by name (foldTierName; the first in the list's order on a shared name); null when none. */
export function tierNamed<T extends { id: string; name: string }>(list: T[], ref: string): T | null {
  const id = ref.trim().toLowerCase();
  const folded = foldTierName(ref);
  return list.find((t) => t.id === id) ?? list.find((t) => foldTierName(t.name) === folded) ?? null;
}
