// Promo codes (SPEC "Promo code create payload", rule 5; DESIGN.md sections 7 and 12): list,
// create, change, and the one rule that decides whether a code applies and how much it takes
// off, used inside the transaction of a registration.
import { and, asc, eq, gt, isNull, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Queryable } from "../../db";
import { promoCodes, promoRedemptions } from "../../db/schema";
import { verb } from "../context";
import type { Ctx } from "../context";
import { Conflict, type Invalid, NotFound, ValidationFailed } from "../errors";
import { getEventOrThrow, utcDates } from "../events/internal";
import { newId, nowIso } from "../ids";
import { dateTimeInput, oneLine } from "../schema-types";
import { foreignTierItems } from "../tiers/internal";

export const DISCOUNT_TYPES = ["percent", "amount"] as const;
export const PROMO_SCOPES = ["membership", "event"] as const;

export const PromoCodeCreate = z
  .object({
    code: oneLine().trim().min(4).max(30),
    discount_type: z.enum(DISCOUNT_TYPES),
    discount_value: z.int().gt(0).max(100_000_000).meta({ description: "Percent (1..100) or cents." }),
    currency: oneLine().max(3).nullish(),
    applies_to_tier_ids: z
      .array(z.uuid())
      .max(100)
      .nullish()
      .meta({ description: "The membership tiers a `membership` code discounts; not allowed on an event code." }),
    event_id: z.uuid().nullish().meta({ description: "Ties the code to one event (scope `event`)." }),
    scope: z.enum(PROMO_SCOPES).nullish().meta({ description: "Default: `event` when event_id is given, else `membership`." }),
    max_uses: z.int().min(1).max(1_000_000).nullish(),
    valid_from: dateTimeInput().nullish(),
    valid_until: dateTimeInput().nullish(),
    is_active: z.boolean().default(true),
  })
  .meta({
    id: "PromoCodeCreate",
    description: "A new promo code; `code` is unique in the club whatever its case.",
    examples: [{ code: "WELCOME10", discount_type: "percent", discount_value: 10 }],
  });

export const PromoCodePublic = z
  .object({
    id: z.uuid(),
    code: z.string(),
    discount_type: z.enum(DISCOUNT_TYPES),
    discount_value: z.int(),
    currency: z.string().nullable(),
    applies_to_tier_ids: z.array(z.string()).nullable(),
    event_id: z.string().nullable(),
    scope: z.enum(PROMO_SCOPES),
    max_uses: z.int().nullable(),
    used_count: z.int(),
    valid_from: z.string().meta({ format: "date-time" }).nullable(),
    valid_until: z.string().meta({ format: "date-time" }).nullable(),
    is_active: z.boolean(),
    created_at: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "PromoCodePublic" });

export const PromoCodeUpdate = z
  .object({
    code: PromoCodeCreate.shape.code.optional(),
    discount_type: z.enum(DISCOUNT_TYPES).optional(),
    discount_value: PromoCodeCreate.shape.discount_value.optional(),
    max_uses: z.int().min(1).max(1_000_000).nullish().meta({ description: "null: no limit. Never below `used_count` (409)." }),
    valid_from: dateTimeInput().nullish().meta({ description: "null: from now on." }),
    valid_until: dateTimeInput().nullish().meta({ description: "null: no end." }),
    is_active: z.boolean().optional(),
  })
  .meta({
    id: "PromoCodeUpdate",
    description:
      "Partial: only the fields sent change; null clears a date or the use limit. `code`, `discount_type` and `discount_value` change only while the code is unused (`used_count` 0; else 409).",
    examples: [{ is_active: false }],
  });

export const PromoCodeIdParams = z.object({ club_id: z.uuid(), promo_code_id: z.uuid() });

/** The list's filters (SPEC rule 5), as query strings; the MCP tool takes the same with a JSON boolean. */
export const PromoCodeListQuery = z.object({
  include_inactive: z.stringbool().default(true).meta({ description: "Also list inactive codes (default true)." }),
  event_id: z.uuid().optional().meta({ description: "Only the codes of this event." }),
  scope: z
    .enum([...PROMO_SCOPES, "all"])
    .default("all")
    .meta({ description: "`membership` codes, `event` codes, or `all` (default)." }),
});

export type PromoCodeCreate = z.output<typeof PromoCodeCreate>;
export type PromoCodePublic = z.output<typeof PromoCodePublic>;
export type PromoCodeUpdate = z.output<typeof PromoCodeUpdate>;
export type PromoRow = typeof promoCodes.$inferSelect;
type ListInput = Partial<z.output<typeof PromoCodeListQuery>>;

