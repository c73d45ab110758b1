// The figures over time that the dashboard's overview draws: gross revenue per UTC calendar month
// and distinct members checked at the door per week (Monday to Sunday, UTC). Every period of the
// range is present, zero when nothing happened, oldest first.
import { and, eq, gte, isNotNull, lt, sql } from "drizzle-orm";
import { payments, scans } from "../../db/schema";
import { verb } from "../context";
import type { Ctx } from "../context";

export type MonthRevenue = { month: string; gross_cents: number };
export type WeekAttendance = { week_start: string; unique_members: number };

const DAY_MS = 86400_000;

/** The first instant (UTC) of the month `back` months before `now`'s (-1: the next month's). */
export function monthStart(now: Date, back: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
}

/** The Monday (00:00 UTC) of the week `back` weeks before `now`'s. */
function weekStart(now: Date, back: number): Date {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  return new Date(monday - back * 7 * DAY_MS);
}

/** Gross revenue (refunds count negative) of the last `months` months, this one included. */
export const revenueByMonth = verb("finances:view", async function revenueByMonth(ctx: Ctx, input: { now?: Date; months?: number } = {}): Promise<
  MonthRevenue[]
> {
  const now = input.now ?? new Date();
  const months = input.months ?? 12;
  const from = monthStart(now, months - 1).toISOString();
  const to = monthStart(now, -1).toISOString();
  // Grouped by the ISO text's year-month: paid_at is stored as ISO 8601 UTC.
  const month = sql<string>`substr(${payments.paid_at}, 1, 7)`;
  const rows = await ctx.db.read
    .select({ month, gross: sql<number>`coalesce(sum(${payments.amount_cents}), 0)` })
    .from(payments)
    .where(and(eq(payments.club_id, ctx.clubId), gte(payments.paid_at, from), lt(payments.paid_at, to)))
    .groupBy(month);
  const byMonth = new Map(rows.map((r) => [r.month, Number(r.gross)]));
  return Array.from({ length: months }, (_, i) => {
    const key = monthStart(now, months - 1 - i)
      .toISOString()
      .slice(0, 7);
    return { month: key, gross_cents: byMonth.get(key) ?? 0 };
  });
});

/** Distinct members scanned at the door in each of the last `weeks` weeks, this one included. */
export const attendanceByWeek = verb("access_control:view", async function attendanceByWeek(ctx: Ctx, input: { now?: Date; weeks?: number } = {}): Promise<
  WeekAttendance[]
> {
  const now = input.now ?? new Date();
  const weeks = input.weeks ?? 12;
  const first = weekStart(now, weeks - 1);
  const day = sql<string>`substr(${scans.scanned_at}, 1, 10)`;
  // One row per member and day (not per scan): a busy door scans a member several times a day.
  const rows = await ctx.db.read
    .selectDistinct({ day, member_id: scans.member_id })
    .from(scans)
    .where(and(eq(scans.club_id, ctx.clubId), isNotNull(scans.member_id), gte(scans.scanned_at, first.toISOString())));
  const sets = Array.from({ length: weeks }, () => new Set<string>());
  for (const r of rows) {
    const index = Math.floor((Date.parse(`${r.day}T00:00:00.000Z`) - first.getTime()) / (7 * DAY_MS));
    if (index >= 0 && index < weeks) sets[index].add(r.member_id as string);
  }
  return sets.map((set, i) => ({ week_start: new Date(first.getTime() + i * 7 * DAY_MS).toISOString().slice(0, 10), unique_members: set.size }));
});
