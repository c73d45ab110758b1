// Joining a club online (DESIGN.md section 13), first slice: bank transfer only (Stripe comes
// later). Owns the public club page a join form is drawn from, the join itself (per
// `membership_mode`, the price less a membership promo code and the referral reward, the
// existing member who tries again), the admin's decision on an application (approve, reject),
// and the mails of each step, in the club's language.
import { and, asc, eq } from "drizzle-orm";
import { insertRow, type Queryable, withinTx } from "../../db";
import { clubs, members, tiers } from "../../db/schema";
import { clubCardView } from "../cards/view";
import type { ClubRow } from "../clubs/internal";
import { type Ctx, type PublicCtx, verb } from "../context";
import { Conflict, Forbidden, inClubLanguage, type Invalid, NotFound, ValidationFailed } from "../errors";
import { checkFormProof, spendFormProof } from "../forms";
import type { Locale } from "../i18n";
import { nowIso } from "../ids";
import { bankTransferOf, memberCheckout, renewsItself, stripeOf } from "../member-page";
import { type PaymentMethod, paymentMethods } from "../clubs/payments";
import { newMemberRow } from "../members";
import { eraseMember } from "../members/erase";
import { customFieldsOf } from "../members/export";
import {
  freeReferralCode,
  getMemberRow,
  memberAuthor,
  memberPageUrl,
  type MemberRow,
  newManageToken,
  normalizeEmail,
  periodEnd,
  writeHistory,
} from "../members/internal";
import type { MemberAdminItem } from "../members/schemas";
import { emitMemberChange, getMemberItem, lockMember, lockMemberEmail } from "../members/internal";
import { namingRead } from "../../db/locks";
import { countMembershipPromo } from "../members/promo-use";
import { statusOn, todayUtc } from "../members/status";
import { redeemMembershipPromo } from "../promo";
import type { AddressRate } from "../ratelimit";
import { emitter } from "../webhooks/emit";
import { type JoinMail, queueJoinMail } from "../member-page/mails";
import type { JoinAnswer, JoinRequest, PublicClub } from "./schemas";

/** Joining and the club page a join form reads: 20 a minute per client address (DESIGN.md section 13). */
export const JOIN_RATE: AddressRate = { scope: "join", perMinute: 20 };
export const PUBLIC_CLUB_RATE: AddressRate = { scope: "public-club", perMinute: 60 };

async function clubBySlug(q: Queryable, slug: string): Promise<ClubRow> {
  const [club] = await q.select().from(clubs).where(eq(clubs.slug, slug)).limit(1);
  if (!club) throw new NotFound("CLUB_NOT_FOUND");
  return club;
}

const modeOf = (club: ClubRow): PublicClub["membership_mode"] =>
  club.membership_mode === "application" || club.membership_mode === "closed" ? club.membership_mode : "open";

/** The club's page for a join form: who it is, its active tiers, how to pay, what to ask. Nothing about members. */
export async function getPublicClub(ctx: PublicCtx, slug: string): Promise<PublicClub> {
  const club = await clubBySlug(ctx.db.read, slug);
  const view = clubCardView(club);
  const methods = paymentMethods(club, !!stripeOf(ctx));
  const subscribing = club.allow_subscription && methods.includes("stripe");
  const offered = await ctx.db.read
    .select()
    .from(tiers)
    .where(and(eq(tiers.club_id, club.id), eq(tiers.is_active, true)))
    .orderBy(asc(tiers.sort_order), asc(tiers.created_at));
  return {
    slug: club.slug,
    name: view.clubName,
    description: club.description,
    logo_url: view.logoUrl,
    primary_color: view.colors.primary,
    secondary_color: view.colors.secondary,
    locale: view.locale,
    membership_mode: modeOf(club),
    application_instructions: club.application_instructions,
    currency: club.currency,
    tiers: offered.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      price_cents: t.price_cents,
      currency: t.currency,
      duration_months: t.duration_months,
    })),
    payment_methods: methods,
    custom_fields: fieldDefinitions(club.custom_fields_schema),
    // Subscriptions are by card only: offered when the club allows them and takes cards now.
    allow_subscription: subscribing,
    subscription_default: subscribing && club.subscription_default,
    subscription_only: subscribing && club.subscription_only,
  };
}

type FieldDef = Record<string, unknown> & { key: string };

/** The club's custom field definitions that have a key (the same ones the import and export know). */
function fieldDefinitions(schema: unknown): FieldDef[] {
  const keys = new Set(customFieldsOf(schema).map((f) => f.key));
  return (Array.isArray(schema) ? schema : []).filter((f): f is FieldDef => keys.delete((f as FieldDef)?.key));
}