function toPublic(r: PromoRow): PromoCodePublic {
  return {
    id: r.id,
    code: r.code,
    discount_type: r.discount_type as PromoCodePublic["discount_type"],
    discount_value: r.discount_value,
    currency: r.currency,
    applies_to_tier_ids: r.applies_to_tier_ids ?? null,
    event_id: r.event_id,
    scope: r.scope as PromoCodePublic["scope"],
    max_uses: r.max_uses,
    used_count: r.used_count,
    valid_from: r.valid_from,
    valid_until: r.valid_until,
    is_active: r.is_active,
    created_at: r.created_at,
  };
}

/** The club's promo codes, oldest first; filters of SPEC rule 5 (`event_id`, `scope`) and `include_inactive`. */
export const listPromoCodes = verb("finances:view", async function listPromoCodes(ctx: Ctx, q: ListInput): Promise<PromoCodePublic[]> {
  const where: SQL[] = [eq(promoCodes.club_id, ctx.clubId)];
  if (q.include_inactive === false) where.push(eq(promoCodes.is_active, true));
  if (q.event_id) where.push(eq(promoCodes.event_id, q.event_id));
  if (q.scope && q.scope !== "all") where.push(eq(promoCodes.scope, q.scope));
  const rows = await ctx.db.read
    .select()
    .from(promoCodes)
    .where(and(...where))
    .orderBy(asc(promoCodes.created_at), asc(promoCodes.id));
  return rows.map(toPublic);
});

/** A percent over 100, or an end not after the start: the 422 items of a code's values (create and update alike). */
function checkValues(v: { discount_type: string; discount_value: number; valid_from?: string | null; valid_until?: string | null }): Invalid[] {
  const items: Invalid[] = [];
  if (v.discount_type === "percent" && v.discount_value > 100) items.push({ loc: ["body", "discount_value"], code: "PROMO_PERCENT_MAX" });
  if (v.valid_from && v.valid_until && Date.parse(v.valid_until) <= Date.parse(v.valid_from)) {
    items.push({ loc: ["body", "valid_until"], code: "DATE_ORDER", params: { field: "valid_until", other: "valid_from" } });
  }
  return items;
}

/** 409 PROMO_CODE_TAKEN when `code` (any case) names another code of the club. */
async function checkCodeFree(t: Queryable, clubId: string, code: string, exceptId?: string) {
  const key = code.toUpperCase();
  const [dup] = await t
    .select({ id: promoCodes.id })
    .from(promoCodes)
    .where(and(eq(promoCodes.club_id, clubId), eq(promoCodes.code_key, key), exceptId ? ne(promoCodes.id, exceptId) : undefined))
    .limit(1);
  if (dup) throw new Conflict("PROMO_CODE_TAKEN", { code });
  return key;
}

/**
 * Creates a promo code. 422: a percent over 100, `valid_until` not after `valid_from`, a date
 * outside the years 0001..9999 (UTC), scope `membership` with an event, `applies_to_tier_ids`
 * on an event code (tiers concern membership purchases), an id there that is not a tier of the
 * club. 404: an event of another club. 409:
 * the code exists in the club in any case.
 */
export const createPromoCode = verb("finances:edit", async function createPromoCode(ctx: Ctx, sent: PromoCodeCreate): Promise<PromoCodePublic> {
  const input = utcDates(sent, ["valid_from", "valid_until"]);
  const items = checkValues(input);
  if (input.event_id && input.scope === "membership") items.push({ loc: ["body", "scope"], code: "PROMO_EVENT_SCOPE" });
  // Tiers are what a membership purchase buys: an event code limited to tiers would be stored and never honoured.
  const scope = input.scope ?? (input.event_id ? "event" : "membership");
  if (scope === "event" && input.applies_to_tier_ids?.length) items.push({ loc: ["body", "applies_to_tier_ids"], code: "PROMO_TIERS_MEMBERSHIP_ONLY" });
  if (items.length) throw new ValidationFailed(items);
  return ctx.db.tx(async (t) => {
    if (input.event_id) await getEventOrThrow(t, ctx.clubId, input.event_id);
    const tierRefs = (input.applies_to_tier_ids ?? []).map((id, i) => ({ id, loc: ["body", "applies_to_tier_ids", i] }));
    const foreign = await foreignTierItems(t, ctx.clubId, tierRefs);
    if (foreign.length) throw new ValidationFailed(foreign);
    const key = await checkCodeFree(t, ctx.clubId, input.code);
    const now = nowIso();
    const [row] = await t
      .insert(promoCodes)
      .values({
        id: newId(),
        club_id: ctx.clubId,
        code: input.code,
        code_key: key,
        discount_type: input.discount_type,
        discount_value: input.discount_value,
        currency: input.currency ?? null,
        applies_to_tier_ids: input.applies_to_tier_ids ?? null,
        event_id: input.event_id ?? null,
        scope,
        max_uses: input.max_uses ?? null,
        used_count: 0,
        valid_from: input.valid_from ?? null,
        valid_until: input.valid_until ?? null,
        is_active: input.is_active ?? true,
        created_at: now,
        updated_at: now,
      })
      .returning();
    return toPublic(row);
  });
});

