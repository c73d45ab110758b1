// Paid event tickets through Stripe (issue 13): the public registration answers a checkout page
// whose hold lasts PENDING_PAYMENT_MINUTES; paid -> confirmed with Stripe's fee; unpaid past it ->
// cancelled and the place freed by the job, which survives a restart of the server; a payment that
// comes after the hold ran out takes the place back if one is left, else is refunded at Stripe.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { openDb } from "../../db";
import { clubs, eventRegistrations, jobs, promoCodes, promoRedemptions } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { MAIL_SEND } from "../../lib/mail";
import { createApp } from "../../app";
import { JOB_KINDS } from "../../server/jobs";
import { createEventVia, registerPublic, registrationPayments, registrationRow } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { type FakeStripe, fakeStripe, type Json } from "../stripe-fake";

const HOLD_MINUTES = 45;
let env: TestEnv;
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await fakeStripe();
  env = await setup({ ...stripe.env, PENDING_PAYMENT_MINUTES: String(HOLD_MINUTES) });
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({ payment_methods_enabled: ["stripe", "bank_transfer"], payout_iban: "CH9300762011623852957" })
      .where(eq(clubs.id, env.clubId)),
  );
});
afterAll(async () => {
  await env.close();
  stripe.stop();
});

async function send(app: TestEnv["app"], event: Json) {
  const payload = JSON.stringify(event);
  const res = await app.handle(
    new Request("http://localhost/api/webhooks/stripe", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": await stripe.sign(payload) },
      body: payload,
    }),
  );
  return { status: res.status, body: (await res.json()) as Json };
}

const paidEvent = (body: Record<string, unknown> = {}) =>
  createEventVia(env, { capacity: 1, tickets: [{ name: "Entrée", member_price_cents: 1500, non_member_price_cents: 2000 }], ...body });

