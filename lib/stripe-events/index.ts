// What Stripe tells us (DESIGN.md section 13): the signed events of POST /api/webhooks/stripe,
// each applied once. A paid Checkout Session pays a member (the verb behind mark-paid) or a ticket
// (the verb behind confirm), with the fee Stripe took; a subscription's later invoice renews the
// membership; a deleted subscription ends the automatic renewal; a refund is a negative payment;
// a payout is recorded for each club whose payments it carries (lib/books/payouts).
// Every effect goes through the verb an admin would use (so through lib/payments/record, the one
// place a payment is recorded: receipt, commission, `payment.recorded`), acting as the system, in ONE
// transaction with the event's `stripe_events` row, whose key makes any second copy a no-op
// (two copies at the same moment included). What must be read from Stripe (the fee) is read
// before that transaction: no network inside it. A payment is applied only when it is what was
// asked, in currency and amount (the Checkout's metadata, a ticket's price); anything else is
// recorded as a payment to check (lib/stripe-events/flagged) and not applied.
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { type Db, type Queryable, withinTx } from "../../db";
import { lockRows } from "../../db/locks";
import { clubs, eventRegistrations, events, eventTickets, members, payments, stripeEvents } from "../../db/schema";
import { type Ctx, type PublicCtx, systemCtx } from "../context";
import { AppError, BadRequest, NotFound } from "../errors";
import { asLocale } from "../i18n";
import { nowIso } from "../ids";
import { enqueueJob, type JobKind, type JobKinds, TemporaryFailure } from "../jobs";
import { availability, eventPlacesHeld, lockEventPlaces } from "../events/internal";
import { HOLD_EXPIRED_REASON } from "../registrations/expiry";
import { confirmRegistration, recordRegistrationPayment } from "../registrations/admin";
import { retakeEventPromo } from "../promo";
import { endSubscription, markMemberPaid, recordMemberRefund } from "../members/index";
import { queueCardEmail } from "../members/card-email";
import { memberDues } from "../members/dues";
import { getMemberRow } from "../members/internal";
import { type Expected, flagPayment, type Money, paidAsAsked } from "./flagged";
import type { PaymentOrigin } from "../payments/record";
import { payoutShares, recordPayout } from "../books/payouts";
import {
  invoicePaymentIntent,
  type PaymentMetadata,
  paymentFee,
  payoutParts,
  type ProviderFee,
  readSignedEvent,
  refundPayment,
  endSubscriptionJob,
  STRIPE_END_SUBSCRIPTION_JOB,
  type Stripe,
  type StripeEvent,
  type StripeSettings,
} from "../stripe";

/** The events this product acts on: the ones to select when adding the endpoint at Stripe. */
export const STRIPE_EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "invoice.paid",
  "customer.subscription.deleted",
  "charge.refunded",
  "payout.paid",
] as const;

export type StripeReceipt = { received: true; event_id: string; outcome: string };

/** The event being applied, as a payment to check names it. */
type EventRef = { id: string; type: string };
/** What an event does once its club is known: returns the outcome stored with it. */
type Effect = (ctx: Ctx, event: EventRef) => Promise<string>;
type Plan = { clubId: string | null; effect: Effect | null; outcome: string };

const idOf = (x: string | { id: string } | null | undefined): string | null => (typeof x === "string" ? x : (x?.id ?? null));

const ignored = (outcome: string): Plan => ({ clubId: null, effect: null, outcome: `ignored: ${outcome}` });

/** Our metadata on a Stripe object, when it is ours: a club, a purpose, what it pays for, what it asked. */
function metadataOf(meta: Stripe.Metadata | null | undefined): PaymentMetadata | null {
  if (!meta?.club_id || (meta.purpose !== "membership" && meta.purpose !== "event")) return null;
  const { club_id, purpose, member_id, registration_id, amount_cents, currency } = meta;
  return { club_id, purpose, member_id, registration_id, amount_cents, currency };
}

/** What the Checkout asked (its metadata, lib/stripe `createCheckout`); null for one opened before it said. */
function askedOf(meta: PaymentMetadata): Expected | null {
  const amount = Number(meta.amount_cents);
  return meta.currency && meta.amount_cents && Number.isSafeInteger(amount) ? { amount, currency: meta.currency } : null;
}