/**
 * The answers checked against the club's definitions: a key it does not ask for, a `required`
 * field left out or empty, a value not of the field's `type` (`number`, `boolean`, else text)
 * or, for a field with `options`, not one of them. An option is taken as defined (a number
 * stays a number, whatever the field's type) or as its text (a form sends `2` as "2"), and
 * stored as defined. Empty answers are dropped.
 */
export function checkCustomFields(schema: unknown, answers: Record<string, unknown> | null | undefined): { values: Record<string, unknown>; items: Invalid[] } {
  const defs = fieldDefinitions(schema);
  const given = answers ?? {};
  const items: Invalid[] = [];
  const values: Record<string, unknown> = {};
  const loc = (key: string) => ["body", "custom_fields", key];
  for (const key of Object.keys(given)) if (!defs.some((d) => d.key === key)) items.push({ loc: loc(key), code: "CUSTOM_FIELD_UNKNOWN" });
  for (const d of defs) {
    const v = given[d.key];
    if (v === undefined || v === null || v === "") {
      if (d.required === true) items.push({ loc: loc(d.key), code: "CUSTOM_FIELD_REQUIRED" });
      continue;
    }
    const type = d.type === "number" || d.type === "boolean" ? d.type : "text";
    const options = Array.isArray(d.options) ? d.options.map((o) => (o && typeof o === "object" ? (o as { value?: unknown }).value : o)) : null;
    // The options are the answers: their own type decides, not the field's (numbers on a text field).
    const option = options?.find((o) => o === v || (typeof v === "string" && o !== null && o !== undefined && String(o) === v));
    const fits = options ? option !== undefined : type === "text" ? typeof v === "string" && !/[\r\n]/.test(v) : typeof v === type;
    if (!fits) items.push({ loc: loc(d.key), code: "CUSTOM_FIELD_INVALID" });
    else values[d.key] = options ? option : v;
  }
  return { values, items };
}

/** An active member of the club whose card code is `code`, or null. */
async function referrerOf(t: Queryable, club: ClubRow, code: string, today: string): Promise<MemberRow | null> {
  // Locked as read (namingRead): the new member names them (referred_by_member_id).
  const [m] = await namingRead(
    t
      .select()
      .from(members)
      .where(and(eq(members.club_id, club.id), eq(members.referral_code, code.trim().toUpperCase())))
      .limit(1),
  );
  return m && statusOn(m, today, club.grace_period_days) === "active" ? m : null;
}

/**
 * Joins the club whose slug is `slug`. Per its `membership_mode`: `open` -> a pending member
 * (active at once when nothing is left to pay), `application` -> a pending member awaiting the
 * admin's approval, `closed` -> 403 JOIN_CLOSED. The price: the tier's, less a `membership`
 * promo code, less the referral reward (`member_referral_reward_percent` of the tier's price,
 * when the club's referral is on and `referral_code` is an active member's), never below 0. An
 * address that is already a member's: 409 ALREADY_MEMBER, nobody created, and that member is
 * mailed the link to their page (the answer carries neither). 404 unknown club; 422 a tier not
 * on offer, an unknown referral code, custom fields not as the club asks; 409 a refused promo
 * code, a payment method the club does not offer (PAYMENT_METHOD_UNAVAILABLE: `stripe` until
 * card payments are configured); 403 the form's proof refused (lib/forms). The new member is
 * mailed what to do next: the bank transfer details, their welcome, or that the application is
 * received.
 */
