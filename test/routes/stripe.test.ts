// Card payments through Stripe (issue 13): the provider's truth on the Club and the join page,
// Checkout Sessions for a join and a renewal (one-time and subscription), and the signed webhook
// against a local stand-in for Stripe (test/stripe-fake.ts): each event, a forged, tampered or
// replayed one (nothing changes), two copies at the same moment (one payment), fees read from the
// balance transaction, refunds, cancel at Stripe, club isolation. Stored rows read back.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { clubs, invoices, jobs, memberHistory, members, payments, promoCodes, stripeEvents, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { MAIL_SEND } from "../../lib/mail";
import { fanOut, WEBHOOK_DELIVERY, WEBHOOK_FANOUT } from "../../lib/webhooks/emit";
import { JOB_KINDS } from "../../server/jobs";
import { createApp } from "../../app";
import { setup, type TestEnv } from "../helpers";
import { memberRow, pageTokenOf, paymentsOf, seedMember } from "../members-fixtures";
import { startSmtp, type TestSmtp } from "../smtp";
import { pageGet, pagePost } from "../pages-fixtures";
import { type FakeStripe, fakeStripe, type Json, WEBHOOK_SECRET } from "../stripe-fake";

let env: TestEnv;
let stripe: FakeStripe;
let smtp: TestSmtp;
let slug: string;
let tierId: string;
beforeAll(async () => {
  stripe = await fakeStripe();
  smtp = await startSmtp();
  env = await setup({ ...stripe.env, SMTP_URL: smtp.url });
  [{ slug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
  tierId = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adulte", price_cents: 5000, currency: "CHF", duration_months: 12 } }))
    .body.id;
});
afterAll(async () => {
  await env.close();
  await smtp.close();
  stripe.stop();
});
beforeEach(async () => {
  await setClub({
    membership_mode: "open",
    payout_iban: "CH9300762011623852957",
    payment_methods_enabled: ["stripe", "bank_transfer"],
    allow_subscription: false,
    subscription_only: false,
    subscription_default: true,
    locale: "fr",
    commission_rate_percent: null,
  });
});

const setClub = (set: Record<string, unknown>, clubId = env.clubId) => env.db.tx((t) => t.update(clubs).set(set).where(eq(clubs.id, clubId)));

let ip = 0;
async function join(body: Record<string, unknown> = {}) {
  const res = await env.app.handle(
    new Request(`http://localhost/api/public/clubs/${slug}/join`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tier_id: tierId, first_name: "Ana", last_name: "Silva", email: `payer${++ip}@example.org`, payment_method: "stripe", ...body }),
    }),
    `10.20.${(ip >> 8) & 255}.${ip & 255}`,
  );
  return { status: res.status, body: (await res.json()) as Json };
}

/** Posts `event` to the webhook as Stripe would: signed now with the endpoint's secret unless told otherwise. */
async function send(event: Json, opts: { timestamp?: number; secret?: string; signature?: string; payload?: string } = {}) {
  const payload = opts.payload ?? JSON.stringify(event);
  const signature = opts.signature ?? (await stripe.sign(JSON.stringify(event), opts));
  return env.call("POST", "/api/webhooks/stripe", {
    key: null,
    rawBody: payload,
    headers: { "content-type": "application/json", "stripe-signature": signature },
  });
}

const fee = (amount: number) => Math.round(amount * 0.029) + 30;
const eventsStored = () => env.db.read.select().from(stripeEvents);

/** A member who joined by card and paid: the member id, the paid event, the session. */
async function joinedAndPaid(body: Record<string, unknown> = {}) {
  const joined = await join(body);
  expect(joined.status).toBe(201);
  const session = stripe.sessionOf(joined.body.checkout_url);
  const paid = stripe.pay(session.id);
  const res = await send(paid);
  expect(res.status).toBe(200);
  return { memberId: joined.body.member_id as string, pageUrl: joined.body.manage_url as string, paid, session, res };
}

describe("the provider's truth", () => {
  it("the Club says Stripe is connected and ready; the join page offers it; without `stripe` enabled it is connected, not ready", async () => {
    const me = await env.call("GET", "/api/auth/me");
    expect(me.body.club).toMatchObject({ payment_provider: "stripe", payments_connected: true, payments_ready: true });
    expect((await env.call("GET", `/api/public/clubs/${slug}`, { key: null })).body.payment_methods).toEqual(["stripe", "bank_transfer"]);
    await setClub({ payment_methods_enabled: ["bank_transfer"] });
    const after = await env.call("GET", "/api/auth/me");
    expect(after.body.club).toMatchObject({ payment_provider: "stripe", payments_connected: true, payments_ready: false });
    expect((await env.call("GET", `/api/public/clubs/${slug}`, { key: null })).body.payment_methods).toEqual(["bank_transfer"]);
    expect((await join()).body.code).toBe("PAYMENT_METHOD_UNAVAILABLE");
  });

  it("without Stripe's keys: provider manual, not connected, no card payment, the webhook answers 404", async () => {
    const plain = await setup();
    try {
      await plain.db.tx((t) =>
        t
          .update(clubs)
          .set({ payment_methods_enabled: ["stripe"] })
          .where(eq(clubs.id, plain.clubId)),
      );
      const me = await plain.call("GET", "/api/auth/me");
      expect(me.body.club).toMatchObject({ payment_provider: "manual", payments_connected: false, payments_ready: false });
      const hook = await plain.call("POST", "/api/webhooks/stripe", { key: null, rawBody: "{}", headers: { "stripe-signature": "t=1,v1=00" } });
      expect(hook.status).toBe(404);
      expect(hook.body.code).toBe("STRIPE_NOT_CONFIGURED");
    } finally {
      await plain.close();
    }
  });
});