const moneyOf = (amount: number | null | undefined, currency: string | null | undefined): Money => ({
  amount: amount ?? 0,
  currency: (currency ?? "").toUpperCase(),
});

/**
 * What a paid Checkout Session took, in the currency it asked: with Stripe's Adaptive Pricing the
 * payer may pay in their own, and `currency_conversion` holds the total in ours.
 */
function sessionPaid(session: Stripe.Checkout.Session): Money {
  const converted = session.currency_conversion;
  return converted?.source_currency ? moneyOf(converted.amount_total, converted.source_currency) : moneyOf(session.amount_total, session.currency);
}

/**
 * What a membership payment must be: what its Checkout asked; for one opened before the product
 * wrote that down (a subscription billing since), its currency only: the member's tier's or club's.
 */
async function membershipExpected(ctx: Ctx, meta: PaymentMetadata, memberId: string): Promise<Expected> {
  const asked = askedOf(meta);
  if (asked) return asked;
  const t = await txOf(ctx);
  return { amount: null, currency: (await memberDues(t, await getMemberRow(t, ctx.clubId, memberId))).currency };
}

/** A payment made through Stripe by the PaymentIntent `intent` (null: none, so no fee): its origin, with the fee Stripe took (read from Stripe). */
async function providerPayment(stripe: StripeSettings, intent: string | null) {
  const fee: ProviderFee = intent ? await paymentFee(stripe, intent) : { feeCents: 0 };
  return { source: "provider", provider_fee_cents: fee.feeCents, provider_payment_id: intent } as const;
}

/** A paid Checkout Session: the member's payment (a subscription's first too) or the ticket's. */
async function checkoutPaid(stripe: StripeSettings, session: Stripe.Checkout.Session): Promise<Plan> {
  if (session.payment_status === "unpaid") return ignored("awaiting payment");
  const meta = metadataOf(session.metadata);
  if (!meta) return ignored("not a session of this service");
  const money = sessionPaid(session);
  const subscriptionId = session.mode === "subscription" ? idOf(session.subscription) : null;
  const invoice = idOf(session.invoice);
  const intent = subscriptionId ? invoice && (await invoicePaymentIntent(stripe, invoice)) : idOf(session.payment_intent);
  const paid = await providerPayment(stripe, intent);
  const billing = { customer_id: idOf(session.customer), subscription_id: subscriptionId };
  if (meta.purpose === "membership" && meta.member_id) {
    const memberId = meta.member_id;
    return {
      clubId: meta.club_id,
      outcome: "paid",
      effect: async (ctx, event) => {
        const expected = await membershipExpected(ctx, meta, memberId);
        if (!paidAsAsked(money, expected)) {
          const flagged = { clubId: ctx.clubId, event, purpose: "membership", memberId, paid: money, expected, providerPaymentId: intent } as const;
          return flagPayment(await txOf(ctx), ctx, flagged);
        }
        await markMemberPaid(ctx, { member_id: memberId, amount_cents: money.amount, payment_method: "stripe", reason: null, ...paid, billing });
        await queueCardEmail(await txOf(ctx), ctx.clubId, memberId);
        return "paid";
      },
    };
  }
  if (meta.purpose === "event" && meta.registration_id) {
    const registrationId = meta.registration_id;
    return {
      clubId: meta.club_id,
      outcome: "confirmed",
      effect: (ctx, event) => ticketPaid(ctx, event, registrationId, money, paid),
    };
  }
  return ignored("nothing to pay for");
}

/**
 * A ticket paid: a pending registration is confirmed with its payment. One whose hold ran out
 * before the payment came is given its place back when one is left (then confirmed), else the
 * payment is refunded at Stripe (a job: after the commit) and nothing is recorded. A payment that
 * is not the ticket's price in its currency is a payment to check: nothing else happens.
 */
