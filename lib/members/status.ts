// The derived member status of DESIGN.md section 6, written once: each rule holds both its SQL
// condition (list filter, status sort) and its JS predicate (item shaping), side by side, in the
// order they are tried. "Today" is a UTC day computed in JS. The club's grace period
// (DESIGN.md section 14) moves the day the rules compare with (`statusDay`): every caller that
// shows a status (list, item, verify, cards, stats) passes that day, never today alone.
import { and, eq, gte, lt, ne, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { members } from "../../db/schema";
import type { MemberStatus } from "./schemas";
import { todayUtc } from "../days";

type Row = { payment_status: string; membership_end: string };

/** A day `YYYY-MM-DD`, or a placeholder for it in a prepared query. */
type Day = string | SQLWrapper;

type Rule = { status: MemberStatus; test(m: Row, today: string): boolean; where(today: Day): SQL };

/** First match wins: suspended, then expired (end passed), then pending, then active. */
const RULES: Rule[] = [
  { status: "suspended", test: (m) => m.payment_status === "suspended", where: () => eq(members.payment_status, "suspended") },
  {
    status: "expired",
    test: (m, today) => m.payment_status !== "suspended" && m.membership_end < today,
    where: (today) => and(ne(members.payment_status, "suspended"), lt(members.membership_end, today)) as SQL,
  },
  {
    status: "pending",
    test: (m, today) => m.payment_status === "pending" && m.membership_end >= today,
    where: (today) => and(eq(members.payment_status, "pending"), gte(members.membership_end, today)) as SQL,
  },
  {
    status: "active",
    test: (m, today) => m.payment_status === "paid" && m.membership_end >= today,
    where: (today) => and(eq(members.payment_status, "paid"), gte(members.membership_end, today)) as SQL,
  },
];

export { todayUtc };

/**
 * The day the status rules compare `membership_end` with: `today` less the club's
 * `grace_period_days`, so a member stays `active` (or `pending`) that many days past the end,
 * and is `expired` from the day after.
 */
export function statusDay(today: string, graceDays = 0): string {
  if (!graceDays) return today;
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - graceDays);
  return d.toISOString().slice(0, 10);
}

/** The member's derived status (item shaping). */
export function derivedStatus(m: Row, today = todayUtc()): MemberStatus {
  for (const rule of RULES) if (rule.test(m, today)) return rule.status;
  return "expired";
}

/** The SQL condition keeping members of `status` (list filter). */
export function statusWhere(status: MemberStatus, today: Day = todayUtc()): SQL {
  return (RULES.find((r) => r.status === status) as Rule).where(today);
}

/** The last day a membership ending on `end` shows `active`: the end plus the grace period (the wallet passes' expiry). */
export const lastActiveDay = (end: string, graceDays: number): string => statusDay(end, -graceDays);

/** The member's derived status today at the club with `graceDays`. */
export const statusOn = (m: Row, today: string, graceDays: number): MemberStatus => derivedStatus(m, statusDay(today, graceDays));

/** The derived status as an SQL expression (sort by status), built from the same rules. */
export function statusSql(today: Day = todayUtc()): SQL {
  const whens = RULES.map((r) => sql`when ${r.where(today)} then ${r.status}`);
  return sql`(case ${sql.join(whens, sql` `)} else 'expired' end)`;
}
