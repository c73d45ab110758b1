// The one lookup of a member by the code their card carries, for every place a code is typed or
// scanned: card verification, event check-in and a registration's member_code.
import { and, eq, or } from "drizzle-orm";
import type { Queryable } from "../../db";
import { members, tiers } from "../../db/schema";

export type MemberByCode = typeof members.$inferSelect & { tier_name: string | null };

/**
 * The member of `clubId` whose pass serial number is `code`, else whose referral code is `code`
 * in upper case (referral codes are upper-case; people and scanners type them in any case),
 * surrounding spaces ignored; with the name of their tier. Another club's code: null.
 */
export async function findMemberByCode(q: Queryable, clubId: string, code: string): Promise<MemberByCode | null> {
  const typed = code.trim();
  if (!typed) return null;
  const rows = await q
    .select({ member: members, tier_name: tiers.name })
    .from(members)
    .leftJoin(tiers, and(eq(tiers.id, members.tier_id), eq(tiers.club_id, members.club_id)))
    .where(and(eq(members.club_id, clubId), or(eq(members.pass_serial_number, typed), eq(members.referral_code, typed.toUpperCase()))))
    .limit(2);
  const row = rows.find((r) => r.member.pass_serial_number === typed) ?? rows[0];
  return row ? { ...row.member, tier_name: row.tier_name } : null;
}