export async function joinClub(ctx: PublicCtx, slug: string, input: JoinRequest, nowDate = new Date()): Promise<JoinAnswer> {
  const proof = await checkFormProof(ctx.db, ctx.formProofBits, input, nowDate, ctx.formNoScriptMinMs);
  let locale: Locale | undefined;
  const outcome = await inClubLanguage(
    () => locale,
    () =>
      ctx.db.tx(async (t) => {
        await spendFormProof(t, proof, nowDate);
        const club = await clubBySlug(t, slug);
        locale = clubCardView(club).locale;
        const mode = modeOf(club);
        if (mode === "closed") throw new Forbidden("JOIN_CLOSED");
        const [tier] = await t
          .select()
          .from(tiers)
          .where(and(eq(tiers.id, input.tier_id), eq(tiers.club_id, club.id), eq(tiers.is_active, true)))
          .limit(1);
        const items: Invalid[] = tier ? [] : [{ loc: ["body", "tier_id"], code: "TIER_NOT_OFFERED" }];
        const custom = checkCustomFields(club.custom_fields_schema, input.custom_fields);
        items.push(...custom.items);
        if (items.length) throw new ValidationFailed(items);

        const email = normalizeEmail(input.email);
        await lockMemberEmail(t, club.id, email);
        const [existing] = await t
          .select()
          .from(members)
          .where(and(eq(members.club_id, club.id), eq(members.email, email)))
          .limit(1);
        if (existing) {
          // Committed with the spent challenge; the refusal is thrown once it is. Only the page
          // token's hash is kept, so the mail carries a new one (the member's older links end).
          const page = newManageToken();
          await t.update(members).set({ manage_token: page.hash }).where(eq(members.id, existing.id));
          await queueJoinMail(t, ctx, club, "alreadyMember", { ...existing, pageToken: page.token });
          return { already: true as const };
        }

        const today = todayUtc(nowDate);
        const promo = input.promo_code
          ? await redeemMembershipPromo(t, {
              clubId: club.id,
              tierId: tier.id,
              currency: tier.currency,
              code: input.promo_code,
              price: tier.price_cents,
              now: nowDate,
            })
          : null;
        const referrer = input.referral_code && club.member_referral_enabled ? await referrerOf(t, club, input.referral_code, today) : null;
        if (input.referral_code && club.member_referral_enabled && !referrer) {
          throw new ValidationFailed([{ loc: ["body", "referral_code"], code: "REFERRAL_CODE_UNKNOWN" }]);
        }
        const reward = referrer ? Math.round((tier.price_cents * club.member_referral_reward_percent) / 100) : 0;
        const discount = Math.min(tier.price_cents, (promo?.discount ?? 0) + reward);
        const amount = tier.price_cents - discount;
        const methods = paymentMethods(club, !!stripeOf(ctx));
        if (amount > 0 && !methods.includes(input.payment_method as PaymentMethod)) throw new Conflict("PAYMENT_METHOD_UNAVAILABLE");
        const byCard = amount > 0 && input.payment_method === "stripe";
        // Refused here, before anything is written, rather than once the member exists.
        if (byCard) renewsItself(club, input.subscription, tier.duration_months);

        const activeNow = amount === 0 && mode === "open";
        const page = newManageToken();
        const row = newMemberRow(club.id, {
          page_token: page.token,
          first_name: input.first_name,
          last_name: input.last_name,
          email,
          membership_start: today,
          membership_end: periodEnd(today, tier.duration_months),
          payment_status: activeNow ? "paid" : "pending",
          payment_method: amount > 0 ? input.payment_method : null,
          tier_id: tier.id,
          custom_fields: Object.keys(custom.values).length ? custom.values : null,
          referral_code: await freeReferralCode(t, club.id),
        });
        const created = (await insertRow(
          ctx.db,
          t,
          members,
          "members",
          {
            ...row,
            is_manual: false,
            acquisition_source: referrer ? "referral" : "join",
            referred_by_member_id: referrer?.id ?? null,
            application_status: mode === "application" ? "pending_approval" : null,
            amount_due_cents: amount > 0 ? amount : null,
          },
          true,
        )) as MemberRow;
        // Reserved, counted once the member pays (mark-paid: countMembershipPromo) or, with nothing
        // to pay, once accepted (approveMember): an application turned down used nothing. A free
        // join in an open club is accepted and paid now.
        await promo?.record(null, created.id, { awaitingPayment: amount > 0 || mode === "application" });
        await emitMemberChange(await emitter(ctx.db, t, club.id), null, created, () => getMemberItem(withinTx(ctx.db, t), club.id, created.id));
        await writeHistory(ctx.db, t, memberAuthor(club.id), {
          memberId: created.id,
          action: "join",
          to: created,
          details: { amount_cents: amount, discount_cents: discount, promo_code_id: promo?.promo.id ?? null, referred_by: referrer?.id ?? null },
        });
        const transfer = amount > 0 && mode === "open" && !byCard ? bankTransferOf(club, created.referral_code, amount, tier.currency) : null;
        const mail: JoinMail = mode === "application" ? "applied" : transfer ? "payment" : byCard ? "cardPayment" : "welcome";
        await queueJoinMail(t, ctx, club, mail, { ...created, pageToken: page.token }, transfer ?? { amount_cents: amount, currency: tier.currency });
        return {
          already: false as const,
          // What the card payment is opened with, once this transaction is committed.
          checkout: byCard && mode === "open" ? { club, member: created, tier, pageToken: page.token } : null,
          answer: {
            member_id: created.id,
            status: activeNow ? ("active" as const) : ("pending" as const),
            application_status: mode === "application" ? ("pending_approval" as const) : null,
            amount_cents: amount,
            discount_cents: discount,
            currency: tier.currency,
            manage_url: memberPageUrl(ctx.baseUrl, page.token),
            checkout_url: null as string | null,
            bank_transfer: transfer,
          },
        };
      }),
  );
  if (outcome.already) {
    const refused = new Conflict("ALREADY_MEMBER");
    refused.clubLocale = locale;
    throw refused;
  }
  const { checkout, answer } = outcome;
  // Network I/O after the commit: a failure (502) leaves a pending member, who can pay from their page.
  if (checkout) {
    const { club, member, tier, pageToken } = checkout;
    const order = { amount: answer.amount_cents, currency: tier.currency, months: tier.duration_months, label: tier.name, subscription: input.subscription };
    answer.checkout_url = await inClubLanguage(
      () => locale,
      () => memberCheckout(ctx, club, member, order, pageToken),
    );
  }
  return answer;
}