describe("join by card", () => {
  it("answers Stripe's checkout page; the session names club, member and purpose, in the club's language, back to the member's page", async () => {
    const joined = await join();
    expect(joined.status).toBe(201);
    const url: string = joined.body.checkout_url;
    expect(url).toStartWith("https://checkout.stripe.test/");
    expect(joined.body).toMatchObject({ status: "pending", amount_cents: 5000, bank_transfer: null });
    const session = stripe.sessionOf(url);
    expect(session).toMatchObject({
      mode: "payment",
      amount_total: 5000,
      currency: "chf",
      locale: "fr",
      metadata: { club_id: env.clubId, member_id: joined.body.member_id, purpose: "membership" },
      payment_intent_metadata: { club_id: env.clubId, member_id: joined.body.member_id, purpose: "membership" },
    });
    const m = await memberRow(env, joined.body.member_id);
    expect(session.success_url).toBe(`${joined.body.manage_url}?checkout=success`);
    expect(session.cancel_url).toBe(`${joined.body.manage_url}?checkout=cancelled`);
    expect(m).toMatchObject({ payment_status: "pending", payment_method: "stripe" });
  });

  it("a paid session activates the member: a payment with Stripe's fee from the balance transaction, then the card email", async () => {
    smtp.inbox.length = 0;
    const { memberId, paid, res } = await joinedAndPaid();
    expect(res.body).toMatchObject({ received: true, event_id: paid.id, outcome: "paid" });
    expect(await memberRow(env, memberId)).toMatchObject({
      payment_status: "paid",
      amount_due_cents: null,
      stripe_customer_id: expect.stringMatching(/^cus_/),
    });
    const rows = await paymentsOf(env, memberId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      amount_cents: 5000,
      method: "stripe",
      source: "provider",
      provider_fee_cents: fee(5000),
      provider_payment_id: paid.data.object.payment_intent,
      admin_id: null,
    });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    expect(smtp.inbox.some((mail) => mail.to.includes(`payer${ip}@example.org`) && /carte/i.test(mail.raw))).toBe(true);
    expect((await memberRow(env, memberId)).card_email_sent_at).not.toBeNull();
    const stats = await env.call("GET", `/api/clubs/${env.clubId}/stats`);
    expect(stats.body.revenue.all_time.provider_fees_cents).toBeGreaterThanOrEqual(fee(5000));
  });

  it("a fee taken in another currency is stored in the payment's", async () => {
    const joined = await join();
    const paid = stripe.pay(stripe.sessionOf(joined.body.checkout_url).id, { fee: 200, exchangeRate: 0.5 });
    await send(paid);
    expect((await paymentsOf(env, joined.body.member_id))[0].provider_fee_cents).toBe(400);
  });

  it("the same event again is acknowledged and changes nothing", async () => {
    const { memberId, paid } = await joinedAndPaid();
    const before = await memberRow(env, memberId);
    const again = await send(paid);
    expect(again.status).toBe(200);
    expect(again.body.outcome).toBe("duplicate");
    expect(await paymentsOf(env, memberId)).toHaveLength(1);
    expect((await memberRow(env, memberId)).membership_end).toBe(before.membership_end);
  });

  it("two copies of one event at the same moment: exactly one payment", async () => {
    const joined = await join();
    const paid = stripe.pay(stripe.sessionOf(joined.body.checkout_url).id);
    const answers = await Promise.all([send(paid), send(paid), send(paid)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.body.outcome).sort()).toEqual(["duplicate", "duplicate", "paid"]);
    expect(await paymentsOf(env, joined.body.member_id)).toHaveLength(1);
    expect((await eventsStored()).filter((e) => e.id === paid.id)).toHaveLength(1);
  });

  it("a forged, tampered, replayed or unsigned event: 400, nothing changes", async () => {
    const joined = await join();
    const paid = stripe.pay(stripe.sessionOf(joined.body.checkout_url).id);
    const stored = (await eventsStored()).length;
    const forged = await send(paid, { secret: "whsec_someone_else" });
    const tooOld = await send(paid, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const tampered = { ...paid, data: { object: { ...paid.data.object, amount_total: 1 } } };
    const swapped = await send(paid, { payload: JSON.stringify(tampered) });
    const unsigned = await env.call("POST", "/api/webhooks/stripe", {
      key: null,
      rawBody: JSON.stringify(paid),
      headers: { "content-type": "application/json" },
    });
    for (const res of [forged, tooOld, swapped, unsigned]) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("STRIPE_SIGNATURE_INVALID");
    }
    expect(await paymentsOf(env, joined.body.member_id)).toHaveLength(0);
    expect((await memberRow(env, joined.body.member_id)).payment_status).toBe("pending");
    expect((await eventsStored()).length).toBe(stored);
    // Within the tolerance, the genuine event still counts.
    expect((await send(paid, { timestamp: Math.floor(Date.now() / 1000) - 200 })).body.outcome).toBe("paid");
    expect(WEBHOOK_SECRET).toStartWith("whsec_");
  });

  it("a signed body that is no Stripe event (no id, no data, an array, an object of the wrong shape): 400, nothing stored", async () => {
    const stored = (await eventsStored()).length;
    const odd: Json[] = [
      [],
      { type: "checkout.session.completed" },
      { id: "evt_odd_1", type: "checkout.session.completed" },
      { id: "evt_odd_2", type: "checkout.session.completed", data: { object: null } },
      { id: "evt_odd_3", type: "checkout.session.completed", data: { object: { metadata: "x", amount_total: "lots" } } },
      { id: "evt_odd_4", type: "invoice.paid", data: { object: { lines: 7, subscription: {} } } },
      { id: "evt_odd_5", type: "charge.refunded", data: { object: { amount_refunded: null, refunds: "x" } } },
      { id: "evt_odd_6", type: "customer.subscription.deleted", data: { object: [] } },
      { id: 7, type: ["x"], data: { object: {} } },
    ];
    for (const event of odd) {
      const res = await send(event);
      expect({ event, status: res.status, code: res.body.code }).toEqual({ event, status: 400, code: "STRIPE_EVENT_MALFORMED" });
    }
    expect((await eventsStored()).length).toBe(stored);
    // An event of a type we do not act on needs only the envelope: acknowledged and kept as ignored.
    const other = await send({ id: "evt_other_type", type: "customer.created", data: { object: { id: "cus_1" } } });
    expect(other.status).toBe(200);
    expect(other.body.outcome).toStartWith("ignored");
  });

  it("Stripe unreadable when the fee is asked: 502, nothing stored, so Stripe's next try records it", async () => {
    const joined = await join();
    const paid = stripe.pay(stripe.sessionOf(joined.body.checkout_url).id);
    stripe.failures.push(400);
    const failed = await send(paid);
    expect(failed.status).toBe(502);
    expect(await paymentsOf(env, joined.body.member_id)).toHaveLength(0);
    expect((await eventsStored()).some((e) => e.id === paid.id)).toBe(false);
    expect((await send(paid)).body.outcome).toBe("paid");
  });

  it("an event naming another club's member changes nothing there (club isolation)", async () => {
    const other = await env.otherClub();
    const victim = await seedMember(env, { payment_status: "pending" });
    const session = stripe.sessionOf((await join()).body.checkout_url);
    // A session of the other club that names this club's member.
    session.metadata = { ...session.metadata, club_id: other.club_id, member_id: victim.id };
    const res = await send(stripe.pay(session.id));
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe("refused: MEMBER_NOT_FOUND");
    expect(await memberRow(env, victim.id)).toMatchObject({ payment_status: "pending" });
    expect(await paymentsOf(env, victim.id)).toHaveLength(0);
    const theirs = await env.db.read.select().from(payments).where(eq(payments.club_id, other.club_id));
    expect(theirs).toHaveLength(0);
  });

  it("an event for an object this service did not make is acknowledged and ignored", async () => {
    const res = await send(
      stripe.event("checkout.session.completed", { id: "cs_elsewhere", object: "checkout.session", payment_status: "paid", metadata: {} }),
    );
    expect(res.status).toBe(200);
    expect(res.body.outcome).toStartWith("ignored");
    const other = await send(stripe.event("customer.created", { id: "cus_1", object: "customer" }));
    expect(other.body.outcome).toBe("ignored: type customer.created");
  });
});