/** The fields whose change would rewrite what earlier redemptions were given. */
const FIXED_ONCE_USED = ["code", "discount_type", "discount_value"] as const;

type PromoCodeChange = PromoCodeUpdate & { promo_code_id: string };

/**
 * Changes a promo code: only the fields sent; null clears a date or the use limit. 404 for an id
 * of another club. 409: code, discount type or value changed once the code has been used
 * (earlier registrations would no longer match it), max_uses below used_count, the code taken in
 * the club. 422: a percent over 100 or an end not after the start, checked on the code as it
 * would become; a date outside the years 0001..9999 (UTC).
 */
export const updatePromoCode = verb("finances:edit", async function updatePromoCode(ctx: Ctx, sent: PromoCodeChange): Promise<PromoCodePublic> {
  const { promo_code_id, ...fields } = utcDates(sent, ["valid_from", "valid_until"]);
  return ctx.db.tx(async (t) => {
    const [current] = await t
      .select()
      .from(promoCodes)
      .where(and(eq(promoCodes.id, promo_code_id), eq(promoCodes.club_id, ctx.clubId)))
      .limit(1);
    if (!current) throw new NotFound("PROMO_CODE_NOT_FOUND");
    const set: Partial<PromoRow> = {};
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) (set as Record<string, unknown>)[name] = value;
    if (set.code !== undefined && set.code === current.code) delete set.code;
    if (current.used_count > 0 && FIXED_ONCE_USED.some((f) => set[f] !== undefined && set[f] !== current[f])) {
      throw new Conflict("PROMO_CODE_USED", { count: current.used_count });
    }
    const merged = { ...current, ...set };
    const items = checkValues(merged);
    if (items.length) throw new ValidationFailed(items);
    if (set.max_uses != null && set.max_uses < current.used_count) throw new Conflict("PROMO_MAX_USES_BELOW_USED", { count: current.used_count });
    if (set.code !== undefined) set.code_key = await checkCodeFree(t, ctx.clubId, set.code, current.id);
    if (!Object.keys(set).length) return toPublic(current);
    const [row] = await t
      .update(promoCodes)
      .set({ ...set, updated_at: nowIso() })
      .where(and(eq(promoCodes.id, current.id), eq(promoCodes.club_id, ctx.clubId)))
      .returning();
    return toPublic(row);
  });
});

/**
 * A redeemable code: its discount on the price, and `record`, which writes its redemption row and
 * counts the use (used_count + 1), or with `awaitingPayment` only reserves it: a membership code
 * given at join is counted once the member pays (countMembershipPromo).
 */
export type Redeemed = {
  promo: PromoRow;
  discount: number;
  record: (registrationId: string | null, memberId: string | null, opts?: { awaitingPayment?: boolean }) => Promise<void>;
};

/**
 * Inside the caller's transaction: finds `code` in the club and checks what every code must be
 * (active, `applies` to this purchase, currency, dates, uses left): 409 PROMO_CODE_UNKNOWN,
 * PROMO_CODE_NOT_APPLICABLE, PROMO_CODE_NOT_VALID_NOW, PROMO_CODE_EXHAUSTED. The discount never
 * exceeds `price`.
 */
async function redeemPromo(
  t: Queryable,
  input: { clubId: string; currency: string; code: string; price: number; now: Date },
  applies: (promo: PromoRow) => boolean,
): Promise<Redeemed> {
  const [promo] = await t
    .select()
    .from(promoCodes)
    .where(and(eq(promoCodes.club_id, input.clubId), eq(promoCodes.code_key, input.code.trim().toUpperCase())))
    .limit(1);
  if (!promo?.is_active) throw new Conflict("PROMO_CODE_UNKNOWN");
  if (!applies(promo)) throw new Conflict("PROMO_CODE_NOT_APPLICABLE");
  if (promo.discount_type === "amount" && promo.currency && promo.currency.toUpperCase() !== input.currency.toUpperCase())
    throw new Conflict("PROMO_CODE_NOT_APPLICABLE");
  const now = input.now.getTime();
  if ((promo.valid_from && now < Date.parse(promo.valid_from)) || (promo.valid_until && now > Date.parse(promo.valid_until)))
    throw new Conflict("PROMO_CODE_NOT_VALID_NOW");
  if (promo.max_uses !== null && promo.used_count >= promo.max_uses) throw new Conflict("PROMO_CODE_EXHAUSTED");
  const discount = Math.min(input.price, promo.discount_type === "percent" ? Math.round((input.price * promo.discount_value) / 100) : promo.discount_value);
  return {
    promo,
    discount,
    record: async (registrationId, memberId, opts) => {
      if (!opts?.awaitingPayment) await countUse(t, promo.id, input.now.toISOString());
      await t.insert(promoRedemptions).values({
        id: newId(),
        club_id: input.clubId,
        promo_code_id: promo.id,
        registration_id: registrationId,
        member_id: memberId,
        discount_cents: discount,
        created_at: input.now.toISOString(),
        awaiting_payment: !!opts?.awaitingPayment,
      });
    },
  };
}

