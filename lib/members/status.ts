// A member's derived status (DESIGN.md section 6), in one place: as a function for one member,
// and as SQL conditions for list filters and counts. `today` is a UTC day, YYYY-MM-DD.
import { and, eq, gte, lt, ne, type SQL } from "drizzle-orm";
import { members } from "../../db/schema";

export const MEMBER_STATUSES = ["active", "expired", "pending", "suspended"] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);

export function memberStatus(m: { payment_status: string; membership_end: string }, today: string): MemberStatus {
  if (m.payment_status === "suspended") return "suspended";
  if (m.membership_end < today) return "expired";
  if (m.payment_status === "pending") return "pending";
  return "active";
}

export function statusCondition(status: MemberStatus, today: string): SQL {
  switch (status) {
    case "suspended":
      return eq(members.payment_status, "suspended");
    case "expired":
      return and(ne(members.payment_status, "suspended"), lt(members.membership_end, today)) as SQL;
    case "pending":
      return and(eq(members.payment_status, "pending"), gte(members.membership_end, today)) as SQL;
    case "active":
      return and(eq(members.payment_status, "paid"), gte(members.membership_end, today)) as SQL;
  }
}