describe("subscriptions", () => {
  beforeEach(() => setClub({ allow_subscription: true, subscription_default: true }));

  it("the club's default makes a subscription session billed every tier period; a one-time one when asked; 409 where the club has none", async () => {
    const sub = stripe.sessionOf((await join()).body.checkout_url);
    expect(sub).toMatchObject({ mode: "subscription", recurring: { interval: "month", interval_count: 12 } });
    expect(sub.subscription_metadata).toMatchObject({ club_id: env.clubId, purpose: "membership" });
    expect(stripe.sessionOf((await join({ subscription: false })).body.checkout_url).mode).toBe("payment");
    await setClub({ subscription_only: true });
    expect(stripe.sessionOf((await join({ subscription: false })).body.checkout_url).mode).toBe("subscription");
    await setClub({ allow_subscription: false, subscription_only: false });
    const refused = await join({ subscription: true });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("SUBSCRIPTION_NOT_OFFERED");
  });

  it("paid: on automatic renewal with its fee; the first invoice is not counted twice; a later invoice renews; the end of the subscription ends the renewal", async () => {
    const { memberId, session } = await joinedAndPaid();
    const m = await memberRow(env, memberId);
    expect(m).toMatchObject({ payment_status: "paid", payment_mode: "subscription", stripe_subscription_id: session.subscription, renewal_opt_out_at: null });
    expect((await paymentsOf(env, memberId))[0]).toMatchObject({ amount_cents: 5000, provider_fee_cents: fee(5000) });

    const firstInvoice = stripe.event("invoice.paid", { id: session.invoice, object: "invoice", billing_reason: "subscription_create", amount_paid: 5000 });
    expect((await send(firstInvoice)).body.outcome).toStartWith("ignored");
    expect(await paymentsOf(env, memberId)).toHaveLength(1);

    const renewal = stripe.renew(session.subscription, { fee: 175 });
    expect((await send(renewal)).body.outcome).toBe("renewed");
    const renewed = await memberRow(env, memberId);
    expect(renewed.membership_end > m.membership_end).toBe(true);
    const rows = await paymentsOf(env, memberId);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.provider_fee_cents).sort((a, b) => a - b)).toEqual([175, fee(5000)].sort((a, b) => a - b));
    // A renewal's charge carries none of our metadata: its refund is found by its payment.
    expect((await send(stripe.refund(renewal.data.object.payment_intent_id, 500))).body.outcome).toBe("refund recorded");
    expect((await paymentsOf(env, memberId)).some((r) => r.amount_cents === -500)).toBe(true);

    expect((await send(stripe.endSubscription(session.subscription))).body.outcome).toBe("renewal ended");
    const ended = await memberRow(env, memberId);
    expect(ended).toMatchObject({ payment_mode: "one_time", stripe_subscription_id: null, payment_status: "paid" });
    expect(ended.renewal_opt_out_at).not.toBeNull();
    expect(ended.membership_end).toBe(renewed.membership_end);
  });

  it("cancel-subscription cancels at Stripe at the period's end; the member's page turns the renewal back on there too", async () => {
    const { memberId, pageUrl, session } = await joinedAndPaid();
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${memberId}/actions/cancel-subscription`, { body: {} });
    expect(res.status).toBe(200);
    expect(stripe.subscriptions.get(session.subscription).cancel_at_period_end).toBe(true);
    expect((await memberRow(env, memberId)).renewal_opt_out_at).not.toBeNull();
    const token = pageUrl.split("/m/")[1];
    const on = await env.call("POST", `/api/public/manage/${token}/auto-renewal`, { key: null, body: { enabled: true } });
    expect(on.status).toBe(200);
    expect(stripe.subscriptions.get(session.subscription).cancel_at_period_end).toBe(false);
    expect((await memberRow(env, memberId)).renewal_opt_out_at).toBeNull();
  });

  it("erasing a member ends their subscription at Stripe at once", async () => {
    const { memberId, session } = await joinedAndPaid();
    expect((await env.call("DELETE", `/api/clubs/${env.clubId}/members/${memberId}`)).status).toBe(204);
    expect(stripe.subscriptions.get(session.subscription).status).toBe("canceled");
  });

  it("Stripe refusing to end the subscription: the erasure is a 502 and erases nothing", async () => {
    const { memberId, session } = await joinedAndPaid();
    stripe.failures.push(400);
    const res = await env.call("DELETE", `/api/clubs/${env.clubId}/members/${memberId}`);
    expect([res.status, res.body.code]).toEqual([502, "PAYMENT_PROVIDER_FAILED"]);
    expect(await memberRow(env, memberId)).toMatchObject({ stripe_subscription_id: session.subscription, last_name: "Silva" });
  });

  it("erased while the keys are gone: the erasure goes ahead; the subscription ends once they are back, and a renewal charged meanwhile is refunded", async () => {
    const { memberId, session } = await joinedAndPaid();
    const keyless = await createApp(env.db, { ...env.config, stripe: null });
    try {
      const res = await keyless.handle(
        new Request(`http://localhost/api/clubs/${env.clubId}/members/${memberId}`, { method: "DELETE", headers: { authorization: `Bearer ${env.key}` } }),
      );
      expect(res.status).toBe(204);
    } finally {
      await keyless.audit.drain();
    }
    expect(await memberRow(env, memberId)).toBeUndefined();
    expect(stripe.subscriptions.get(session.subscription).status).not.toBe("canceled");
    // Still without the keys, the job waits for them.
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: { ...env.config, stripe: null } });
    expect(stripe.subscriptions.get(session.subscription).status).not.toBe("canceled");
    // Stripe charged a renewal before the keys came back: the charge goes back, nothing is recorded.
    const renewal = stripe.renew(session.subscription);
    expect((await send(renewal)).body.outcome).toBe("refunded: the member was erased");
    expect(await paymentsOf(env, memberId)).toHaveLength(1);
    const later = new Date(Date.now() + 7 * 3600_000);
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: later });
    expect(stripe.subscriptions.get(session.subscription).status).toBe("canceled");
    expect(stripe.calls.some((c) => c.path === "/v1/refunds" && c.body.payment_intent === renewal.data.object.payment_intent_id)).toBe(true);
  });

  it("the end of an older subscription leaves the member's current one as it is", async () => {
    const { memberId, session } = await joinedAndPaid();
    const older = stripe.event("customer.subscription.deleted", {
      id: "sub_older000001",
      object: "subscription",
      status: "canceled",
      metadata: stripe.subscriptions.get(session.subscription).metadata,
    });
    expect((await send(older)).status).toBe(200);
    expect(await memberRow(env, memberId)).toMatchObject({
      payment_mode: "subscription",
      stripe_subscription_id: session.subscription,
      renewal_opt_out_at: null,
    });
  });

  it("Stripe refusing the cancellation: 502 and the member keeps their renewal", async () => {
    const { memberId } = await joinedAndPaid();
    stripe.failures.push(400);
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${memberId}/actions/cancel-subscription`, { body: {} });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("PAYMENT_PROVIDER_FAILED");
    expect((await memberRow(env, memberId)).renewal_opt_out_at).toBeNull();
    // Checked and written first, then undone: the history says both.
    const history = await env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, memberId));
    expect(history.map((h) => h.action).filter((a) => a.startsWith("cancel"))).toEqual(["cancel_subscription", "cancel_subscription_undone"]);
  });

  it("the member's page: Stripe refusing to stop the renewal is a 502, the renewal stays on; two clicks at once tell Stripe once", async () => {
    const { memberId, pageUrl, session } = await joinedAndPaid();
    const token = pageUrl.split("/m/")[1];
    const toggle = (enabled: boolean) => env.call("POST", `/api/public/manage/${token}/auto-renewal`, { key: null, body: { enabled } });
    stripe.failures.push(400);
    const refused = await toggle(false);
    expect([refused.status, refused.body.code]).toEqual([502, "PAYMENT_PROVIDER_FAILED"]);
    expect((await memberRow(env, memberId)).renewal_opt_out_at).toBeNull();
    expect(stripe.subscriptions.get(session.subscription).cancel_at_period_end).toBe(false);
    // Written first, then undone: the history says both.
    const actions = async () =>
      (await env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, memberId))).map((h) => h.action).filter((a) => a.startsWith("auto"));
    expect(await actions()).toEqual(["auto_renewal_off", "auto_renewal_off_undone"]);

    const before = stripe.calls.filter((c) => c.path.startsWith("/v1/subscriptions/")).length;
    const answers = await Promise.all([toggle(false), toggle(false)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.every((a) => a.body.member.auto_renewal === false)).toBe(true);
    expect(stripe.calls.filter((c) => c.path.startsWith("/v1/subscriptions/")).length - before).toBe(1);
    expect(stripe.subscriptions.get(session.subscription).cancel_at_period_end).toBe(true);
    expect(await actions()).toEqual(["auto_renewal_off", "auto_renewal_off_undone", "auto_renewal_off"]);
  });

  it("two cancellations at once: Stripe is told once, by the one whose check under the member's lock passed", async () => {
    const { memberId, session } = await joinedAndPaid();
    const before = stripe.calls.length;
    const cancel = () => env.call("POST", `/api/clubs/${env.clubId}/members/${memberId}/actions/cancel-subscription`, { body: {} });
    const answers = await Promise.all([cancel(), cancel(), cancel()]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const told = stripe.calls.slice(before).filter((c) => c.path === `/v1/subscriptions/${session.subscription}`);
    expect(told).toHaveLength(1);
    expect(stripe.subscriptions.get(session.subscription).cancel_at_period_end).toBe(true);
  });
});

describe("renewal from the member's page and refunds", () => {
  it("renew by card: a checkout back to the page; its payment renews from the end", async () => {
    const m = await seedMember(env, { tier_id: tierId, manage_token: `tok${crypto.randomUUID().replace(/-/g, "")}` });
    const res = await env.call("POST", `/api/public/manage/${pageTokenOf(m)}/renew`, { key: null, body: { payment_method: "stripe" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ payment_method: "stripe", amount_cents: 5000, bank_transfer: null });
    const session = stripe.sessionOf(res.body.checkout_url);
    expect(session).toMatchObject({ mode: "payment", metadata: { member_id: m.id, purpose: "membership" }, customer_email: m.email });
    expect(session.success_url).toContain(`/m/${pageTokenOf(m)}`);
    await send(stripe.pay(session.id));
    const after = await memberRow(env, m.id);
    expect(after.membership_end > m.membership_end).toBe(true);
  });

  it("a renewal paid by card settles the member's open membership invoice with that payment, renewing once", async () => {
    const m = await seedMember(env, { tier_id: tierId, manage_token: `tok${crypto.randomUUID().replace(/-/g, "")}` });
    const made = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: m.id, tier_id: tierId } });
    expect(made.status).toBe(201);
    const res = await env.call("POST", `/api/public/manage/${pageTokenOf(m)}/renew`, { key: null, body: { payment_method: "stripe" } });
    await send(stripe.pay(stripe.sessionOf(res.body.checkout_url).id));
    const [invoice] = await env.db.read.select().from(invoices).where(eq(invoices.id, made.body.id));
    expect(invoice).toMatchObject({ status: "paid", paid_cents: 5000 });
    const rows = await paymentsOf(env, m.id);
    expect(rows.map((p) => [p.amount_cents, p.source, p.invoice_id])).toEqual([[5000, "provider", made.body.id]]);
    const after = await memberRow(env, m.id);
    const history = await env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, m.id));
    expect(history.filter((h) => h.action === "mark_paid")).toHaveLength(1);
    expect(after.membership_end > m.membership_end).toBe(true);
  });

  it("a refund of the payment that paid an invoice lowers its paid_cents once (also when the event comes twice); paid, it reopens, and only then it may be cancelled", async () => {
    const m = await seedMember(env, { tier_id: tierId, manage_token: `tok${crypto.randomUUID().replace(/-/g, "")}` });
    const made = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: m.id, tier_id: tierId } });
    const res = await env.call("POST", `/api/public/manage/${pageTokenOf(m)}/renew`, { key: null, body: { payment_method: "stripe" } });
    const paid = stripe.pay(stripe.sessionOf(res.body.checkout_url).id);
    await send(paid);
    const invoiceRow = async () => (await env.db.read.select().from(invoices).where(eq(invoices.id, made.body.id)))[0];
    expect(await invoiceRow()).toMatchObject({ status: "paid", paid_cents: 5000 });
    const cancel = () => env.call("POST", `/api/clubs/${env.clubId}/invoices/${made.body.id}/actions/cancel`);
    expect((await cancel()).status).toBe(409);
    const intent = paid.data.object.payment_intent;
    const part = stripe.refund(intent, 1000);
    expect((await send(part)).body.outcome).toBe("refund recorded");
    expect((await send(part)).body.outcome).toBe("duplicate");
    expect(await invoiceRow()).toMatchObject({ status: "open", paid_cents: 4000 });
    expect((await cancel()).status).toBe(409);
    // The rest, then a second event with the same running total: counted once.
    const rest = stripe.refund(intent);
    expect((await send(rest)).body.outcome).toBe("refund recorded");
    expect((await send({ ...rest, id: `${rest.id}_again` })).body.outcome).toBe("ignored: refund already recorded");
    expect(await invoiceRow()).toMatchObject({ status: "open", paid_cents: 0 });
    const rows = await paymentsOf(env, m.id);
    expect(rows.map((p) => [p.amount_cents, p.invoice_id]).sort()).toEqual([
      [-1000, made.body.id],
      [-4000, made.body.id],
      [5000, made.body.id],
    ]);
    const cancelled = await cancel();
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
  });

  it("a member who joined and has not paid yet pays what they owe (their discounts kept), not the tier's price", async () => {
    const m = await seedMember(env, {
      tier_id: tierId,
      payment_status: "pending",
      amount_due_cents: 4500,
      manage_token: `tok${crypto.randomUUID().replace(/-/g, "")}`,
    });
    const res = await env.call("POST", `/api/public/manage/${pageTokenOf(m)}/renew`, { key: null, body: { payment_method: "stripe" } });
    expect(res.body.amount_cents).toBe(4500);
    expect(stripe.sessionOf(res.body.checkout_url).amount_total).toBe(4500);
  });

  it("the member's HTML page: a card button (a form) that leads to Stripe's page, and a word on coming back", async () => {
    const m = await seedMember(env, { tier_id: tierId, manage_token: `tok${crypto.randomUUID().replace(/-/g, "")}` });
    const page = await env.call("GET", `/m/${pageTokenOf(m)}`, { key: null });
    expect(page.text).toContain(`action="/m/${pageTokenOf(m)}/renew"`);
    expect(page.text).toContain('<input type="hidden" name="payment_method" value="stripe">');
    expect(page.text).toContain("Payer par carte");
    const res = await env.app.handle(
      new Request(`http://localhost/m/${pageTokenOf(m)}/renew`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "payment_method=stripe",
      }),
      "10.21.0.1",
    );
    expect(res.status).toBe(302);
    // The browser follows a form's redirect only where the page's form-action allows it.
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self' https:");
    const session = stripe.sessionOf(res.headers.get("location") as string);
    expect(session.metadata).toMatchObject({ member_id: m.id, purpose: "membership" });
    expect((await env.call("GET", `/m/${pageTokenOf(m)}?checkout=success`, { key: null })).text).toContain("en cours de confirmation");
  });

  it("the member's page opens no Checkout on a GET: an old ?renew=stripe link (a preview, a prefetch) shows the page", async () => {
    const m = await seedMember(env, { tier_id: tierId, manage_token: `tok${crypto.randomUUID().replace(/-/g, "")}` });
    const before = stripe.sessions.size;
    const res = await env.app.handle(new Request(`http://localhost/m/${pageTokenOf(m)}?renew=stripe`), "10.21.0.2");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`action="/m/${pageTokenOf(m)}/renew"`);
    expect(stripe.sessions.size).toBe(before);
  });

  it("a refund, part then the rest: negative payments of what was refunded, each once; the membership stays", async () => {
    const { memberId, paid } = await joinedAndPaid();
    const intent = paid.data.object.payment_intent;
    const part = stripe.refund(intent, 1000);
    expect((await send(part)).body.outcome).toBe("refund recorded");
    expect((await send(part)).body.outcome).toBe("duplicate");
    expect((await send(stripe.refund(intent))).body.outcome).toBe("refund recorded");
    const rows = await paymentsOf(env, memberId);
    expect(rows.map((r) => r.amount_cents).sort((a, b) => a - b)).toEqual([-4000, -1000, 5000]);
    expect(rows.filter((r) => r.amount_cents < 0).every((r) => r.provider_payment_id === intent && r.source === "provider")).toBe(true);
    expect((await memberRow(env, memberId)).payment_status).toBe("paid");
  });
});