async function ticketPaid(ctx: Ctx, event: EventRef, registrationId: string, money: Money, paid: PaymentOrigin) {
  const t = await txOf(ctx);
  let reg = await registrationOf(t, ctx.clubId, registrationId);
  if (!reg) return "ignored: unknown registration";
  const expected = { amount: reg.amount_cents, currency: reg.currency };
  if (!paidAsAsked(money, expected)) {
    const flagged = { clubId: ctx.clubId, event, purpose: "event", registrationId: reg.id, paid: money, expected } as const;
    return flagPayment(t, ctx, { ...flagged, providerPaymentId: paid.provider_payment_id });
  }
  if (heldOut(reg)) {
    // Stripe may send two events of one payment at once (completed, then async_payment_succeeded):
    // under the event's lock, the registration read again is what the other one left of it.
    await lockEventPlaces(t, reg.event_id);
    reg = (await registrationOf(t, ctx.clubId, registrationId)) ?? reg;
  }
  if (heldOut(reg)) {
    if (!(await placeStillThere(t, reg))) {
      if (paid.provider_payment_id) await enqueueJob(t, { clubId: ctx.clubId, kind: STRIPE_REFUND_JOB, payload: { payment_intent: paid.provider_payment_id } });
      return "refunded: paid after its hold ran out, no place left";
    }
    await t
      .update(eventRegistrations)
      .set({ status: "pending", cancelled_at: null, cancel_reason: null, updated_at: nowIso() })
      .where(eq(eventRegistrations.id, reg.id));
    // Paid at its discounted price: the code's use, given back at the expiry, is taken again.
    const promo = { promoCodeId: reg.promo_code_id, discount: reg.discount_cents, memberId: reg.member_id };
    await retakeEventPromo(t, { clubId: ctx.clubId, registrationId: reg.id, ...promo, now: nowIso() });
  } else if (reg.status !== "pending") {
    return `ignored: registration ${reg.status}`;
  }
  await confirmRegistration(ctx, { event_id: reg.event_id, registration_id: reg.id, amount_cents: money.amount, payment_method: "stripe", ...paid });
  return "confirmed";
}

type Registration = typeof eventRegistrations.$inferSelect;

async function registrationOf(t: Queryable, clubId: string, id: string): Promise<Registration | undefined> {
  const [reg] = await t
    .select()
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.id, id), eq(eventRegistrations.club_id, clubId)))
    .limit(1);
  return reg;
}

/** Cancelled because its hold ran out before the payment came. */
const heldOut = (reg: Registration) => reg.status === "cancelled" && reg.cancel_reason === HOLD_EXPIRED_REASON;

/** Whether the event of a registration whose hold ran out still has its place (not cancelled, capacity and ticket not full); the event's places locked by the caller. */
async function placeStillThere(t: Queryable, reg: Registration): Promise<boolean> {
  const [row] = await t
    .select({ event: events, ticket: eventTickets })
    .from(events)
    .innerJoin(eventTickets, eq(eventTickets.id, reg.ticket_id))
    .where(eq(events.id, reg.event_id))
    .limit(1);
  if (!row || row.event.status === "cancelled") return false;
  return !availability(row.event, await eventPlacesHeld(t, row.event.id), row.ticket).sold_out;
}

/** A subscription's later invoice paid: the membership is renewed (its first is paid through its Checkout Session). */
async function invoicePaid(stripe: StripeSettings, invoice: Stripe.Invoice): Promise<Plan> {
  if (invoice.billing_reason === "subscription_create") return ignored("first invoice, recorded with its checkout");
  const meta = metadataOf(invoice.parent?.subscription_details?.metadata);
  if (!meta?.member_id) return ignored("not a subscription of this service");
  const paid = await providerPayment(stripe, await invoicePaymentIntent(stripe, invoice.id as string));
  const memberId = meta.member_id;
  const money = moneyOf(invoice.amount_paid, invoice.currency);
  return {
    clubId: meta.club_id,
    outcome: "renewed",
    effect: async (ctx, event) => {
      const t = await txOf(ctx);
      const [member] = await t
        .select({ id: members.id })
        .from(members)
        .where(and(eq(members.club_id, ctx.clubId), eq(members.id, memberId)))
        .limit(1);
      if (!member) {
        // The member was erased (while the keys were gone, the subscription could not be ended
        // then): nobody here is paying for anything. The charge goes back; the subscription ends.
        const subscription = idOf(invoice.parent?.subscription_details?.subscription ?? null);
        if (paid.provider_payment_id)
          await enqueueJob(t, { clubId: ctx.clubId, kind: STRIPE_REFUND_JOB, payload: { payment_intent: paid.provider_payment_id } });
        if (subscription) await enqueueJob(t, { clubId: ctx.clubId, kind: STRIPE_END_SUBSCRIPTION_JOB, payload: { subscription } });
        return "refunded: the member was erased";
      }
      const expected = await membershipExpected(ctx, meta, memberId);
      if (!paidAsAsked(money, expected)) {
        const flagged = { clubId: ctx.clubId, event, purpose: "membership", memberId, paid: money, expected } as const;
        return flagPayment(t, ctx, { ...flagged, providerPaymentId: paid.provider_payment_id });
      }
      await markMemberPaid(ctx, {
        member_id: memberId,
        amount_cents: money.amount,
        payment_method: "stripe",
        reason: null,
        ...paid,
      });
      return "renewed";
    },
  };
}

