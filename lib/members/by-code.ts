// The one lookup of a member by the code their card carries, for every place a code is typed or
// scanned: card verification, event check-in and a registration's member_code.
import { and, eq, or, sql } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { members, tiers } from "../../db/schema";
import { namingRead } from "../../db/locks";

export type MemberByCode = typeof members.$inferSelect & { tier_name: string | null };

/**
 * The member of `clubId` whose pass serial number is `code`, else whose referral code is `code`
 * in upper case (referral codes are upper-case; people and scanners type them in any case),
 * surrounding spaces ignored; with the name of their tier. Another club's code: null. `naming`:
 * read to write a row that names the member, inside its transaction (db/locks
 * `namingRead`).
 */
export async function findMemberByCode(q: Queryable, clubId: string, code: string, naming = false): Promise<MemberByCode | null> {
  const typed = code.trim();
  if (!typed) return null;
  const read = q
    .select({ member: members, tier_name: tiers.name })
    .from(members)
    .leftJoin(tiers, and(eq(tiers.id, members.tier_id), eq(tiers.club_id, members.club_id)))
    .where(and(eq(members.club_id, clubId), or(eq(members.pass_serial_number, typed), eq(members.referral_code, typed.toUpperCase()))))
    .limit(2);
  const rows = await (naming ? namingRead(read) : read);
  const row = rows.find((r) => r.member.pass_serial_number === typed) ?? rows[0];
  return row ? { ...row.member, tier_name: row.tier_name } : null;
}

/** What the door's card check (lib/cards verifyCard) needs of the member of a code. */
export type MemberAtDoor = Pick<MemberByCode, "id" | "first_name" | "last_name" | "membership_end" | "payment_status" | "tier_name">;

/**
 * The same lookup as findMemberByCode (the pass serial number first, else the referral code in
 * upper case), for the scan at the door: the few columns it answers with, through statements
 * prepared once (Db.prepareRead), one indexed search each. Building the select of every member
 * column took most of a verification's time.
 */
export async function findMemberAtDoor(db: Db, clubId: string, code: string): Promise<MemberAtDoor | null> {
  const typed = code.trim();
  if (!typed) return null;
  const [bySerial] = await doorLookup(db, "serial").execute({ club: clubId, code: typed });
  if (bySerial) return bySerial;
  const [byReferral] = await doorLookup(db, "referral").execute({ club: clubId, code: typed.toUpperCase() });
  return byReferral ?? null;
}

function doorLookup(db: Db, by: "serial" | "referral") {
  return db.prepareRead(`members.atDoor.${by}`, (q) =>
    q
      .select({
        id: members.id,
        first_name: members.first_name,
        last_name: members.last_name,
        membership_end: members.membership_end,
        payment_status: members.payment_status,
        tier_name: tiers.name,
      })
      .from(members)
      .leftJoin(tiers, and(eq(tiers.id, members.tier_id), eq(tiers.club_id, members.club_id)))
      .where(
        and(eq(members.club_id, sql.placeholder("club")), eq(by === "serial" ? members.pass_serial_number : members.referral_code, sql.placeholder("code"))),
      )
      .limit(1),
  );
}
