// Tiers (DESIGN.md section 7): the club's membership formulas. `is_active: false` is the soft
// delete (SPEC rule 4); `member_count` counts the members assigned to the tier, whatever their status.
import { and, asc, count, eq, gt, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Queryable } from "../../db";
import { clubs, members, tiers } from "../../db/schema";
import { verb } from "../context";
import { queuePassUpdate } from "../passes";
import type { Ctx } from "../context";
import { newId, nowIso } from "../ids";
import { clubSettings } from "../clubs/internal";
import { getTierRow } from "./internal";
import { dateTimeOutput, multiLine, oneLine } from "../schema-types";

export const Tier = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    price_cents: z.int(),
    currency: z.string(),
    duration_months: z.int(),
    is_active: z.boolean(),
    sort_order: z.int(),
    member_count: z.int(),
    created_at: dateTimeOutput(),
    updated_at: dateTimeOutput(),
  })
  .meta({ id: "Tier", description: "A membership tier; inactive tiers are soft-deleted." });
export type Tier = z.infer<typeof Tier>;

export const TierCreate = z
  .object({
    name: oneLine().trim().min(1).max(200),
    description: multiLine().max(5000).nullish(),
    price_cents: z.int().min(0).max(100_000_000),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .nullish()
      .meta({ description: "ISO 4217 code; default: the club's currency." }),
    duration_months: z.int().min(1).max(120).nullish().meta({ description: "Default: the club's membership_duration_months." }),
    is_active: z.boolean().nullish(),
    sort_order: z.int().min(0).max(100_000).nullish(),
  })
  .meta({ id: "TierCreate", examples: [{ name: "Student", description: "Under 26, with a student card", price_cents: 3000, duration_months: 12 }] });
export type TierCreate = z.infer<typeof TierCreate>;

export const TierUpdate = z
  .object({
    name: oneLine().trim().min(1).max(200).nullish(),
    description: multiLine().max(5000).nullish(),
    price_cents: z.int().min(0).max(100_000_000).nullish(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .nullish(),
    duration_months: z.int().min(1).max(120).nullish(),
    is_active: z.boolean().nullish().meta({ description: "false: soft delete (the tier leaves the default list; its members keep it)." }),
    sort_order: z.int().min(0).max(100_000).nullish(),
  })
  .meta({
    id: "TierUpdate",
    description: "Partial: only the fields sent change; null clears `description` and leaves the others unchanged.",
    examples: [{ price_cents: 3500 }],
  });
export type TierUpdate = z.infer<typeof TierUpdate>;

export const TierListQuery = z.object({
  include_inactive: z.stringbool().default(false).meta({ description: "Also list soft-deleted tiers." }),
});

/** How many members each of the tiers `ids` has: counted in members_tier_idx, not by reading every member. */
export const tierCounts = (q: Queryable, ids: string[]) =>
  q.select({ tier_id: members.tier_id, n: count() }).from(members).where(inArray(members.tier_id, ids)).groupBy(members.tier_id);

async function withCounts(q: Queryable, rows: (typeof tiers.$inferSelect)[]): Promise<Tier[]> {
  if (!rows.length) return [];
  const counts = await tierCounts(
    q,
    rows.map((r) => r.id),
  );
  const byTier = new Map(counts.map((c) => [c.tier_id, c.n]));
  return rows.map(({ club_id: _, ...r }) => ({ ...r, member_count: byTier.get(r.id) ?? 0 }));
}

/** The club's tiers by sort order; active ones only unless `include_inactive`. */
export const listTiers = verb("members:view", async function listTiers(ctx: Ctx, input: { include_inactive?: boolean }): Promise<Tier[]> {
  const where = [eq(tiers.club_id, ctx.clubId)];
  if (!input.include_inactive) where.push(eq(tiers.is_active, true));
  const rows = await ctx.db.read
    .select()
    .from(tiers)
    .where(and(...where))
    .orderBy(asc(tiers.sort_order), asc(tiers.created_at));
  return withCounts(ctx.db.read, rows);
});

/** Creates a tier; currency and duration default to the club's. */
export const createTier = verb("members:edit", async function createTier(ctx: Ctx, input: TierCreate): Promise<Tier> {
  const row = await ctx.db.tx(async (t) => {
    const club = await clubSettings(t, ctx.clubId);
    const now = nowIso();
    const [created] = await t
      .insert(tiers)
      .values({
        id: newId(),
        club_id: ctx.clubId,
        name: input.name,
        description: input.description ?? null,
        price_cents: input.price_cents,
        currency: input.currency ?? club.currency,
        duration_months: input.duration_months ?? club.membership_duration_months,
        is_active: input.is_active ?? true,
        sort_order: input.sort_order ?? 0,
        created_at: now,
        updated_at: now,
      })
      .returning();
    return created;
  });
  return (await withCounts(ctx.db.read, [row]))[0];
});

/** Partial update; 404 TIER_NOT_FOUND for an id outside the club. A rename queues its members' wallet pass update. */
export const updateTier = verb("members:edit", async function updateTier(ctx: Ctx, input: TierUpdate & { tier_id: string }): Promise<Tier> {
  const row = await ctx.db.tx(async (t) => {
    const current = await getTierRow(t, ctx.clubId, input.tier_id);
    const set: Record<string, unknown> = {};
    for (const key of ["name", "price_cents", "currency", "duration_months", "is_active", "sort_order"] as const) {
      if (input[key] !== undefined && input[key] !== null) set[key] = input[key];
    }
    if (input.description !== undefined) set.description = input.description;
    if (!Object.keys(set).length) return current;
    const [updated] = await t
      .update(tiers)
      .set({ ...set, updated_at: nowIso() })
      .where(and(eq(tiers.club_id, ctx.clubId), eq(tiers.id, input.tier_id)))
      .returning();
    // The tier's name shows on its members' cards (web card, Apple pass, Google object): a
    // rename updates their wallet passes. Nothing else of a tier shows on a card.
    if (updated.name !== current.name) {
      const holders = await t
        .select({ id: members.id })
        .from(members)
        .where(and(eq(members.club_id, ctx.clubId), eq(members.tier_id, updated.id)));
      await queuePassUpdate(
        t,
        ctx.clubId,
        holders.map((m) => m.id),
        "tier",
      );
    }
    return updated;
  });
  return (await withCounts(ctx.db.read, [row]))[0];
});

export type MembershipPricing = {
  fee_cents: number;
  /** Active tiers with a price above 0. */
  priced_tiers: number;
  /** The club sells memberships at 0: its fee is 0 and no active tier has a price (a renewal then asks nothing: "Nothing to pay"). */
  at_zero: boolean;
};

/** Whether the club asks anything for a membership: its fee, and its active tiers with a price (dues: lib/members/dues.ts). */
export const membershipPricing = verb(
  "finances:view",
  async function membershipPricing(ctx: Ctx, _input: Record<string, never> = {}): Promise<MembershipPricing> {
    const [club] = await ctx.db.read.select({ fee: clubs.membership_fee_cents }).from(clubs).where(eq(clubs.id, ctx.clubId)).limit(1);
    const [priced] = await ctx.db.read
      .select({ n: count() })
      .from(tiers)
      .where(and(eq(tiers.club_id, ctx.clubId), eq(tiers.is_active, true), gt(tiers.price_cents, 0)));
    const fee = club?.fee ?? 0;
    return { fee_cents: fee, priced_tiers: priced.n, at_zero: fee === 0 && priced.n === 0 };
  },
);
