// A signed Stripe event for another currency or amount than was asked (issue 32, red team): a
// payment is applied only when it is what its Checkout asked (its metadata: amount and currency;
// a ticket's price); anything else is recorded as a payment to check, listed at
// GET /api/clubs/<club>/payments/flagged and in the member's history, and applied nowhere (no
// renewal, no confirmed ticket, no payment row, no receipt, no webhook). Against the local
// stand-in for Stripe (test/stripe-fake.ts), which signs events as Stripe does.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, flaggedPayments, memberHistory, stripeEvents } from "../../db/schema";
import { authCases } from "../auth-cases";
import { createEventVia, registerPublic, registrationPayments, registrationRow } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { memberRow, paymentsOf } from "../members-fixtures";
import { type FakeStripe, fakeStripe, type Json } from "../stripe-fake";

let env: TestEnv;
let stripe: FakeStripe;
let slug: string;
let tierId: string;
beforeAll(async () => {
  stripe = await fakeStripe();
  env = await setup(stripe.env);
  [{ slug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
  tierId = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adulte", price_cents: 5000, currency: "CHF", duration_months: 12 } }))
    .body.id;
});
afterAll(async () => {
  await env.close();
  stripe.stop();
});
beforeEach(() =>
  env.db.tx((t) =>
    t
      .update(clubs)
      .set({ payout_iban: "CH9300762011623852957", payment_methods_enabled: ["stripe", "bank_transfer"], allow_subscription: false, locale: "en" })
      .where(eq(clubs.id, env.clubId)),
  ),
);

let ip = 0;
async function join(body: Record<string, unknown> = {}) {
  const res = await env.app.handle(
    new Request(`http://localhost/api/public/clubs/${slug}/join`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tier_id: tierId, first_name: "Ana", last_name: "Silva", email: `flag${++ip}@example.org`, payment_method: "stripe", ...body }),
    }),
    `10.40.${(ip >> 8) & 255}.${ip & 255}`,
  );
  expect(res.status).toBe(201);
  return (await res.json()) as Json;
}

async function send(event: Json) {
  const payload = JSON.stringify(event);
  return env.call("POST", "/api/webhooks/stripe", {
    key: null,
    rawBody: payload,
    headers: { "content-type": "application/json", "stripe-signature": await stripe.sign(payload) },
  });
}

/** The payer completes the session, but Stripe charges `amount` in `currency` (a Checkout not ours, with our metadata copied). */
function payOther(checkoutUrl: string, amount: number, currency: string): Json {
  const session = stripe.sessionOf(checkoutUrl);
  session.amount_total = amount;
  session.currency = currency;
  return stripe.pay(session.id);
}

const flaggedOf = async (eventId: string) => env.db.read.select().from(flaggedPayments).where(eq(flaggedPayments.provider_event_id, eventId));
const outcomeOf = async (eventId: string) => (await env.db.read.select().from(stripeEvents).where(eq(stripeEvents.id, eventId)))[0]?.outcome;
const historyOf = async (memberId: string) =>
  (await env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, memberId))).map((h) => h.action);