describe("the job rows an event leaves", () => {
  it("the card email is one job per payment, not per copy of the event", async () => {
    const { memberId, paid } = await joinedAndPaid();
    await send(paid);
    const cardJobs = await env.db.read
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "member.card_email"), eq(jobs.club_id, env.clubId)));
    expect(cardJobs.filter((j) => (j.payload as { member_id: string }).member_id === memberId)).toHaveLength(1);
    expect((await env.db.read.select().from(members).where(eq(members.id, memberId)))[0].payment_status).toBe("paid");
  });
});

describe("one path for every payment (lib/payments/record): what a card payment brings, as a transfer's does", () => {
  /** The subjects of the mails queued to `to` (the receipt, the refund note...), oldest first. */
  const mailsTo = async (to: string) =>
    (
      await env.db.read
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, MAIL_SEND), eq(jobs.club_id, env.clubId)))
    )
      .map((j) => (j.payload as { message: { to: string; subject: string } }).message)
      .filter((m) => m.to === to)
      .map((m) => m.subject);

  it("a card join: the payment through mark-paid with the club's commission, its receipt, payment.recorded; the promo code counted and the referrer credited once paid", async () => {
    await setClub({ commission_rate_percent: 10, member_referral_enabled: true, member_referral_reward_percent: 10 });
    const code = `CARD${Date.now() % 100000}`;
    const promo = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: { code, discount_type: "percent", discount_value: 20, applies_to_tier_ids: [tierId] },
    });
    expect(promo.status).toBe(201);
    const usedCount = async () => (await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, promo.body.id)))[0].used_count;
    const referrer = await seedMember(env, { tier_id: tierId });
    const endpointId = crypto.randomUUID();
    const now = new Date().toISOString();
    await env.db.tx((t) =>
      t.insert(webhookEndpoints).values({
        id: endpointId,
        club_id: env.clubId,
        url: "https://hooks.example.org/club",
        events: ["payment.recorded"],
        secret: "whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdA==",
        enabled: true,
        created_at: now,
        updated_at: now,
      }),
    );
    try {
      const joined = await join({ promo_code: code, referral_code: referrer.referral_code });
      // 5000 less the code's 20 % (1000) and the referral reward's 10 % (500).
      expect(joined.body).toMatchObject({ amount_cents: 3500, discount_cents: 1500 });
      const email = (await memberRow(env, joined.body.member_id)).email;
      expect(await usedCount()).toBe(0);
      expect((await memberRow(env, referrer.id)).referral_credit_cents).toBe(0);

      await send(stripe.pay(stripe.sessionOf(joined.body.checkout_url).id));
      const [row] = await paymentsOf(env, joined.body.member_id);
      expect(row).toMatchObject({ amount_cents: 3500, platform_commission_cents: 350, source: "provider", provider_fee_cents: fee(3500), method: "stripe" });
      expect(await usedCount()).toBe(1);
      expect(await memberRow(env, referrer.id)).toMatchObject({ referral_count: 1, referral_credit_cents: 500 });
      expect(await mailsTo(email)).toContain("Reçu de votre paiement à Club de test");
      await fanOut(env.db, env.clubId);
      const delivered = await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, endpointId));
      expect(delivered.map((d) => d.type)).toEqual(["payment.recorded"]);
      expect(JSON.parse(delivered[0].payload).data).toMatchObject({ id: row.id, amount_cents: 3500, source: "provider", provider_fee_cents: fee(3500) });

      // A refund at Stripe: its negative payment mails the refund note.
      expect((await send(stripe.refund(row.provider_payment_id as string, 1000))).body.outcome).toBe("refund recorded");
      expect(await mailsTo(email)).toContain("Remboursement de Club de test");
    } finally {
      // The deliveries are not sent from here: the endpoint and its jobs go.
      await env.db.tx(async (t) => {
        await t.delete(jobs).where(and(inArray(jobs.kind, [WEBHOOK_DELIVERY, WEBHOOK_FANOUT]), eq(jobs.club_id, env.clubId)));
        await t.delete(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, endpointId));
        await t.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
      });
    }
  });

  it("a renewal by card asks the price less the referral credit, and its payment spends that credit", async () => {
    const m = await seedMember(env, { tier_id: tierId, referral_credit_cents: 1200, manage_token: `tok${crypto.randomUUID().replace(/-/g, "")}` });
    const res = await env.call("POST", `/api/public/manage/${pageTokenOf(m)}/renew`, { key: null, body: { payment_method: "stripe" } });
    expect(res.body.amount_cents).toBe(3800);
    const session = stripe.sessionOf(res.body.checkout_url);
    expect(session.amount_total).toBe(3800);
    await send(stripe.pay(session.id));
    expect((await memberRow(env, m.id)).referral_credit_cents).toBe(0);
    expect((await paymentsOf(env, m.id)).map((r) => r.amount_cents)).toEqual([3800]);
  });
});