function subscriptionDeleted(sub: Stripe.Subscription): Plan {
  const meta = metadataOf(sub.metadata);
  if (!meta?.member_id) return ignored("not a subscription of this service");
  const memberId = meta.member_id;
  return {
    clubId: meta.club_id,
    outcome: "renewal ended",
    effect: async (ctx) => {
      await endSubscription(ctx, { member_id: memberId, subscription_id: sub.id });
      return "renewal ended";
    },
  };
}

/**
 * A refund (whole or part) of a charge: a negative payment row for what is refunded beyond what
 * was recorded already (`amount_refunded` is the charge's running total), against the payment the
 * charge's PaymentIntent recorded. The member's or registration's status does not change. A
 * refund in another currency than the payment, or beyond what is left of it, is a payment to check.
 */
async function chargeRefunded(db: Db, charge: Stripe.Charge): Promise<Plan> {
  const intent = idOf(charge.payment_intent);
  if (!intent) return ignored("no payment intent");
  // The club of the payment it refunds (a subscription's charge carries none of our metadata).
  const [paid] = await db.read.select({ club_id: payments.club_id }).from(payments).where(eq(payments.provider_payment_id, intent)).limit(1);
  if (!paid) return ignored("no payment recorded for this charge");
  const clubId = paid.club_id;
  return {
    clubId,
    outcome: "refund recorded",
    effect: async (ctx, event) => {
      const t = await txOf(ctx);
      // Locked first: two refunds of one payment (two events at once) count what is left one
      // after the other, so together they never refund more than was paid unflagged.
      await lockRows(t, payments, payments.provider_payment_id, intent, eq(payments.club_id, ctx.clubId));
      const rows = await t
        .select()
        .from(payments)
        .where(and(eq(payments.club_id, ctx.clubId), eq(payments.provider_payment_id, intent)));
      const paid = rows.find((r) => r.amount_cents > 0);
      if (!paid) return "ignored: no payment recorded for this charge";
      const refunded = -rows.filter((r) => r.amount_cents < 0).reduce((sum, r) => sum + r.amount_cents, 0);
      const more = charge.amount_refunded - refunded;
      if (more <= 0) return "ignored: refund already recorded";
      const money = moneyOf(more, charge.currency);
      const left = { amount: paid.amount_cents - refunded, currency: paid.currency.toUpperCase() };
      if (money.currency !== left.currency || money.amount > left.amount) {
        const who = { memberId: paid.member_id, registrationId: paid.registration_id };
        return flagPayment(t, ctx, { clubId: ctx.clubId, event, purpose: "refund", ...who, paid: money, expected: left, providerPaymentId: intent });
      }
      // Against the invoice the payment paid, if any (its paid_cents lowered: lib/invoices/pay.ts).
      const refund = { source: "provider", provider_fee_cents: 0, provider_payment_id: intent, invoice_id: paid.invoice_id } as const;
      if (paid.member_id && paid.kind === "membership") {
        await recordMemberRefund(ctx, {
          member_id: paid.member_id,
          amount_cents: more,
          currency: paid.currency,
          method: "stripe",
          reason: "stripe refund",
          ...refund,
        });
      } else if (paid.registration_id) {
        const [reg] = await t.select().from(eventRegistrations).where(eq(eventRegistrations.id, paid.registration_id)).limit(1);
        if (!reg) return "ignored: registration gone";
        await recordRegistrationPayment(t, ctx, reg, -more, "stripe", "stripe refund", refund);
      }
      return "refund recorded";
    },
  };
}

