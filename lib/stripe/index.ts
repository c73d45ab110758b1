// Stripe, the card payment provider (DESIGN.md section 13): every call the product makes to its
// API, through the official `stripe` package, and the check of the events it sends. Nothing
// else of lib/ knows Stripe's shapes: lib/join, lib/member-page and lib/registrations open a
// Checkout Session here, lib/members stops a subscription here, lib/stripe-events reads fees
// and events here. A leaf of lib/: it knows no member, registration or club row.
import type Stripe from "stripe";
import type { StripeSettings } from "../config";
import { BadGateway, ServiceUnavailable } from "../errors";
import { type JobKind, TemporaryFailure } from "../jobs";
import { lazy } from "../lazy";

export type { StripeSettings };

/** What a payment is for: the metadata of its Checkout Session, its PaymentIntent and its subscription. */
export type Purpose = "membership" | "event";

/**
 * What every object this product makes at Stripe carries, so an event names its club and what it
 * paid for; and what it asked (`amount_cents`, `currency`: set by `createCheckout`), so an event
 * for another amount or currency is told apart (lib/stripe-events).
 */
export type PaymentMetadata = { club_id: string; purpose: Purpose; member_id?: string; registration_id?: string; amount_cents?: string; currency?: string };

/** Longest subscription period Stripe bills (36 months). */
export const MAX_SUBSCRIPTION_MONTHS = 36;

/** Stripe keeps a Checkout Session open at least this long (its `expires_at` bounds: 30 minutes to 24 hours). */
const CHECKOUT_MIN_MS = 30 * 60_000;
const CHECKOUT_MAX_MS = 24 * 3_600_000;

/** The package (some 220 modules) loads with the first call to Stripe (lib/lazy). */
const stripePackage = lazy(async () => (await import("stripe")).default);

const clients = new WeakMap<StripeSettings, Stripe>();

/** The client of `settings`, made once: STRIPE_API_URL gives its protocol, host and port. */
async function client(settings: StripeSettings): Promise<Stripe> {
  let made = clients.get(settings);
  if (!made) {
    const Stripe = await stripePackage();
    const url = new URL(settings.apiUrl);
    const protocol = url.protocol === "http:" ? "http" : "https";
    made = new Stripe(settings.secretKey, {
      host: url.hostname,
      port: url.port || (protocol === "http" ? 80 : 443),
      protocol,
      // Stripe's idempotency keys make its own retries safe (the package sends one per request).
      maxNetworkRetries: 2,
      timeout: 15_000,
      appInfo: { name: "club-api" },
    });
    clients.set(settings, made);
  }
  return made;
}

/** A Stripe call that failed (unreachable, refused): 502 PAYMENT_PROVIDER_FAILED, with Stripe's own reason. */
async function calling<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new BadGateway("PAYMENT_PROVIDER_FAILED", { reason: err instanceof Error ? err.message.slice(0, 300) : "unknown" });
  }
}

export type CheckoutOrder = {
  metadata: PaymentMetadata;
  /** What the payer sees on Stripe's page (the tier or the ticket, and the club). */
  label: string;
  amountCents: number;
  currency: string;
  email: string;
  /** Renewed every `months` until cancelled (mode `subscription`); null: paid once (mode `payment`). */
  everyMonths: number | null;
  /** The member's Stripe customer from an earlier payment, so their card and subscriptions stay together. */
  customerId: string | null;
  locale: string;
  successUrl: string;
  cancelUrl: string;
  /** When the page stops taking the payment (Stripe's bounds apply: 30 minutes to 24 hours from now). */
  expiresAt?: Date;
};