describe("a paid ticket", () => {
  it("answers Stripe's checkout page, held PENDING_PAYMENT_MINUTES; paid -> confirmed with its fee", async () => {
    const event = await paidEvent();
    const before = Date.now();
    const res = await registerPublic(env, event.id, { ticket_id: event.tickets[0].id }, "10.30.0.1");
    expect(res.status).toBe(201);
    const reg = res.body as Json;
    expect(reg).toMatchObject({ status: "pending", amount_cents: 2000 });
    const held = Date.parse(reg.hold_expires_at) - before;
    expect(held).toBeGreaterThanOrEqual(HOLD_MINUTES * 60_000 - 1000);
    expect(held).toBeLessThanOrEqual(HOLD_MINUTES * 60_000 + 5000);
    const session = stripe.sessionOf(reg.checkout_url);
    expect(session).toMatchObject({ mode: "payment", amount_total: 2000, metadata: { club_id: env.clubId, registration_id: reg.id, purpose: "event" } });
    // The payment page closes when the hold ends.
    expect(session.expires_at).toBe(Math.floor(Date.parse(reg.hold_expires_at) / 1000));

    const answer = await send(env.app, stripe.pay(session.id, { fee: 88 }));
    expect(answer.body.outcome).toBe("confirmed");
    expect((await registrationRow(env, reg.id)).status).toBe("confirmed");
    const rows = await registrationPayments(env, reg.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount_cents: 2000, method: "stripe", source: "provider", provider_fee_cents: 88, kind: "event" });
  });

  it("by bank transfer when asked: no checkout, the club's hold", async () => {
    const event = await paidEvent();
    const res = await registerPublic(env, event.id, { ticket_id: event.tickets[0].id, payment_method: "bank_transfer" }, "10.30.0.2");
    expect(res.status).toBe(201);
    expect((res.body as Json).checkout_url).toBeNull();
    expect(Date.parse((res.body as Json).hold_expires_at) - Date.now()).toBeGreaterThan(HOLD_MINUTES * 60_000 * 2);
  });

  it("a method the club does not take: 409 PAYMENT_METHOD_UNAVAILABLE, nothing stored", async () => {
    const setClub = (set: Record<string, unknown>) => env.db.tx((t) => t.update(clubs).set(set).where(eq(clubs.id, env.clubId)));
    const event = await paidEvent();
    const stored = () => env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id));
    try {
      await setClub({ payment_methods_enabled: ["stripe"] });
      const transfer = await registerPublic(env, event.id, { ticket_id: event.tickets[0].id, payment_method: "bank_transfer" }, "10.30.0.9");
      expect([transfer.status, (transfer.body as Json).code]).toEqual([409, "PAYMENT_METHOD_UNAVAILABLE"]);
      await setClub({ payment_methods_enabled: ["bank_transfer"] });
      const card = await registerPublic(env, event.id, { ticket_id: event.tickets[0].id, payment_method: "stripe" }, "10.30.0.10");
      expect([card.status, (card.body as Json).code]).toEqual([409, "PAYMENT_METHOD_UNAVAILABLE"]);
      expect(await stored()).toHaveLength(0);
    } finally {
      await setClub({ payment_methods_enabled: ["stripe", "bank_transfer"] });
    }
  });

  it("unpaid past its hold: cancelled and the place freed by the job, across a restart of the server", async () => {
    const own = await setup({ ...stripe.env, PENDING_PAYMENT_MINUTES: String(HOLD_MINUTES) });
    let db = own.db;
    try {
      await own.db.tx((t) =>
        t
          .update(clubs)
          .set({ payment_methods_enabled: ["stripe"] })
          .where(eq(clubs.id, own.clubId)),
      );
      const event = await createEventVia(own, { capacity: 1, tickets: [{ name: "Entrée", non_member_price_cents: 2000 }] });
      const reg = (await registerPublic(own, event.id, { ticket_id: event.tickets[0].id }, "10.30.0.3")).body as Json;
      expect(reg.checkout_url).toStartWith("https://");
      // Full now: the one place is held.
      expect((await registerPublic(own, event.id, { ticket_id: event.tickets[0].id }, "10.30.0.4")).body.code).toBe("EVENT_FULL");

      // The server stops; a new one opens the same database file.
      await own.app.audit.drain();
      own.db.close();
      db = await openDb(own.config.databaseUrl);
      const app = await createApp(db, own.config);
      const at = (minutes: number) => new Date(Date.now() + minutes * 60_000);
      await runDueJobs(db, { kinds: JOB_KINDS, config: own.config, now: at(HOLD_MINUTES - 5) });
      const still = await db.read.select().from(eventRegistrations).where(eq(eventRegistrations.id, reg.id));
      expect(still[0].status).toBe("pending");
      await runDueJobs(db, { kinds: JOB_KINDS, config: own.config, now: at(HOLD_MINUTES + 1) });
      const [row] = await db.read.select().from(eventRegistrations).where(eq(eventRegistrations.id, reg.id));
      expect(row).toMatchObject({ status: "cancelled", cancel_reason: "hold_expired" });
      const again = await app.handle(
        new Request(`http://localhost/api/public/events/${event.id}/registrations`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ticket_id: event.tickets[0].id, first_name: "Bo", last_name: "Li", email: "bo@example.org" }),
        }),
        "10.30.0.5",
      );
      expect(again.status).toBe(201);
      await app.audit.drain();
    } finally {
      db.close();
      rmSync(own.dir, { recursive: true, force: true });
    }
  });

  it("paid after its hold ran out: its place back when one is left, else refunded at Stripe and nothing recorded", async () => {
    const roomy = await paidEvent({ capacity: 5 });
    const late = (await registerPublic(env, roomy.id, { ticket_id: roomy.tickets[0].id }, "10.30.0.6")).body as Json;
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000) });
    expect((await registrationRow(env, late.id)).status).toBe("cancelled");
    expect((await send(env.app, stripe.pay(stripe.sessionOf(late.checkout_url).id))).body.outcome).toBe("confirmed");
    expect((await registrationRow(env, late.id)).status).toBe("confirmed");

    const full = await paidEvent();
    const gone = (await registerPublic(env, full.id, { ticket_id: full.tickets[0].id }, "10.30.0.7")).body as Json;
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000) });
    const taker = await registerPublic(env, full.id, { ticket_id: full.tickets[0].id }, "10.30.0.8");
    expect(taker.status).toBe(201);
    const paid = stripe.pay(stripe.sessionOf(gone.checkout_url).id);
    expect((await send(env.app, paid)).body.outcome).toStartWith("refunded");
    expect((await registrationRow(env, gone.id)).status).toBe("cancelled");
    expect(await registrationPayments(env, gone.id)).toHaveLength(0);
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    expect(stripe.calls.some((c) => c.path === "/v1/refunds" && c.body.payment_intent === paid.data.object.payment_intent)).toBe(true);
    expect(stripe.charges.get(stripe.intents.get(paid.data.object.payment_intent).latest_charge).refunded).toBe(true);
  });

  it("paid after its hold ran out with a promo code: the code's use, given back at the expiry, is counted again", async () => {
    const event = await paidEvent({ capacity: 5 });
    const code = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: {
        code: `LATE${crypto.randomUUID().slice(0, 6)}`,
        scope: "event",
        event_id: event.id,
        discount_type: "amount",
        discount_value: 500,
        currency: "CHF",
        max_uses: 1,
      },
    });
    expect(code.status).toBe(201);
    const used = async () => (await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, code.body.id)))[0].used_count;
    const redemptions = () => env.db.read.select().from(promoRedemptions).where(eq(promoRedemptions.promo_code_id, code.body.id));
    const late = (await registerPublic(env, event.id, { ticket_id: event.tickets[0].id, promo_code: code.body.code }, "10.30.0.10")).body as Json;
    expect(late).toMatchObject({ status: "pending", amount_cents: 1500 });
    expect(await used()).toBe(1);
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000) });
    expect(await used()).toBe(0);
    expect((await send(env.app, stripe.pay(stripe.sessionOf(late.checkout_url).id))).body.outcome).toBe("confirmed");
    expect((await registrationRow(env, late.id)).status).toBe("confirmed");
    expect(await used()).toBe(1);
    expect((await redemptions()).map((r) => [r.registration_id, r.discount_cents])).toEqual([[late.id, 500]]);
    const next = await registerPublic(env, event.id, { ticket_id: event.tickets[0].id, promo_code: code.body.code }, "10.30.0.11");
    expect([next.status, (next.body as Json).code]).toEqual([409, "PROMO_CODE_EXHAUSTED"]);
  });

  it("Stripe's two events of one payment at once (completed, async_payment_succeeded): one payment, one use of the code", async () => {
    const event = await paidEvent({ capacity: 5 });
    const code = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: {
        code: `TWICE${crypto.randomUUID().slice(0, 6)}`,
        scope: "event",
        event_id: event.id,
        discount_type: "amount",
        discount_value: 500,
        currency: "CHF",
        max_uses: 5,
      },
    });
    const register = async (ip: string) =>
      (await registerPublic(env, event.id, { ticket_id: event.tickets[0].id, promo_code: code.body.code }, ip)).body as Json;
    const twice = (reg: Json) => {
      const completed = stripe.pay(stripe.sessionOf(reg.checkout_url).id);
      const succeeded = { ...completed, id: `evt_${crypto.randomUUID().replaceAll("-", "")}`, type: "checkout.session.async_payment_succeeded" };
      return Promise.all([send(env.app, completed), send(env.app, succeeded)]);
    };
    // Paid after its hold ran out (the place and the code's use given back, then taken again), and still held.
    const late = await register("10.30.0.13");
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000) });
    expect((await registrationRow(env, late.id)).status).toBe("cancelled");
    const held = await register("10.30.0.14");
    for (const reg of [held, late]) {
      const outcomes = (await twice(reg)).map((a) => a.body.outcome).sort();
      expect(outcomes[0]).toBe("confirmed");
      expect(outcomes[1]).toMatch(/^(ignored: registration confirmed|refused: REGISTRATION_NOT_PENDING)$/);
      expect((await registrationRow(env, reg.id)).status).toBe("confirmed");
      expect((await registrationPayments(env, reg.id)).map((p) => p.amount_cents)).toEqual([1500]);
    }
    const [promo] = await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, code.body.id));
    expect(promo.used_count).toBe(2);
    const rows = await env.db.read.select().from(promoRedemptions).where(eq(promoRedemptions.promo_code_id, code.body.id));
    expect(rows.map((r) => r.registration_id).sort()).toEqual([held.id, late.id].sort());
  });

  it("refunded at Stripe: a negative payment; the registration stays as it is; the receipt, then the refund note, as for any payment", async () => {
    const event = await paidEvent({ capacity: 5 });
    const email = "ticket-payer@example.org";
    const reg = (await registerPublic(env, event.id, { ticket_id: event.tickets[0].id, email }, "10.30.0.9")).body as Json;
    const paid = stripe.pay(stripe.sessionOf(reg.checkout_url).id);
    await send(env.app, paid);
    expect((await send(env.app, stripe.refund(paid.data.object.payment_intent))).body.outcome).toBe("refund recorded");
    expect((await registrationPayments(env, reg.id)).map((p) => p.amount_cents)).toEqual([2000, -2000]);
    expect((await registrationRow(env, reg.id)).status).toBe("confirmed");
    const mails = (await env.db.read.select().from(jobs).where(eq(jobs.kind, MAIL_SEND)))
      .map((j) => (j.payload as { message: { to: string; subject: string } }).message)
      .filter((m) => m.to === email);
    expect(mails.map((m) => m.subject)).toEqual(["Reçu de votre paiement à Club de test", "Remboursement de Club de test"]);
  });
});
