// Verifying a member's card (DESIGN.md section 9): the scanned code is the member's
// `pass_serial_number` or `referral_code` (what the QR code carries), looked up in the caller's
// club only. Every verification is stored as a scan, an unknown code included: attendance reads
// them back, and a refused scan is as useful to the club as an accepted one.
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Queryable } from "../../db";
import { keyShareClause } from "../../db/locks";
import { members, scans } from "../../db/schema";
import { verb } from "../context";
import type { Ctx } from "../context";
import { newId } from "../ids";
import { findMemberAtDoor } from "../members/by-code";
import { STATUSES as MEMBER_STATUSES } from "../members/schemas";
import { statusOn, todayUtc } from "../members/status";
import { clubGraceDays } from "../clubs/internal";

/** A member's derived status at the time of the scan, or `unknown` when no member matched. */
export const SCAN_STATUSES = [...MEMBER_STATUSES, "unknown"] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

export const VerifyInput = z.object({
  serial: z
    .string()
    .min(1)
    .max(100)
    .meta({ description: "What the card's QR code carries (the member's referral code, any letter case) or the pass serial number." }),
});

export const VerifiedMember = z
  .object({
    id: z.uuid(),
    first_name: z.string(),
    last_name: z.string(),
    tier_name: z.string().nullable(),
    membership_end: z.string().meta({ format: "date" }),
  })
  .meta({ id: "VerifiedMember" });

export const CardVerification = z
  .object({
    valid: z.boolean().meta({ description: "true only when `status` is `active`." }),
    status: z.enum(SCAN_STATUSES),
    member: VerifiedMember.nullable().meta({ description: "null when the code matches no member of the club." }),
    scanned_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "CardVerification", description: "The verdict on a scanned card; the scan is stored for attendance." });

export type CardVerification = z.infer<typeof CardVerification>;

/**
 * Verifies a scanned code against the caller's club and stores the scan. Never throws for an
 * unknown code (or another club's): the answer is `unknown`, exactly as for a code that exists
 * nowhere, so nothing leaks across clubs.
 */
export const verifyCard = verb("access_control:view", async function verifyCard(ctx: Ctx, input: { serial: string }): Promise<CardVerification> {
  const code = input.serial.trim();
  const now = new Date();
  const member = code ? await findMemberAtDoor(ctx.db, ctx.clubId, code) : null;
  const status: ScanStatus = member ? statusOn(member, todayUtc(now), await clubGraceDays(ctx.db, ctx.clubId)) : "unknown";
  const scanned_at = now.toISOString();
  const scan = {
    id: newId(),
    club: ctx.clubId,
    member: member?.id ?? null,
    code: input.serial.slice(0, 100),
    status,
    prefix: ctx.actor.keyPrefix,
    admin: ctx.actor.adminId,
    at: scanned_at,
  };
  const write = (t: Queryable) => insertScan(ctx.db)(t).execute(scan);
  // Over the API the scan commits with the request's audit row (one commit a scan, not two).
  if (ctx.withAuditRow) ctx.withAuditRow(write);
  else await ctx.db.tx(write);
  return {
    valid: status === "active",
    status,
    member: member
      ? { id: member.id, first_name: member.first_name, last_name: member.last_name, tier_name: member.tier_name, membership_end: member.membership_end }
      : null,
    scanned_at,
  };
});

/**
 * The scan row's insert, prepared once (Db.prepareTx): every verification writes one. The member
 * was read before the transaction: the row names them only if they are still there, read in the
 * insert itself and locked as db/locks `namingRead` locks (one clause, no round
 * trip); a member deleted since (an import's undo, an erasure) leaves a scan that names nobody.
 */
function insertScan(db: Ctx["db"]) {
  const p = (name: string) => sql.placeholder(name);
  return db.prepareTx("cards.scan.insert", (q) =>
    q.insert(scans).values({
      id: p("id"),
      club_id: p("club"),
      member_id: sql`(select ${members.id} from ${members} where ${members.id} = ${p("member")}${keyShareClause()})`,
      code: p("code"),
      status: p("status"),
      key_prefix: p("prefix"),
      admin_id: p("admin"),
      scanned_at: p("at"),
    }),
  );
}