/** Opens a Checkout Session for `order`: its id and the address of Stripe's payment page. 502 when Stripe fails. */
export async function createCheckout(settings: StripeSettings, order: CheckoutOrder, now = new Date()): Promise<{ id: string; url: string }> {
  // On the session, its PaymentIntent and its subscription (so on each invoice): what a payment of it must be.
  const metadata = { ...order.metadata, amount_cents: String(order.amountCents), currency: order.currency.toUpperCase() };
  const expires = order.expiresAt ? Math.min(Math.max(order.expiresAt.getTime(), now.getTime() + CHECKOUT_MIN_MS), now.getTime() + CHECKOUT_MAX_MS) : null;
  const session = await calling(async () =>
    (await client(settings)).checkout.sessions.create({
      mode: order.everyMonths ? "subscription" : "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: order.currency.toLowerCase(),
            unit_amount: order.amountCents,
            product_data: { name: order.label },
            ...(order.everyMonths ? { recurring: { interval: "month" as const, interval_count: order.everyMonths } } : {}),
          },
        },
      ],
      ...(order.customerId ? { customer: order.customerId } : { customer_email: order.email }),
      client_reference_id: order.metadata.member_id ?? order.metadata.registration_id,
      metadata,
      ...(order.everyMonths ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      locale: order.locale as Stripe.Checkout.SessionCreateParams.Locale,
      success_url: order.successUrl,
      cancel_url: order.cancelUrl,
      ...(expires ? { expires_at: Math.floor(expires / 1000) } : {}),
    }),
  );
  if (!session.url) throw new BadGateway("PAYMENT_PROVIDER_FAILED", { reason: "no checkout url" });
  return { id: session.id, url: session.url };
}

/** Stripe's settings, or 503 STRIPE_KEYS_MISSING: a member's subscription is at Stripe, and its keys are gone. */
function configured(settings: StripeSettings | null | undefined): StripeSettings {
  if (!settings) throw new ServiceUnavailable("STRIPE_KEYS_MISSING");
  return settings;
}

/** Stops (`true`) or resumes (`false`) the subscription's renewal at the end of the period it is in. 502 when Stripe fails, 503 without its keys. */
export async function cancelAtPeriodEnd(settings: StripeSettings | null | undefined, subscriptionId: string, cancel: boolean): Promise<void> {
  const stripe = configured(settings);
  await calling(async () => (await client(stripe)).subscriptions.update(subscriptionId, { cancel_at_period_end: cancel }));
}

/**
 * Cancels the subscription now (an erased member: nobody to bill). One already gone at Stripe is
 * fine; 503 STRIPE_KEYS_MISSING without Stripe's keys, 502 when Stripe fails.
 */
export async function endStripeSubscriptionNow(settings: StripeSettings | null | undefined, subscriptionId: string): Promise<void> {
  const stripe = configured(settings);
  try {
    await (await client(stripe)).subscriptions.cancel(subscriptionId);
  } catch (err) {
    if (err instanceof (await stripePackage()).errors.StripeInvalidRequestError && err.statusCode === 404) return;
    throw new BadGateway("PAYMENT_PROVIDER_FAILED", { reason: err instanceof Error ? err.message.slice(0, 300) : "unknown" });
  }
}

/**
 * The job kind that ends a subscription at Stripe at once (payload `subscription`), for a member
 * erased while this installation had no Stripe keys: retried every 6 hours for 30 days, so that
 * it is done once the keys are set again (what Stripe charged meanwhile is refunded as its
 * renewals come: lib/stripe-events).
 */
export const STRIPE_END_SUBSCRIPTION_JOB = "stripe.end-subscription";

export const endSubscriptionJob: JobKind = {
  retryDelaysMs: Array.from({ length: 120 }, () => 6 * 3600_000),
  run: async (_db, job, env) => {
    const subscription = String(job.payload.subscription);
    if (!env.config.stripe) throw new TemporaryFailure("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set");
    try {
      await endStripeSubscriptionNow(env.config.stripe, subscription);
    } catch (err) {
      throw new TemporaryFailure(err instanceof Error ? err.message.slice(0, 300) : "Stripe failed");
    }
    return `subscription ${subscription} ended`;
  },
};

