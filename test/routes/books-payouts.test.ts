// Stripe's payouts in the books (DESIGN.md section 21): `payout.paid`, signed and applied once,
// records each club's share of the payout (the net of its own card payments and refunds in it),
// and the journal books it from passage to bank, so that passage is back at 0 once the payouts
// cover the card payments. Against the local stand-in for Stripe (test/stripe-fake.ts).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq, sql } from "drizzle-orm";
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

describe("a payout on the club's bank statement", () => {
  const importCsv = (csv: string, key = env.key, clubId = env.clubId) =>
    env.call("POST", `/api/clubs/${clubId}/payments/import`, { key, rawBody: csv, headers: { "content-type": "text/csv" } });
  const csvLine = (cents: number, reference: string, counterparty = "Stripe Payments Europe") =>
    `date,amount,currency,reference,counterparty\n${today()},${(cents / 100).toFixed(2)},CHF,${reference},${counterparty}\n`;
  const payoutRow = async (id: string) => (await env.db.read.select().from(payouts).where(eq(payouts.provider_payout_id, id)))[0];

  it("naming Stripe only, it is matched to the payout payout.paid recorded (same amount, within 5 days), once; booked once", async () => {
    // The payouts of the tests above, of the same amount, seen on an earlier statement.
    await env.db.tx((t) => t.update(payouts).set({ statement_line_key: sql`'earlier:' || ${payouts.id}` }));
    const club = await cardClub(env.clubId, env.key);
    const event = stripe.payout([await paidByCard(club)]);
    expect((await send(event)).body.outcome).toBe("payout recorded");
    const po = event.data.object.id as string;
    const row = await payoutRow(po);
    const res = await importCsv(csvLine(row.amount_cents, "STRIPE"));
    expect(res.status).toBe(200);
    expect(res.body.matched).toEqual([expect.objectContaining({ amount_cents: row.amount_cents, payout_id: po, payout_recorded: false })]);
    expect((await payoutRow(po)).statement_line_key).not.toBeNull();
    const again = await importCsv(csvLine(row.amount_cents, "STRIPE"));
    expect(again.body.unmatched.map((u: { reason: string }) => u.reason)).toEqual(["STATEMENT_LINE_ALREADY_RECORDED"]);
    const journal = await balances(club.clubId, club.key);
    expect(journal.lines.filter((l) => l.doc === po)).toHaveLength(1);
  });

  it("quoting the payout's id before payout.paid arrives, it records the payout; payout.paid then adds none", async () => {
    const club = await cardClub(env.clubId, env.key);
    const event = stripe.payout([await paidByCard(club)]);
    const po = event.data.object.id as string;
    const amount = event.data.object.amount as number;
    const dry = await env.call("POST", `/api/clubs/${env.clubId}/payments/import?dry_run=true`, {
      rawBody: csvLine(amount, `Payout ${po}`),
      headers: { "content-type": "text/csv" },
    });
    expect(dry.body.matched).toEqual([expect.objectContaining({ payout_id: po, payout_recorded: true })]);
    expect(await payoutRow(po)).toBeUndefined();
    const res = await importCsv(csvLine(amount, `Payout ${po}`));
    expect(res.body.matched).toEqual([expect.objectContaining({ payout_id: po, payout_recorded: true, amount_cents: amount })]);
    expect(await payoutRow(po)).toMatchObject({ club_id: env.clubId, amount_cents: amount, currency: "CHF" });
    expect((await send(event)).body.outcome).toBe("payout already recorded from a bank statement");
    expect(await env.db.read.select().from(payouts).where(eq(payouts.provider_payout_id, po))).toHaveLength(1);
    // A second line quoting the same payout (another day's booking): not a second payout.
    const twice = await importCsv(`date,amount,currency,reference\n2020-01-02,${(amount / 100).toFixed(2)},CHF,${po}\n`);
    expect(twice.body.unmatched.map((u: { reason: string }) => u.reason)).toEqual(["ALREADY_PAID"]);
    const journal = await balances(club.clubId, club.key);
    expect(journal.lines.filter((l) => l.doc === po)).toHaveLength(1);
  });

  it("naming Stripe with no payout recorded to explain it: listed PAYOUT_NOT_RECORDED, nothing recorded", async () => {
    const before = (await env.db.read.select().from(payouts)).length;
    const res = await importCsv(csvLine(123456, "STRIPE TRANSFER"));
    expect(res.body.matched).toEqual([]);
    expect(res.body.unmatched).toEqual([expect.objectContaining({ reason: "PAYOUT_NOT_RECORDED", amount_cents: 123456 })]);
    expect((await env.db.read.select().from(payouts)).length).toBe(before);
  });

  it("camt.053: the payout id in the unstructured remittance (case kept) records it", async () => {
    const club = await cardClub(env.clubId, env.key);
    const event = stripe.payout([await paidByCard(club)]);
    const po = event.data.object.id as string;
    const amount = ((event.data.object.amount as number) / 100).toFixed(2);
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>S1</MsgId><CreDtTm>${today()}T06:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S1</Id><Acct><Id><IBAN>CH9300762011623852957</IBAN></Id></Acct>
<Ntry><Amt Ccy="CHF">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${today()}</Dt></BookgDt><AcctSvcrRef>PO-${po}</AcctSvcrRef>
<NtryDtls><TxDtls><RltdPties><Dbtr><Pty><Nm>STRIPE PAYMENTS EUROPE LTD</Nm></Pty></Dbtr></RltdPties><RmtInf><Ustrd>STRIPE ${po}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
    const res = await env.call("POST", `/api/clubs/${env.clubId}/payments/import`, { rawBody: xml, headers: { "content-type": "application/xml" } });
    expect(res.status).toBe(200);
    expect(res.body.matched).toEqual([expect.objectContaining({ payout_id: po, payout_recorded: true })]);
    expect(await payoutRow(po)).toMatchObject({ amount_cents: event.data.object.amount });
  });

  it("three imports of one statement at once record the payout once", async () => {
    const club = await cardClub(env.clubId, env.key);
    const event = stripe.payout([await paidByCard(club)]);
    const po = event.data.object.id as string;
    const csv = csvLine(event.data.object.amount, po, "STRIPE");
    const answers = await Promise.all([importCsv(csv), importCsv(csv), importCsv(csv)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.flatMap((a) => a.body.matched)).toHaveLength(1);
    expect(await env.db.read.select().from(payouts).where(eq(payouts.provider_payout_id, po))).toHaveLength(1);
  });
});
