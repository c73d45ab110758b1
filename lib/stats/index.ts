// Club stats (SPEC rule 6, DESIGN.md section 10): member counts by derived status and revenue
// this month and all time, computed from the members and payments tables. Months are UTC
// calendar months: [first day 00:00, first day of the next month 00:00).
import { and, count, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { members, payments } from "../../db/schema";
import { verb } from "../context";
import type { Ctx } from "../context";
import { clubSettings } from "../clubs/internal";
import { countByStatus } from "../members";
import { statusDay } from "../members/status";
import { netCents } from "./net";
import { monthStart } from "./series";

const Breakdown = z
  .object({
    gross_cents: z.int(),
    provider_fees_cents: z.int(),
    platform_commission_cents: z.int(),
    net_cents: z.int().meta({ description: "gross - provider fees - platform commission" }),
    memberships_cents: z.int().meta({ description: "gross from membership payments" }),
    events_cents: z.int().meta({ description: "gross from event payments" }),
  })
  .meta({ id: "RevenueBreakdown" });

export const ClubStats = z
  .object({
    currency: z.string(),
    members: z.object({ total: z.int(), active: z.int(), expired: z.int(), pending: z.int(), suspended: z.int(), new_this_month: z.int() }),
    revenue: z.object({ this_month: Breakdown, all_time: Breakdown }),
  })
  .meta({ id: "ClubStats" });

export type ClubStats = z.output<typeof ClubStats>;
type Breakdown = z.output<typeof Breakdown>;

/** `now`'s UTC calendar month: its first instant and the next month's. */
export function monthBounds(now: Date): { start: string; end: string } {
  return { start: monthStart(now, 0).toISOString(), end: monthStart(now, -1).toISOString() };
}

async function revenue(ctx: Ctx, range?: { start: string; end: string }): Promise<Breakdown> {
  const where: SQL[] = [eq(payments.club_id, ctx.clubId)];
  if (range) where.push(gte(payments.paid_at, range.start), lt(payments.paid_at, range.end));
  const rows = await ctx.db.read
    .select({
      kind: payments.kind,
      gross: sql<number>`coalesce(sum(${payments.amount_cents}), 0)`,
      fees: sql<number>`coalesce(sum(${payments.provider_fee_cents}), 0)`,
      commission: sql<number>`coalesce(sum(${payments.platform_commission_cents}), 0)`,
    })
    .from(payments)
    .where(and(...where))
    .groupBy(payments.kind);
  const out: Breakdown = { gross_cents: 0, provider_fees_cents: 0, platform_commission_cents: 0, net_cents: 0, memberships_cents: 0, events_cents: 0 };
  for (const r of rows) {
    const gross = Number(r.gross);
    out.gross_cents += gross;
    out.provider_fees_cents += Number(r.fees);
    out.platform_commission_cents += Number(r.commission);
    if (r.kind === "membership") out.memberships_cents += gross;
    if (r.kind === "event") out.events_cents += gross;
  }
  out.net_cents = netCents({ gross: out.gross_cents, fees: out.provider_fees_cents, commission: out.platform_commission_cents });
  return out;
}

/**
 * The club's figures at `now` (default: the current time). Member counts use the derived
 * status of DESIGN.md section 6 (lib/members/status.ts). Commission is the amount stored on each payment row when it was recorded.
 */
export const clubStats = verb("finances:view", async function clubStats(ctx: Ctx, input: { now?: Date } = {}): Promise<ClubStats> {
  const now = input.now ?? new Date();
  const today = now.toISOString().slice(0, 10);
  const month = monthBounds(now);
  const club = await clubSettings(ctx.db.read, ctx.clubId);
  const day = statusDay(today, club.grace_period_days);
  const counts = await countByStatus(ctx.db, ctx.clubId, day);
  const [fresh] = await ctx.db.read
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.club_id, ctx.clubId), gte(members.created_at, month.start), lt(members.created_at, month.end)));
  return {
    currency: club.currency,
    members: {
      total: counts.all,
      active: counts.active,
      expired: counts.expired,
      pending: counts.pending,
      suspended: counts.suspended,
      new_this_month: fresh.n,
    },
    revenue: { this_month: await revenue(ctx, month), all_time: await revenue(ctx) },
  };
});