describe("the join page by card", () => {
  it("the public club says whether a card payment may renew itself; the page asks only when the club allows it without imposing it", async () => {
    const club = async () => (await env.call("GET", `/api/public/clubs/${slug}`, { key: null })).body;
    expect(await club()).toMatchObject({ allow_subscription: false, subscription_default: false, subscription_only: false });
    expect((await pageGet(env, `/join/${slug}`)).text).not.toContain('name="subscription"');
    await setClub({ allow_subscription: true });
    expect(await club()).toMatchObject({ allow_subscription: true, subscription_default: true, subscription_only: false });
    expect((await pageGet(env, `/join/${slug}`)).text).toContain('name="subscription" value="true" checked');
    await setClub({ subscription_only: true });
    expect(await club()).toMatchObject({ allow_subscription: true, subscription_only: true });
    expect((await pageGet(env, `/join/${slug}`)).text).not.toContain('name="subscription"');
    // Without cards on offer, no subscription either.
    await setClub({ subscription_only: false, payment_methods_enabled: ["bank_transfer"] });
    expect(await club()).toMatchObject({ allow_subscription: false, subscription_default: false });
    expect((await pageGet(env, `/join/${slug}`)).text).not.toContain('name="subscription"');
  });

  it("the form sent with card: a 303 to Stripe's page, a subscription when ticked; paid, the member is active", async () => {
    await setClub({ allow_subscription: true });
    const form = (email: string, over: Record<string, string> = {}) => ({
      tier_id: tierId,
      first_name: "Ana",
      last_name: "Silva",
      email,
      payment_method: "stripe",
      challenge: "",
      nonce: "",
      website: "",
      ...over,
    });
    const once = await pagePost(env, `/join/${slug}`, form("page-card1@example.org"));
    expect(once.status).toBe(303);
    const session = stripe.sessionOf(once.location as string);
    expect(session).toMatchObject({ mode: "payment", amount_total: 5000, metadata: { purpose: "membership" } });
    const ticked = await pagePost(env, `/join/${slug}`, form("page-card2@example.org", { subscription: "true" }));
    expect(ticked.status).toBe(303);
    expect(stripe.sessionOf(ticked.location as string).mode).toBe("subscription");
    // Inside a club's iframe: a page with a link opening Stripe's page in the whole window.
    const framed = await pagePost(env, `/join/${slug}`, form("page-card3@example.org"), { "sec-fetch-dest": "iframe" });
    expect(framed.status).toBe(201);
    const link = /<a [^>]*href="([^"]+)"[^>]*target="_top"/.exec(framed.text)?.[1];
    expect(stripe.sessionOf((link ?? "").replaceAll("&amp;", "&")).metadata.purpose).toBe("membership");
    expect((await send(stripe.pay(session.id))).body.outcome).toBe("paid");
    const [m] = await env.db.read.select().from(members).where(eq(members.id, session.metadata.member_id));
    expect(m).toMatchObject({ email: "page-card1@example.org", payment_status: "paid", payment_method: "stripe" });
  });
});