/**
 * A payout reached the bank: each club whose payments it carries (read from Stripe: its balance
 * transactions) gets its share recorded, for the journal to book from passage to bank. The
 * event's row names the first club; the shares of all are written in the same transaction.
 */
async function payoutPaid(db: Db, stripe: StripeSettings, payout: Stripe.Payout): Promise<Plan> {
  const shares = await payoutShares(db, await payoutParts(stripe, payout.id));
  if (!shares.size) return ignored("no payment of this service in the payout");
  const clubIds = [...shares.keys()].sort();
  const paidAt = new Date(payout.arrival_date * 1000).toISOString();
  return {
    clubId: clubIds[0],
    outcome: "payout recorded",
    effect: async (ctx) => {
      const t = await txOf(ctx);
      let made = 0;
      for (const clubId of clubIds) {
        if (await recordPayout(t, { clubId, providerPayoutId: payout.id, amount: shares.get(clubId) as number, currency: payout.currency, paidAt })) made++;
      }
      // Recorded before from the club's bank statement line quoting it (lib/bank/import.ts): kept, not booked twice.
      if (!made) return "payout already recorded from a bank statement";
      return clubIds.length > 1 ? `payout recorded for ${clubIds.length} clubs` : "payout recorded";
    },
  };
}

// The fields of each event's object that the plans below read, checked before any is read: a
// correctly signed body of another shape (a test from the dashboard, an API version that moved a
// field) is refused with a 400 (Stripe retries it) instead of failing half-way.
const IdRef = z.union([z.string(), z.looseObject({ id: z.string() })]).nullish();
const Metadata = z.record(z.string(), z.string()).nullish();
const Session = z.looseObject({
  payment_status: z.string().nullish(),
  metadata: Metadata,
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  currency_conversion: z.looseObject({ amount_total: z.number().int().nullish(), source_currency: z.string().nullish() }).nullish(),
  mode: z.string().nullish(),
  subscription: IdRef,
  invoice: IdRef,
  customer: IdRef,
  payment_intent: IdRef,
});
const OBJECT_SHAPES: Record<string, z.ZodType> = {
  "checkout.session.completed": Session,
  "checkout.session.async_payment_succeeded": Session,
  "invoice.paid": z.looseObject({
    id: z.string(),
    billing_reason: z.string().nullish(),
    amount_paid: z.number().int(),
    currency: z.string().nullish(),
    parent: z.looseObject({ subscription_details: z.looseObject({ metadata: Metadata }).nullish() }).nullish(),
  }),
  "customer.subscription.deleted": z.looseObject({ id: z.string(), metadata: Metadata }),
  "charge.refunded": z.looseObject({ payment_intent: IdRef, amount_refunded: z.number().int(), currency: z.string().nullish() }),
  "payout.paid": z.looseObject({
    id: z.string().min(1).max(255),
    amount: z.number().int(),
    currency: z.string().min(3).max(3),
    arrival_date: z.number().int().min(0).max(32_503_680_000),
  }),
};
const Envelope = z.looseObject({ id: z.string().min(1).max(255), type: z.string().min(1).max(255), data: z.looseObject({ object: z.looseObject({}) }) });

/** `event` when it has the shape of a Stripe event (and its object the fields its type is read for); else 400 STRIPE_EVENT_MALFORMED. */
function checkedEvent(event: unknown): StripeEvent {
  const envelope = Envelope.safeParse(event);
  const shape = envelope.success ? OBJECT_SHAPES[envelope.data.type] : undefined;
  if (!envelope.success || (shape && !shape.safeParse(envelope.data.data.object).success)) throw new BadRequest("STRIPE_EVENT_MALFORMED");
  return event as StripeEvent;
}

/** What `event` asks of us; reads Stripe where it must (fees). */
async function planOf(db: Db, stripe: StripeSettings, event: StripeEvent): Promise<Plan> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return checkoutPaid(stripe, event.data.object);
    case "invoice.paid":
      return invoicePaid(stripe, event.data.object);
    case "customer.subscription.deleted":
      return subscriptionDeleted(event.data.object);
    case "charge.refunded":
      return chargeRefunded(db, event.data.object);
    case "payout.paid":
      return payoutPaid(db, stripe, event.data.object);
    default:
      return ignored(`type ${event.type}`);
  }
}