/** What Stripe kept of a payment: its fee in the payment's currency, from the charge's balance transaction. */
export type ProviderFee = { feeCents: number };

/**
 * The fee Stripe took on the PaymentIntent `paymentIntentId`, read from its charge's balance
 * transaction; converted to the payment's currency when the account's balance is in another. 0
 * while the charge has none yet. Throws (502) when Stripe cannot be read: the event is then not
 * acknowledged and Stripe sends it again.
 */
export async function paymentFee(settings: StripeSettings, paymentIntentId: string): Promise<ProviderFee> {
  const intent = await calling(async () =>
    (await client(settings)).paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge.balance_transaction"] }),
  );
  const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
  const txn = charge && typeof charge.balance_transaction === "object" ? charge.balance_transaction : null;
  if (!txn) return { feeCents: 0 };
  // `exchange_rate`: balance currency per unit of the charge's; null when they are the same.
  return { feeCents: txn.exchange_rate ? Math.round(txn.fee / txn.exchange_rate) : txn.fee };
}

/** The PaymentIntent that paid the invoice `invoiceId` (a subscription's), or null when it was paid otherwise. */
export async function invoicePaymentIntent(settings: StripeSettings, invoiceId: string): Promise<string | null> {
  const list = await calling(async () => (await client(settings)).invoicePayments.list({ invoice: invoiceId, status: "paid", limit: 1 }));
  const pi = list.data[0]?.payment.payment_intent;
  return typeof pi === "string" ? pi : (pi?.id ?? null);
}

/** Asks Stripe to refund the whole PaymentIntent (a ticket paid after its place was given up); `charge.refunded` records it. */
export async function refundPayment(settings: StripeSettings, paymentIntentId: string, reason: string): Promise<void> {
  await calling(async () => (await client(settings)).refunds.create({ payment_intent: paymentIntentId, metadata: { reason } }));
}

/** One movement a payout carries: the PaymentIntent it belongs to (a charge's or a refund's) and its net (fees deducted), in the payout's currency. */
export type PayoutPart = { paymentIntent: string; netCents: number };

/**
 * What the payout `payoutId` carries, by PaymentIntent: its balance transactions whose source is
 * a charge or a refund (others, such as adjustments, name no payment). 502 when Stripe fails.
 */
export async function payoutParts(settings: StripeSettings, payoutId: string): Promise<PayoutPart[]> {
  return calling(async () => {
    const parts: PayoutPart[] = [];
    const list = (await client(settings)).balanceTransactions.list({ payout: payoutId, expand: ["data.source"], limit: 100 });
    for await (const txn of list) {
      const source = txn.source && typeof txn.source === "object" ? (txn.source as { object?: string; payment_intent?: string | { id: string } | null }) : null;
      if (!source || (source.object !== "charge" && source.object !== "refund")) continue;
      const intent = typeof source.payment_intent === "string" ? source.payment_intent : source.payment_intent?.id;
      if (intent) parts.push({ paymentIntent: intent, netCents: txn.net });
    }
    return parts;
  });
}

/** How far a signed event's timestamp may be from now (DESIGN.md section 13: 300 s). */
export const SIGNATURE_TOLERANCE_S = 300;

/**
 * The event of a webhook call, its `Stripe-Signature` checked by the package itself (HMAC of the
 * exact body with the endpoint's secret, timestamp within 300 s); null when it does not hold (a
 * forgery, a replay, another endpoint's secret).
 */
export async function readSignedEvent(settings: StripeSettings, body: string, signature: string | null): Promise<Stripe.Event | null> {
  if (!signature) return null;
  try {
    // The async form: under Bun the package signs with WebCrypto, which has no synchronous HMAC.
    return await (await client(settings)).webhooks.constructEventAsync(body, signature, settings.webhookSecret, SIGNATURE_TOLERANCE_S);
  } catch {
    return null;
  }
}

export type StripeEvent = Stripe.Event;
export type { Stripe };