/**
 * Counts one use, if one is left: a conditional write, so that of registrations racing for a
 * code's last use (any connection, any process) one gets it and the others are refused
 * PROMO_CODE_EXHAUSTED, their whole transaction undone.
 */
async function countUse(t: Queryable, promoId: string, now: string): Promise<void> {
  const [counted] = await t
    .update(promoCodes)
    .set({ used_count: sql`${promoCodes.used_count} + 1`, updated_at: now })
    .where(and(eq(promoCodes.id, promoId), or(isNull(promoCodes.max_uses), lt(promoCodes.used_count, promoCodes.max_uses))))
    .returning({ id: promoCodes.id });
  if (!counted) throw new Conflict("PROMO_CODE_EXHAUSTED");
}

/** An event registration's code: scope `event`, tied to this event or to none. */
export const redeemEventPromo = (t: Queryable, input: { clubId: string; eventId: string; currency: string; code: string; price: number; now: Date }) =>
  redeemPromo(t, input, (p) => p.scope === "event" && (!p.event_id || p.event_id === input.eventId));

/** A membership's code (joining online): scope `membership`, for this tier or for every tier. */
export const redeemMembershipPromo = (t: Queryable, input: { clubId: string; tierId: string; currency: string; code: string; price: number; now: Date }) =>
  redeemPromo(t, input, (p) => p.scope === "membership" && (!p.applies_to_tier_ids?.length || p.applies_to_tier_ids.includes(input.tierId)));

/**
 * Inside the caller's transaction: gives back the use a cancelled registration made of a code
 * (its redemption row goes, used_count - 1), so that a code limited to N uses serves N people
 * who actually come. Nothing when the registration used no code.
 */
export async function releaseEventPromo(t: Queryable, input: { clubId: string; registrationId: string; now: string }): Promise<void> {
  const gone = await t
    .delete(promoRedemptions)
    .where(and(eq(promoRedemptions.club_id, input.clubId), eq(promoRedemptions.registration_id, input.registrationId)))
    .returning({ promo_code_id: promoRedemptions.promo_code_id });
  for (const { promo_code_id } of gone) {
    await t
      .update(promoCodes)
      .set({ used_count: sql`${promoCodes.used_count} - 1`, updated_at: input.now })
      .where(and(eq(promoCodes.id, promo_code_id), gt(promoCodes.used_count, 0)));
  }
}

/**
 * Inside the caller's transaction: the use of a code given back when the registration was
 * cancelled is taken again, for a registration that comes back (its ticket paid after its hold
 * ran out, at the discounted price). Counted even where the code's uses ran out meanwhile: the
 * registrant paid the price promised. Nothing when the registration used no code, or still
 * holds its use.
 */
export async function retakeEventPromo(
  t: Queryable,
  input: { clubId: string; registrationId: string; memberId: string | null; promoCodeId: string | null; discount: number; now: string },
): Promise<void> {
  if (!input.promoCodeId) return;
  const [held] = await t
    .select({ id: promoRedemptions.id })
    .from(promoRedemptions)
    .where(and(eq(promoRedemptions.club_id, input.clubId), eq(promoRedemptions.registration_id, input.registrationId)))
    .limit(1);
  if (held) return;
  const [code] = await t
    .update(promoCodes)
    .set({ used_count: sql`${promoCodes.used_count} + 1`, updated_at: input.now })
    .where(and(eq(promoCodes.id, input.promoCodeId), eq(promoCodes.club_id, input.clubId)))
    .returning({ id: promoCodes.id });
  if (!code) return;
  await t.insert(promoRedemptions).values({
    id: newId(),
    club_id: input.clubId,
    promo_code_id: input.promoCodeId,
    registration_id: input.registrationId,
    member_id: input.memberId,
    discount_cents: input.discount,
    created_at: input.now,
    awaiting_payment: false,
  });
}
