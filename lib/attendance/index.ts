// Attendance (DESIGN.md section 9): the club's card scans over one day, a range of days or a
// period, with totals. Days are UTC. Scans come from lib/cards (verifyCard stores them).
import { and, count, countDistinct, desc, eq, gte, lte } from "drizzle-orm";
import { z } from "zod";
import { members, scans, tiers } from "../../db/schema";
import { verb } from "../context";
import { SCAN_STATUSES } from "../cards";
import type { Ctx } from "../context";
import { ValidationFailed } from "../errors";
import { todayUtc } from "../members/status";

export const ATTENDANCE_PERIODS = ["today", "week", "month", "year"] as const;
/** At most this many scans are listed (the most recent); the totals count every scan. */
export const ATTENDANCE_SCAN_LIMIT = 1000;

export const AttendanceQuery = z.object({
  date: z.iso.date().optional().meta({ description: "One day (UTC), YYYY-MM-DD." }),
  from: z.iso.date().optional().meta({ description: "First day (UTC), inclusive. Without `to`: through today." }),
  to: z.iso.date().optional().meta({ description: "Last day (UTC), inclusive. Needs `from`." }),
  period: z
    .enum(ATTENDANCE_PERIODS)
    .optional()
    .meta({ description: "`today`, `week` (the current ISO week, Monday to Sunday), `month` or `year` (calendar), in UTC." }),
});
export type AttendanceQuery = z.infer<typeof AttendanceQuery>;

export const ScanEntry = z
  .object({
    id: z.string(),
    member_id: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    tier_name: z.string().nullable(),
    status: z.enum(SCAN_STATUSES),
    scanned_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "ScanEntry", description: "One card scan; the member fields are null for an unknown code." });

export const AttendanceResponse = z
  .object({
    date: z.string().nullable().meta({ description: "The day, when the range is a single day." }),
    from_date: z.string().nullable(),
    to_date: z.string().nullable(),
    total_scans: z.int().meta({ description: "Every scan of the range, unknown codes included." }),
    unique_members: z.int().meta({ description: "Distinct members among the scans of the range." }),
    scans: z.array(ScanEntry).meta({ description: `The ${ATTENDANCE_SCAN_LIMIT} most recent scans of the range at most, newest first.` }),
  })
  .meta({ id: "AttendanceResponse" });
export type AttendanceResponse = z.infer<typeof AttendanceResponse>;

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** The first and last day (inclusive) a query asks for; 422 for contradictory filters. */
export function attendanceRange(q: AttendanceQuery, now = new Date()): { from: string; to: string } {
  const today = todayUtc(now);
  const hasRange = q.from !== undefined || q.to !== undefined;
  const given = [q.date !== undefined && "date", hasRange && (q.from !== undefined ? "from" : "to"), q.period !== undefined && "period"].filter(
    Boolean,
  ) as string[];
  if (given.length > 1) throw new ValidationFailed([{ loc: ["query", given[1]], code: "ATTENDANCE_FILTER_CONFLICT" }]);
  if (q.date) return { from: q.date, to: q.date };
  if (hasRange) {
    if (q.from === undefined) throw new ValidationFailed([{ loc: ["query", "from"], code: "ATTENDANCE_FROM_REQUIRED" }]);
    const to = q.to ?? today;
    if (q.from > to) throw new ValidationFailed([{ loc: ["query", q.to === undefined ? "from" : "to"], code: "ATTENDANCE_RANGE_ORDER" }]);
    return { from: q.from, to };
  }
  switch (q.period) {
    case "week": {
      // ISO week: Monday is day 1, Sunday day 7.
      const monday = addDays(today, -((now.getUTCDay() + 6) % 7));
      return { from: monday, to: addDays(monday, 6) };
    }
    case "month": {
      const y = now.getUTCFullYear();
      const m = now.getUTCMonth();
      return { from: today.slice(0, 8) + "01", to: new Date(Date.UTC(y, m + 1, 0)).toISOString().slice(0, 10) };
    }
    case "year":
      return { from: `${today.slice(0, 4)}-01-01`, to: `${today.slice(0, 4)}-12-31` };
    default:
      return { from: today, to: today };
  }
}

/**
 * The club's scans over the asked days: totals over every scan, and the most recent
 * ATTENDANCE_SCAN_LIMIT scans with the member's current name and tier.
 */
export const getAttendance = verb("access_control:view", async function getAttendance(ctx: Ctx, q: AttendanceQuery): Promise<AttendanceResponse> {
  const { from, to } = attendanceRange(q);
  // The last instant of `to`, not the next day's start: the day after 9999-12-31 has no ISO form that sorts.
  const cond = and(eq(scans.club_id, ctx.clubId), gte(scans.scanned_at, `${from}T00:00:00.000Z`), lte(scans.scanned_at, `${to}T23:59:59.999Z`));
  const [totals] = await ctx.db.read
    .select({ total: count(), unique: countDistinct(scans.member_id) })
    .from(scans)
    .where(cond);
  const rows = await ctx.db.read
    .select({
      id: scans.id,
      member_id: scans.member_id,
      first_name: members.first_name,
      last_name: members.last_name,
      tier_name: tiers.name,
      status: scans.status,
      scanned_at: scans.scanned_at,
    })
    .from(scans)
    .leftJoin(members, and(eq(members.id, scans.member_id), eq(members.club_id, scans.club_id)))
    .leftJoin(tiers, and(eq(tiers.id, members.tier_id), eq(tiers.club_id, scans.club_id)))
    .where(cond)
    .orderBy(desc(scans.scanned_at), desc(scans.id))
    .limit(ATTENDANCE_SCAN_LIMIT);
  return {
    date: from === to ? from : null,
    from_date: from,
    to_date: to,
    total_scans: totals.total,
    unique_members: totals.unique,
    scans: rows as AttendanceResponse["scans"],
  };
});