/** The applicant `memberId`, 409 NOT_AWAITING_APPROVAL unless their application awaits a decision. */
async function applicantOf(t: Queryable, ctx: Ctx, memberId: string): Promise<MemberRow> {
  await lockMember(t, memberId);
  const m = await getMemberRow(t, ctx.clubId, memberId);
  if (m.application_status !== "pending_approval") throw new Conflict("NOT_AWAITING_APPROVAL");
  return m;
}

/**
 * Accepts an application: with nothing to pay the membership starts today (active), else the
 * applicant is mailed the payment step (the bank transfer details). 409 NOT_AWAITING_APPROVAL.
 */
export const approveMember = verb("members:edit", async function approveMember(ctx: Ctx, input: { member_id: string }): Promise<MemberAdminItem> {
  return ctx.db.tx(async (t) => {
    const m = await applicantOf(t, ctx, input.member_id);
    const [club] = await t.select().from(clubs).where(eq(clubs.id, ctx.clubId)).limit(1);
    const [tier] = m.tier_id ? await t.select().from(tiers).where(eq(tiers.id, m.tier_id)).limit(1) : [];
    const months = tier?.duration_months ?? club.membership_duration_months;
    const currency = tier?.currency ?? club.currency;
    const due = m.amount_due_cents ?? 0;
    const today = todayUtc();
    // The mail links the applicant's page: a new token (only its hash is kept).
    const page = newManageToken();
    const set: Partial<MemberRow> = { application_status: null, manage_token: page.hash, updated_at: nowIso() };
    // The period starts when the applicant is accepted (free) or pays (mark-paid starts it then).
    if (due === 0) {
      Object.assign(set, { payment_status: "paid", membership_start: today, membership_end: periodEnd(today, months) });
      // Nothing to pay: accepted is when its promo code counts (joinClub reserved it).
      await countMembershipPromo(t, { clubId: ctx.clubId, memberId: m.id, now: nowIso() });
    } else Object.assign(set, { membership_start: today, membership_end: periodEnd(today, months) });
    const [after] = await t.update(members).set(set).where(eq(members.id, m.id)).returning();
    await writeHistory(ctx.db, t, ctx, { memberId: m.id, action: "approve", from: m, to: after, details: { amount_cents: due } });
    // As any other change to a member: member.updated, and member.status_changed when a free one turns active.
    await emitMemberChange(await emitter(ctx.db, t, ctx.clubId), m, after, () => getMemberItem(withinTx(ctx.db, t), ctx.clubId, m.id));
    const byCard = m.payment_method === "stripe" && paymentMethods(club, !!ctx.stripe).includes("stripe");
    const transfer =
      due > 0 && !byCard && paymentMethods(club, !!ctx.stripe).includes("bank_transfer") ? bankTransferOf(club, m.referral_code, due, currency) : null;
    await queueJoinMail(
      t,
      ctx,
      club,
      due === 0 ? "welcome" : byCard ? "cardPayment" : "payment",
      { ...after, pageToken: page.token },
      transfer ?? { amount_cents: due, currency },
    );
    return getMemberItem(withinTx(ctx.db, t), ctx.clubId, m.id);
  });
});

/**
 * Turns an application down: the applicant is erased (as DELETE members/<id>, section 12) and
 * mailed the decision. 409 NOT_AWAITING_APPROVAL.
 */
export const rejectMember = verb("members:edit", async function rejectMember(ctx: Ctx, input: { member_id: string }): Promise<void> {
  const m = await applicantOf(ctx.db.read, ctx, input.member_id);
  await eraseMember(ctx, { member_id: m.id });
  // After the erasure, which forgets every queued mail naming the address.
  await ctx.db.tx(async (t) => {
    const [club] = await t.select().from(clubs).where(eq(clubs.id, ctx.clubId)).limit(1);
    await queueJoinMail(t, ctx, club, "rejected", { email: m.email, first_name: m.first_name });
  });
});