/** The transaction a system Ctx runs in (its Db's `tx` runs there at once, db/withinTx). */
const txOf = (ctx: Ctx) => ctx.db.tx(async (t) => t);

/** The club's locale, when the club exists (an event naming an unknown club is acknowledged and ignored). */
async function clubLocale(db: Db, clubId: string | null) {
  if (!clubId) return null;
  const [club] = await db.read.select({ locale: clubs.locale }).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  return club ? asLocale(club.locale) : null;
}

/**
 * Receives one call of Stripe's webhook: 400 STRIPE_SIGNATURE_INVALID unless `Stripe-Signature`
 * holds for the exact body (secret, 300 s tolerance): a forgery or a replay changes nothing; 400
 * STRIPE_EVENT_MALFORMED for a signed body of another shape (checkedEvent). 404
 * STRIPE_NOT_CONFIGURED without Stripe's keys. Each event id is applied once; a second copy is
 * acknowledged (`duplicate`). A business refusal (a suspended member...) is stored as the event's
 * outcome and acknowledged: Stripe sending it again would change nothing. A failure to read
 * Stripe (502) or of the server acknowledges nothing, so Stripe sends it again.
 */
export async function receiveStripeEvent(ctx: PublicCtx, body: string, signature: string | null): Promise<StripeReceipt> {
  const site = ctx.site;
  const stripe = site?.stripe;
  // Without Stripe's keys this installation has no such endpoint.
  if (!site || !stripe) throw new NotFound("STRIPE_NOT_CONFIGURED");
  const signed = await readSignedEvent(stripe, body, signature);
  if (!signed) throw new BadRequest("STRIPE_SIGNATURE_INVALID");
  const event = checkedEvent(signed);
  const [seen] = await ctx.db.read.select().from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1);
  if (seen) return { received: true, event_id: event.id, outcome: "duplicate" };
  const plan = await planOf(ctx.db, stripe, event);
  const locale = await clubLocale(ctx.db, plan.clubId);
  const clubId = locale ? plan.clubId : null;
  const row = (outcome: string) => ({ id: event.id, type: event.type, club_id: clubId, outcome, received_at: nowIso() });
  const effect = locale && plan.effect ? plan.effect : null;
  try {
    const outcome = await ctx.db.tx(async (t) => {
      const [fresh] = await t
        .insert(stripeEvents)
        .values(row(effect ? plan.outcome : plan.clubId && !locale ? "ignored: unknown club" : plan.outcome))
        .onConflictDoNothing()
        .returning();
      if (!fresh) return "duplicate";
      if (!effect || !clubId || !locale) return fresh.outcome;
      const done = await effect(systemCtx(withinTx(ctx.db, t), site, clubId, locale, STRIPE_SCOPES), { id: event.id, type: event.type });
      if (done !== fresh.outcome) await t.update(stripeEvents).set({ outcome: done }).where(eq(stripeEvents.id, event.id));
      return done;
    });
    return { received: true, event_id: event.id, outcome };
  } catch (err) {
    if (!(err instanceof AppError) || err.status >= 500) throw err;
    // Refused by the verb: rolled back; the refusal is the event's outcome.
    const refused = `refused: ${err.code}`;
    await ctx.db.tx((t) => t.insert(stripeEvents).values(row(refused)).onConflictDoNothing());
    return { received: true, event_id: event.id, outcome: refused };
  }
}

/** What the system may do for Stripe: record payments and end renewals, nothing else. */
const STRIPE_SCOPES = { finances: "edit", events: "edit", members: "edit" } as const;

/** The job kind that asks Stripe to refund a payment no place is left for (a ticket paid after its hold ran out). */
export const STRIPE_REFUND_JOB = "stripe.refund";

const refundJob: JobKind = {
  run: async (_db, job, env) => {
    const intent = String(job.payload.payment_intent);
    if (!env.config.stripe) throw new TemporaryFailure("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set");
    try {
      await refundPayment(env.config.stripe, intent, "paid after the place was given up");
    } catch (err) {
      throw new TemporaryFailure(err instanceof Error ? err.message.slice(0, 300) : "refund failed");
    }
    return `refund asked for ${intent}`;
  },
};

export const STRIPE_JOBS: JobKinds = { [STRIPE_REFUND_JOB]: refundJob, [STRIPE_END_SUBSCRIPTION_JOB]: endSubscriptionJob };