describe("a membership paid by card", () => {
  it("1 JPY for a 50 CHF membership: recorded as a payment to check, the member not activated", async () => {
    const joined = await join();
    const paid = payOther(joined.checkout_url, 1, "jpy");
    const res = await send(paid);
    expect([res.status, res.body.outcome]).toEqual([200, "flagged: paid 1 JPY, asked 5000 CHF"]);
    expect(await memberRow(env, joined.member_id)).toMatchObject({ payment_status: "pending", amount_due_cents: 5000 });
    expect(await paymentsOf(env, joined.member_id)).toEqual([]);
    expect(await outcomeOf(paid.id)).toBe("flagged: paid 1 JPY, asked 5000 CHF");
    const [row] = await flaggedOf(paid.id);
    expect(row).toMatchObject({
      club_id: env.clubId,
      event_type: "checkout.session.completed",
      purpose: "membership",
      member_id: joined.member_id,
      amount_cents: 1,
      currency: "JPY",
      expected_amount_cents: 5000,
      expected_currency: "CHF",
      provider_payment_id: paid.data.object.payment_intent,
    });
    expect(await historyOf(joined.member_id)).toEqual(["join", "payment_flagged"]);
    // The same event again changes nothing more.
    expect((await send(paid)).body.outcome).toBe("duplicate");
    expect(await flaggedOf(paid.id)).toHaveLength(1);
  });

  it("another amount in the right currency: flagged too; the right one, paid in the payer's currency (Adaptive Pricing), is applied", async () => {
    const short = await join();
    const shortPaid = payOther(short.checkout_url, 4000, "chf");
    expect((await send(shortPaid)).body.outcome).toBe("flagged: paid 4000 CHF, asked 5000 CHF");
    expect((await memberRow(env, short.member_id)).payment_status).toBe("pending");

    const converted = await join();
    const paid = stripe.pay(stripe.sessionOf(converted.checkout_url).id);
    Object.assign(paid.data.object, {
      currency: "eur",
      amount_total: 5350,
      currency_conversion: { amount_total: 5000, source_currency: "chf", fx_rate: "1.07" },
    });
    expect((await send(paid)).body.outcome).toBe("paid");
    expect((await memberRow(env, converted.member_id)).payment_status).toBe("paid");
    expect((await paymentsOf(env, converted.member_id)).map((p) => [p.amount_cents, p.currency])).toEqual([[5000, "CHF"]]);
  });

  it("a Checkout opened before the asked amount was written down: its currency is checked, not its amount", async () => {
    const strip = (event: Json) => {
      const { amount_cents: _a, currency: _c, ...meta } = event.data.object.metadata;
      event.data.object.metadata = meta;
      return event;
    };
    const yen = await join();
    const yenPaid = strip(payOther(yen.checkout_url, 500_000, "jpy"));
    expect((await send(yenPaid)).body.outcome).toBe("flagged: paid 500000 JPY, asked ? CHF");
    expect((await flaggedOf(yenPaid.id))[0]).toMatchObject({ expected_amount_cents: null, expected_currency: "CHF" });
    const francs = await join();
    expect((await send(strip(payOther(francs.checkout_url, 4500, "chf")))).body.outcome).toBe("paid");
  });

  it("a subscription's later invoice for another amount: not renewed, flagged; the next right one renews", async () => {
    await env.db.tx((t) => t.update(clubs).set({ allow_subscription: true, subscription_default: true }).where(eq(clubs.id, env.clubId)));
    const joined = await join({ subscription: true });
    const session = stripe.sessionOf(joined.checkout_url);
    expect((await send(stripe.pay(session.id))).body.outcome).toBe("paid");
    const before = await memberRow(env, joined.member_id);
    const sub = stripe.subscriptions.get(session.subscription);
    sub.amount = 100;
    const cheap = stripe.renew(sub.id);
    expect((await send(cheap)).body.outcome).toBe("flagged: paid 100 CHF, asked 5000 CHF");
    expect((await memberRow(env, joined.member_id)).membership_end).toBe(before.membership_end);
    expect((await flaggedOf(cheap.id))[0]).toMatchObject({ event_type: "invoice.paid", purpose: "membership", amount_cents: 100 });
    sub.amount = 5000;
    expect((await send(stripe.renew(sub.id))).body.outcome).toBe("renewed");
    expect((await memberRow(env, joined.member_id)).membership_end > before.membership_end).toBe(true);
  });

  it("a refund in another currency, or beyond what is left of the payment: flagged, no negative payment", async () => {
    const joined = await join();
    const paid = stripe.pay(stripe.sessionOf(joined.checkout_url).id);
    expect((await send(paid)).body.outcome).toBe("paid");
    const intent = paid.data.object.payment_intent;
    const charge = stripe.charges.get(stripe.intents.get(intent).latest_charge);
    const inYen = stripe.refund(intent, 1000);
    inYen.data.object.currency = "jpy";
    expect((await send(inYen)).body.outcome).toBe("flagged: paid 1000 JPY, asked 5000 CHF");
    charge.amount_refunded = 0;
    const beyond = stripe.refund(intent, 1000);
    beyond.data.object.amount_refunded = 9000;
    expect((await send(beyond)).body.outcome).toBe("flagged: paid 9000 CHF, asked 5000 CHF");
    expect((await paymentsOf(env, joined.member_id)).map((p) => p.amount_cents)).toEqual([5000]);
    expect((await flaggedOf(beyond.id))[0]).toMatchObject({ purpose: "refund", member_id: joined.member_id });
  });
});

describe("a ticket paid by card", () => {
  it("for another amount than its price: the registration stays pending, flagged; its own price confirms", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Entry", member_price_cents: 1500, non_member_price_cents: 2000 }] });
    const reg = (await registerPublic(env, event.id, { ticket_id: event.tickets[0].id }, "10.41.0.1")).body as Json;
    const paid = payOther(reg.checkout_url, 200, "chf");
    expect((await send(paid)).body.outcome).toBe("flagged: paid 200 CHF, asked 2000 CHF");
    expect((await registrationRow(env, reg.id)).status).toBe("pending");
    expect(await registrationPayments(env, reg.id)).toEqual([]);
    expect((await flaggedOf(paid.id))[0]).toMatchObject({ purpose: "event", registration_id: reg.id, member_id: null, expected_amount_cents: 2000 });

    const other = (await registerPublic(env, event.id, { ticket_id: event.tickets[0].id }, "10.41.0.2")).body as Json;
    expect((await send(stripe.pay(stripe.sessionOf(other.checkout_url).id))).body.outcome).toBe("confirmed");
  });
});

describe("GET /api/clubs/:club_id/payments/flagged", () => {
  it("lists the club's payments to check, newest first, paged; another club's list is its own", async () => {
    const joined = await join();
    const paid = payOther(joined.checkout_url, 7, "usd");
    await send(paid);
    const res = await env.call("GET", `/api/clubs/${env.clubId}/payments/flagged?limit=2`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(2);
    expect(res.body.items).toHaveLength(2);
    expect(res.body.items[0]).toMatchObject({ provider_event_id: paid.id, member_id: joined.member_id, amount_cents: 7, currency: "USD" });
    const page2 = await env.call("GET", `/api/clubs/${env.clubId}/payments/flagged?limit=2&page=2`);
    expect(page2.body.items[0]?.id).not.toBe(res.body.items[0].id);
    const other = await env.otherClub();
    const theirs = await env.call("GET", `/api/clubs/${other.club_id}/payments/flagged`, { key: other.api_key });
    expect(theirs.body).toEqual({ total: 0, page: 1, limit: 50, items: [] });
  });

  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/payments/flagged`, scope: "finances:view" });
});
