// Stripe's payouts in the books (DESIGN.md section 21): `payout.paid`, signed and applied once,
// records each club's share of the payout (the net of its own card payments and refunds in it),
// and the journal books it from passage to bank, so that passage is back at 0 once the payouts
// cover the card payments. Against the local stand-in for Stripe (test/stripe-fake.ts).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, payouts, stripeEvents } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { type FakeStripe, fakeStripe, type Json } from "../stripe-fake";

let env: TestEnv;
let stripe: FakeStripe;
beforeAll(async () => {
  stripe = await fakeStripe();
  env = await setup(stripe.env);
});
afterAll(async () => {
  await env.close();
  stripe.stop();
});

const STRIPE_CLUB = { membership_mode: "open", payout_iban: "CH9300762011623852957", payment_methods_enabled: ["stripe", "bank_transfer"], locale: "en" };

/** A club taking card payments, with a tier: its slug, tier and key. */
async function cardClub(clubId: string, key: string) {
  await env.db.tx((t) => t.update(clubs).set(STRIPE_CLUB).where(eq(clubs.id, clubId)));
  const [{ slug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, clubId));
  const tier = await env.call("POST", `/api/clubs/${clubId}/tiers`, { key, body: { name: "Adult", price_cents: 5000, currency: "CHF", duration_months: 12 } });
  return { clubId, slug, tierId: tier.body.id as string, key };
}

let payer = 0;
/** A member joins `club` by card and pays (Stripe's fee: 2.9 % + 30): the PaymentIntent. */
async function paidByCard(club: Awaited<ReturnType<typeof cardClub>>): Promise<string> {
  const res = await env.app.handle(
    new Request(`http://localhost/api/public/clubs/${club.slug}/join`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tier_id: club.tierId, first_name: "Ana", last_name: "Silva", email: `payer${++payer}@example.org`, payment_method: "stripe" }),
    }),
    `10.30.0.${payer}`,
  );
  const joined = (await res.json()) as Json;
  const session = stripe.sessionOf(joined.checkout_url);
  expect((await send(stripe.pay(session.id))).status).toBe(200);
  return stripe.sessionOf(joined.checkout_url).payment_intent;
}

async function send(event: Json, opts: { secret?: string } = {}) {
  const payload = JSON.stringify(event);
  return env.call("POST", "/api/webhooks/stripe", {
    key: null,
    rawBody: payload,
    headers: { "content-type": "application/json", "stripe-signature": await stripe.sign(payload, opts) },
  });
}

const today = () => new Date().toISOString().slice(0, 10);
const balances = async (clubId: string, key: string) => {
  const res = await env.call("GET", `/api/clubs/${clubId}/journal?from=${today()}&to=${today()}`, { key });
  return { lines: res.body.lines as Json[], byAccount: Object.fromEntries((res.body.accounts as Json[]).map((a) => [a.account, a.balance_cents])) };
};

describe("payout.paid", () => {
  it("records each club's share once and books it from passage to bank: passage back at 0", async () => {
    const ours = await cardClub(env.clubId, env.key);
    const other = await env.otherClub();
    const theirs = await cardClub(other.club_id, other.api_key);
    const a = await paidByCard(ours);
    const b = await paidByCard(ours);
    const c = await paidByCard(theirs);
    expect((await send(stripe.refund(b, 1000))).body.outcome).toBe("refund recorded");
    // Before the payout: passage holds the card money less Stripe's fees (2 x 5000 - 1000 refunded - 2 x 175).
    expect((await balances(ours.clubId, ours.key)).byAccount["1021"]).toBe(8650);

    const event = stripe.payout([a, b, c], { adjustment: -15 });
    // A forged copy changes nothing.
    expect((await send(event, { secret: "whsec_forged" })).status).toBe(400);
    expect(await env.db.read.select().from(payouts)).toEqual([]);
    // Two copies at once, then a third: one payout row per club.
    const answers = await Promise.all([send(event), send(event)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(answers.map((r) => r.body.outcome).sort()).toEqual(["duplicate", "payout recorded for 2 clubs"]);
    expect((await send(event)).body.outcome).toBe("duplicate");

    const rows = await env.db.read.select().from(payouts);
    const share = Object.fromEntries(rows.map((r) => [r.club_id, [r.provider_payout_id, r.amount_cents, r.currency]]));
    expect(share).toEqual({ [ours.clubId]: [event.data.object.id, 8650, "CHF"], [theirs.clubId]: [event.data.object.id, 4825, "CHF"] });
    const [stored] = await env.db.read.select().from(stripeEvents).where(eq(stripeEvents.id, event.id));
    expect(stored.type).toBe("payout.paid");

    const journal = await balances(ours.clubId, ours.key);
    expect(journal.byAccount["1021"]).toBe(0);
    expect(journal.byAccount["1020"]).toBe(8650);
    expect(journal.lines.find((l) => l.doc === event.data.object.id)).toMatchObject({
      debit_account: "1020",
      credit_account: "1021",
      amount_cents: 8650,
      description: `Provider payout ${event.data.object.id}`,
    });
    expect((await balances(theirs.clubId, theirs.key)).byAccount["1021"]).toBe(0);
  });

  it("a payout of no payment of ours is acknowledged and records nothing", async () => {
    const club = await cardClub(env.clubId, env.key);
    const pi = await paidByCard(club);
    const event = stripe.payout([pi]);
    // The same PaymentIntent unknown here: another installation's payment on the same Stripe account.
    const charge = stripe.charges.get(stripe.intents.get(pi).latest_charge);
    stripe.charges.set("ch_elsewhere", { ...charge, id: "ch_elsewhere", payment_intent: "pi_elsewhere" });
    stripe.intents.set("pi_elsewhere", { ...stripe.intents.get(pi), id: "pi_elsewhere", latest_charge: "ch_elsewhere" });
    const foreign = stripe.payout(["pi_elsewhere"]);
    const before = (await env.db.read.select().from(payouts)).length;
    const res = await send(foreign);
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe("ignored: no payment of this service in the payout");
    expect((await env.db.read.select().from(payouts)).length).toBe(before);
    expect((await send(event)).body.outcome).toBe("payout recorded");
  });
});
