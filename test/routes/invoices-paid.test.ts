// Invoices get paid (DESIGN.md section 20, "Paying an invoice"; issue 27): a statement line
// quoting an invoice's QRR or RF reference pays it, exactly and once (also with three imports
// at once); a part leaves it open, the rest pays it and renews a membership once; more is kept
// and listed; a cancelled or unknown invoice's line is listed with its reason. What is stored is
// read back from the database.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, eventRegistrations, invoices, payments } from "../../db/schema";
import { createEventVia } from "../events-fixtures";
import { invoiceReference, qrReference } from "../../lib/payments/reference";
import { camt054 } from "../fixtures/camt054";
import { setup, type TestEnv } from "../helpers";
import { addDays, historyOf, memberRow, seedMember, todayUtc, withEndpoint } from "../members-fixtures";

let env: TestEnv;
let tier: string;
const QR_IBAN = "CH44 3199 9123 0008 8901 2";
const PLAIN_IBAN = "CH93 0076 2011 6238 5295 7";

beforeAll(async () => {
  env = await setup();
  await env.db.tx((t) => t.update(clubs).set({ currency: "CHF", locale: "en", payout_iban: PLAIN_IBAN }).where(eq(clubs.id, env.clubId)));
  tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adult", price_cents: 8000, currency: "CHF", duration_months: 12 } })).body
    .id;
});
afterAll(() => env.close());

const setIban = (iban: string) => env.db.tx((t) => t.update(clubs).set({ payout_iban: iban }).where(eq(clubs.id, env.clubId)));
const invoiceOf = async (body: Record<string, unknown>) => {
  const res = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body });
  expect(res.status).toBe(201);
  return res.body as { id: string; reference: string; number: string; member_id: string };
};
const other = (memberId: string, cents = 5000) => invoiceOf({ member_id: memberId, lines: [{ label: "Tournoi", amount_cents: cents }] });
const rowOf = async (id: string) => (await env.db.read.select().from(invoices).where(eq(invoices.id, id)))[0];
const paymentsFor = (invoiceId: string) => env.db.read.select().from(payments).where(eq(payments.invoice_id, invoiceId));
const importCsv = (csv: string, qs = "") =>
  env.call("POST", `/api/clubs/${env.clubId}/payments/import${qs}`, { rawBody: csv, headers: { "content-type": "text/csv" } });
const csvOf = (...lines: [string, string][]) =>
  `date,amount,currency,reference\n${lines.map(([amount, ref], i) => `${addDays(todayUtc(), -i)},${amount},CHF,${ref}`).join("\n")}\n`;
/** A reference as people type it: in groups of four or five. */
const spaced = (ref: string) => ref.replace(/(.{4})/g, "$1 ").trim();

describe("a statement line pays the invoice its reference names", () => {
  it("a part leaves it open, the rest pays it: two payments on the invoice, each once", async () => {
    const m = await seedMember(env);
    const inv = await other(m.id, 5000);
    const first = await importCsv(csvOf(["20.00", spaced(inv.reference)]));
    expect(first.status).toBe(200);
    expect(first.body.matched).toEqual([
      expect.objectContaining({ amount_cents: 2000, invoice_id: inv.id, member_id: m.id, invoice_status: "open", invoice_paid_cents: 2000 }),
    ]);
    expect(first.body.matched[0].overpaid_cents).toBeUndefined();
    expect(await rowOf(inv.id)).toMatchObject({ status: "open", paid_cents: 2000 });
    // The same file again: nothing twice.
    const again = await importCsv(csvOf(["20.00", spaced(inv.reference)]));
    expect(again.body.matched).toEqual([]);
    expect(again.body.unmatched.map((u: { reason: string }) => u.reason)).toEqual(["STATEMENT_LINE_ALREADY_RECORDED"]);
    const rest = await importCsv(`date,amount,currency,reference\n${todayUtc()},30.00,CHF,${inv.reference}\n`);
    expect(rest.body.matched[0]).toMatchObject({ invoice_status: "paid", invoice_paid_cents: 5000 });
    expect(await rowOf(inv.id)).toMatchObject({ status: "paid", paid_cents: 5000 });
    const rows = await paymentsFor(inv.id);
    expect(rows.map((p) => [p.amount_cents, p.kind, p.member_id, p.method]).sort()).toEqual([
      [2000, "other", m.id, "bank_transfer"],
      [3000, "other", m.id, "bank_transfer"],
    ]);
    // A kind `other` invoice is just paid: the membership is as it was.
    expect((await memberRow(env, m.id)).membership_end).toBe(m.membership_end);
  });

  it("a QRR (QR-IBAN) with spaces pays it; a dry run says so and writes nothing", async () => {
    await setIban(QR_IBAN);
    try {
      const m = await seedMember(env);
      const inv = await other(m.id, 4000);
      expect(inv.reference).toMatch(/^\d{27}$/);
      const csv = csvOf(["40.00", spaced(inv.reference)]);
      const dry = await importCsv(csv, "?dry_run=true");
      expect(dry.body.matched).toEqual([expect.objectContaining({ invoice_id: inv.id, invoice_status: "paid", invoice_paid_cents: 4000 })]);
      expect(await rowOf(inv.id)).toMatchObject({ status: "open", paid_cents: 0 });
      expect(await paymentsFor(inv.id)).toHaveLength(0);
      const res = await importCsv(csv);
      expect(res.body.matched).toEqual([expect.objectContaining({ invoice_id: inv.id, invoice_status: "paid" })]);
      expect(await rowOf(inv.id)).toMatchObject({ status: "paid", paid_cents: 4000 });
    } finally {
      await setIban(PLAIN_IBAN);
    }
  });

  it("the payment that completes a membership invoice renews one period, as mark-paid does; the part before renews nothing", async () => {
    const m = await seedMember(env, { tier_id: tier, membership_end: addDays(todayUtc(), 20) });
    const inv = await invoiceOf({ member_id: m.id, tier_id: tier });
    await importCsv(csvOf(["30.00", inv.reference]));
    expect((await memberRow(env, m.id)).membership_end).toBe(m.membership_end);
    expect((await historyOf(env, m.id)).filter((h) => h.action === "mark_paid")).toHaveLength(0);
    const done = await importCsv(`date,amount,currency,reference\n${todayUtc()},50.00,CHF,${inv.reference}\n`);
    expect(done.body.matched[0]).toMatchObject({ invoice_status: "paid", member_id: m.id });
    const after = await memberRow(env, m.id);
    expect(after.membership_end > m.membership_end).toBe(true);
    expect((await historyOf(env, m.id)).filter((h) => h.action === "mark_paid")).toHaveLength(1);
    expect(await rowOf(inv.id)).toMatchObject({ status: "paid", paid_cents: 8000 });
    const rows = await paymentsFor(inv.id);
    expect(rows.map((p) => [p.amount_cents, p.kind]).sort()).toEqual([
      [3000, "membership"],
      [5000, "membership"],
    ]);
    // Every payment of the member names the invoice: mark-paid did not record a second one.
    expect((await env.db.read.select().from(payments).where(eq(payments.member_id, m.id))).length).toBe(2);
  });

  it("an overpayment is recorded and listed with what is over; a line for a paid invoice is ALREADY_PAID", async () => {
    const m = await seedMember(env);
    const inv = await other(m.id, 5000);
    const res = await importCsv(csvOf(["75.00", inv.reference]));
    expect(res.body.matched).toEqual([expect.objectContaining({ invoice_status: "paid", invoice_paid_cents: 7500, overpaid_cents: 2500 })]);
    expect(await rowOf(inv.id)).toMatchObject({ status: "paid", paid_cents: 7500 });
    expect((await paymentsFor(inv.id)).map((p) => p.amount_cents)).toEqual([7500]);
    const late = await importCsv(`date,amount,currency,reference\n${todayUtc()},10.00,CHF,${inv.reference}\n`);
    expect(late.body.unmatched.map((u: { reason: string }) => u.reason)).toEqual(["ALREADY_PAID"]);
    expect(await paymentsFor(inv.id)).toHaveLength(1);
  });

  it("a dry run adds up the file's lines of one invoice as the import does: open, paid, then ALREADY_PAID", async () => {
    const m = await seedMember(env);
    const inv = await other(m.id, 5000);
    const csv = csvOf(["30.00", inv.reference], ["20.00", inv.reference], ["5.00", inv.reference]);
    const dry = await importCsv(csv, "?dry_run=true");
    const real = await importCsv(csv);
    for (const res of [dry, real]) {
      expect(res.body.matched.map((x: { invoice_status: string; invoice_paid_cents: number }) => [x.invoice_status, x.invoice_paid_cents])).toEqual([
        ["open", 3000],
        ["paid", 5000],
      ]);
      expect(res.body.unmatched.map((u: { reason: string }) => u.reason)).toEqual(["ALREADY_PAID"]);
    }
    expect(await rowOf(inv.id)).toMatchObject({ status: "paid", paid_cents: 5000 });
  });

  it("a cancelled invoice's line, an unknown invoice's, another currency: listed with the reason, nothing recorded", async () => {
    const m = await seedMember(env);
    const cancelled = await other(m.id);
    expect((await env.call("POST", `/api/clubs/${env.clubId}/invoices/${cancelled.id}/actions/cancel`)).status).toBe(200);
    const open = await other(m.id);
    const unknownRf = invoiceReference(false, 2031, 999_999);
    const unknownQrr = qrReference("99990000000001");
    const csv = `date,amount,currency,reference\n${todayUtc()},50.00,CHF,${cancelled.reference}\n${todayUtc()},50.00,CHF,${unknownRf}\n${todayUtc()},50.00,CHF,${unknownQrr}\n${todayUtc()},50.00,EUR,${open.reference}\n`;
    const res = await importCsv(csv);
    expect(res.body.matched).toEqual([]);
    expect(res.body.unmatched.map((u: { reason: string }) => u.reason)).toEqual(["NOT_PAYABLE", "REFERENCE_UNKNOWN", "REFERENCE_UNKNOWN", "CURRENCY_DIFFERS"]);
    expect(res.body.unmatched[0].detail).toContain("cancelled");
    expect(await paymentsFor(cancelled.id)).toHaveLength(0);
    expect(await paymentsFor(open.id)).toHaveLength(0);
    expect(await rowOf(cancelled.id)).toMatchObject({ status: "cancelled", paid_cents: 0 });
  });

  it("another club's invoice reference is unknown here", async () => {
    const theirs = await env.otherClub();
    const stranger = await seedMember(env, {}, theirs.club_id);
    const made = await env.call("POST", `/api/clubs/${theirs.club_id}/invoices`, {
      key: theirs.api_key,
      // A year no invoice of ours is dated in: the same number here would be the same reference.
      body: { member_id: stranger.id, lines: [{ label: "x", amount_cents: 5000 }], issued_on: "2030-03-01" },
    });
    expect(made.status).toBe(201);
    const res = await importCsv(csvOf(["50.00", made.body.reference]));
    expect(res.body.unmatched.map((u: { reason: string }) => u.reason)).toEqual(["REFERENCE_UNKNOWN"]);
    expect(await rowOf(made.body.id)).toMatchObject({ status: "open", paid_cents: 0 });
  });
});

describe("camt.054: a bank's notification of QR-bill payments", () => {
  it("pays invoices by QRR (Prtry) and SCOR (Cd) references, lists the others, and records nothing twice", async () => {
    const m = await seedMember(env);
    // An RF invoice made while the club's IBAN was a plain one, then QRR invoices on its QR-IBAN.
    const scor = await other(m.id, 2500);
    await setIban(QR_IBAN);
    try {
      const full = await other(m.id, 5000);
      const part = await other(m.id, 9000);
      const cancelled = await other(m.id, 1000);
      await env.call("POST", `/api/clubs/${env.clubId}/invoices/${cancelled.id}/actions/cancel`);
      const xml = camt054([
        { amount: "50.00", reference: spaced(full.reference), kind: "QRR", debtor: "Ada Muster" },
        { amount: "40.00", reference: part.reference, kind: "QRR" },
        { amount: "25.00", reference: spaced(scor.reference), kind: "SCOR" },
        { amount: "10.00", reference: cancelled.reference, kind: "QRR" },
        { amount: "12.00", reference: qrReference("77770000000001"), kind: "QRR" },
      ]);
      const send = (qs = "") =>
        env.call("POST", `/api/clubs/${env.clubId}/payments/import${qs}`, { rawBody: xml, headers: { "content-type": "application/xml" } });
      const dry = await send("?dry_run=true");
      expect(dry.status).toBe(200);
      expect(dry.body.format).toBe("camt.054");
      expect(await paymentsFor(full.id)).toHaveLength(0);
      const res = await send();
      expect(res.body.format).toBe("camt.054");
      expect(
        res.body.matched.map((x: { invoice_id: string; invoice_status: string; amount_cents: number }) => [x.invoice_id, x.invoice_status, x.amount_cents]),
      ).toEqual([
        [full.id, "paid", 5000],
        [part.id, "open", 4000],
        [scor.id, "paid", 2500],
      ]);
      expect(res.body.matched[0]).toMatchObject({ date: "2026-11-03", currency: "CHF", counterparty: "Ada Muster", reference: full.reference });
      // Each transaction is listed at the line its TxDtls opens on.
      const lines = [...res.body.matched, ...res.body.unmatched].map((x: { line: number }) => x.line);
      expect(new Set(lines).size).toBe(5);
      expect(res.body.unmatched.map((u: { reason: string }) => u.reason)).toEqual(["NOT_PAYABLE", "REFERENCE_UNKNOWN"]);
      expect(await rowOf(full.id)).toMatchObject({ status: "paid", paid_cents: 5000 });
      expect(await rowOf(part.id)).toMatchObject({ status: "open", paid_cents: 4000 });
      expect(await rowOf(scor.id)).toMatchObject({ status: "paid", paid_cents: 2500 });
      expect(await rowOf(cancelled.id)).toMatchObject({ status: "cancelled", paid_cents: 0 });
      const again = await send();
      expect(again.body.matched).toEqual([]);
      expect((await paymentsFor(part.id)).map((p) => [p.amount_cents, p.paid_at.slice(0, 10)])).toEqual([[4000, "2026-11-03"]]);
    } finally {
      await setIban(PLAIN_IBAN);
    }
  });

  it("a notification that is no camt document is a 422 naming the body", async () => {
    const bad = await env.call("POST", `/api/clubs/${env.clubId}/payments/import`, {
      rawBody: `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctnX/></Document>`,
      headers: { "content-type": "application/xml" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ["body"], type: "statement_unreadable" });
  });
});

describe("three imports of the same statement at once", () => {
  it("record each line once: the invoice's paid_cents is the file's sum, the membership renewed once", async () => {
    const m = await seedMember(env, { tier_id: tier, membership_end: addDays(todayUtc(), 10) });
    const inv = await invoiceOf({ member_id: m.id, tier_id: tier });
    const part = await other(m.id, 6000);
    // Two parts of the membership invoice (the second completes it) and two of the other.
    const csv = csvOf(["50.00", inv.reference], ["30.00", inv.reference], ["10.00", part.reference], ["10.00", part.reference]);
    const answers = await Promise.all([importCsv(csv), importCsv(csv), importCsv(csv)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(answers.flatMap((r) => r.body.matched)).toHaveLength(4);
    expect(await rowOf(inv.id)).toMatchObject({ status: "paid", paid_cents: 8000 });
    expect(await rowOf(part.id)).toMatchObject({ status: "open", paid_cents: 2000 });
    expect((await paymentsFor(inv.id)).map((p) => p.amount_cents).sort()).toEqual([3000, 5000]);
    expect(await paymentsFor(part.id)).toHaveLength(2);
    expect((await historyOf(env, m.id)).filter((h) => h.action === "mark_paid")).toHaveLength(1);
  });
});

describe("invoice.paid", () => {
  it("fires once, when the invoice becomes paid (not for a part), by a statement line or by mark-paid", async () => {
    const m = await seedMember(env, { tier_id: tier });
    const inv = await other(m.id, 5000);
    const membership = await invoiceOf({ member_id: m.id, tier_id: tier });
    await withEndpoint(env, ["invoice.paid"], async (sent) => {
      await importCsv(csvOf(["20.00", inv.reference]));
      expect(await sent()).toHaveLength(0);
      await importCsv(`date,amount,currency,reference\n${todayUtc()},30.00,CHF,${inv.reference}\n`);
      const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/mark-paid`, { body: { amount_cents: 8000 } });
      expect(res.status).toBe(200);
      const events = (await sent()).map((d) => [d.type, JSON.parse(d.payload).data.number, JSON.parse(d.payload).data.status]);
      expect(events).toEqual([
        ["invoice.paid", inv.number, "paid"],
        ["invoice.paid", membership.number, "paid"],
      ]);
    });
  });
});

describe("mark-paid settles the member's oldest open membership invoice", () => {
  it("with that payment's amount, renewing once; a later one stays open; none: mark-paid as before", async () => {
    const m = await seedMember(env, { tier_id: tier, membership_end: addDays(todayUtc(), 30) });
    const older = await invoiceOf({ member_id: m.id, tier_id: tier, issued_on: addDays(todayUtc(), -40) });
    const newer = await invoiceOf({ member_id: m.id, tier_id: tier });
    const notMembership = await other(m.id);
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/mark-paid`, { body: { amount_cents: 7000 } });
    expect(res.status).toBe(200);
    expect(await rowOf(older.id)).toMatchObject({ status: "paid", paid_cents: 7000 });
    expect(await rowOf(newer.id)).toMatchObject({ status: "open", paid_cents: 0 });
    expect(await rowOf(notMembership.id)).toMatchObject({ status: "open", paid_cents: 0 });
    const mine = await env.db.read.select().from(payments).where(eq(payments.member_id, m.id));
    expect(mine.map((p) => [p.amount_cents, p.invoice_id])).toEqual([[7000, older.id]]);
    expect((await historyOf(env, m.id)).filter((h) => h.action === "mark_paid")).toHaveLength(1);
    const alone = await seedMember(env, { tier_id: tier });
    expect((await env.call("POST", `/api/clubs/${env.clubId}/members/${alone.id}/actions/mark-paid`, { body: { amount_cents: 8000 } })).status).toBe(200);
    const hers = await env.db.read.select().from(payments).where(eq(payments.member_id, alone.id));
    expect(hers.map((p) => p.invoice_id)).toEqual([null]);
  });
});

describe("a registration's invoice (kind event)", () => {
  /** A member's pending registration at 30.00 (CHF), and its invoice. */
  async function pendingTicket(title: string) {
    const m = await seedMember(env);
    const event = await createEventVia(env, { title, currency: "CHF", tickets: [{ name: "Entry", member_price_cents: 3000, non_member_price_cents: 3000 }] });
    const reg = await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/registrations`, {
      body: { ticket_id: event.tickets[0].id, member_id: m.id, first_name: "Luca", last_name: "Bernasconi" },
    });
    expect(reg.body).toMatchObject({ status: "pending", amount_cents: 3000 });
    return { m, event, reg: reg.body as { id: string } };
  }
  const regRow = async (id: string) => (await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.id, id)))[0];

  it("is made from the registration (its price under the event's title); paid in full by a statement line, it confirms the registration once", async () => {
    const { m, event, reg } = await pendingTicket("Summer party");
    const res = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: m.id, registration_id: reg.id } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: "event",
      registration_id: reg.id,
      amount_cents: 3000,
      currency: "CHF",
      lines: [{ label: "Summer party", amount_cents: 3000 }],
    });
    const inv = res.body as { id: string; reference: string; number: string };
    await withEndpoint(env, ["registration.confirmed", "invoice.paid"], async (sent) => {
      // A part: the invoice open, the registration still pending, the payment is the registration's.
      const part = await importCsv(csvOf(["10.00", inv.reference]));
      expect(part.body.matched[0]).toMatchObject({ invoice_id: inv.id, invoice_status: "open", invoice_paid_cents: 1000 });
      expect((await regRow(reg.id)).status).toBe("pending");
      const rest = await importCsv(`date,amount,currency,reference\n${todayUtc()},20.00,CHF,${inv.reference}\n`);
      expect(rest.body.matched[0]).toMatchObject({ invoice_id: inv.id, invoice_status: "paid", invoice_paid_cents: 3000 });
      expect((await regRow(reg.id)).status).toBe("confirmed");
      expect(await rowOf(inv.id)).toMatchObject({ status: "paid", paid_cents: 3000 });
      const rows = await paymentsFor(inv.id);
      expect(rows.map((p) => [p.amount_cents, p.kind, p.registration_id]).sort()).toEqual([
        [1000, "event", reg.id],
        [2000, "event", reg.id],
      ]);
      // The same file again, and another line on the paid invoice: nothing more.
      await importCsv(`date,amount,currency,reference\n${todayUtc()},20.00,CHF,${inv.reference}\n`);
      const late = await importCsv(`date,amount,currency,reference\n${addDays(todayUtc(), -5)},30.00,CHF,${inv.reference}\n`);
      expect(late.body.unmatched[0].reason).toBe("ALREADY_PAID");
      expect(await paymentsFor(inv.id)).toHaveLength(2);
      const types = (await sent()).map((d) => [d.type, JSON.parse(d.payload).data.status]);
      expect(types.sort()).toEqual([
        ["invoice.paid", "paid"],
        ["registration.confirmed", "confirmed"],
      ]);
    });
    expect(event.id).toBeTruthy();
  });

  it("confirming the registration by hand settles its open invoice with that payment", async () => {
    const { m, event, reg } = await pendingTicket("Autumn walk");
    const inv = (await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: m.id, registration_id: reg.id } })).body;
    const res = await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/registrations/${reg.id}/actions/confirm`, { body: {} });
    expect(res.status).toBe(200);
    expect(await rowOf(inv.id)).toMatchObject({ status: "paid", paid_cents: 3000 });
    expect((await paymentsFor(inv.id)).map((p) => [p.amount_cents, p.registration_id])).toEqual([[3000, reg.id]]);
  });

  it("a cancellation's refund lowers the invoice it paid: open again, then it may be cancelled", async () => {
    const { m, event, reg } = await pendingTicket("Spring fair");
    const inv = (await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: m.id, registration_id: reg.id } })).body;
    await importCsv(`date,amount,currency,reference\n${todayUtc()},30.00,CHF,${inv.reference}\n`);
    expect(await rowOf(inv.id)).toMatchObject({ status: "paid", paid_cents: 3000 });
    expect((await env.call("POST", `/api/clubs/${env.clubId}/invoices/${inv.id}/actions/cancel`)).status).toBe(409);
    const path = `/api/clubs/${env.clubId}/events/${event.id}/registrations/${reg.id}/actions/cancel`;
    expect((await env.call("POST", path, { body: { refund_cents: 1000 } })).status).toBe(200);
    expect((await env.call("POST", path, { body: { refund_cents: 1000 } })).status).toBe(409);
    expect(await rowOf(inv.id)).toMatchObject({ status: "open", paid_cents: 2000 });
    expect((await paymentsFor(inv.id)).map((p) => p.amount_cents).sort()).toEqual([-1000, 3000]);
    expect((await env.call("POST", `/api/clubs/${env.clubId}/invoices/${inv.id}/actions/cancel`)).status).toBe(409);
  });

  it("a registration cancelled, or its event, cancels its unpaid invoice (invoice.cancelled); a late transfer is NOT_PAYABLE, nothing recorded", async () => {
    const one = await pendingTicket("Winter dinner");
    const two = await pendingTicket("Night race");
    const invoiceFor = async (t: { m: { id: string }; reg: { id: string } }) =>
      (await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: t.m.id, registration_id: t.reg.id } })).body as {
        id: string;
        reference: string;
      };
    const first = await invoiceFor(one);
    const second = await invoiceFor(two);
    await withEndpoint(env, ["invoice.cancelled"], async (sent) => {
      const cancel = `/api/clubs/${env.clubId}/events/${one.event.id}/registrations/${one.reg.id}/actions/cancel`;
      expect((await env.call("POST", cancel, { body: {} })).status).toBe(200);
      expect(await rowOf(first.id)).toMatchObject({ status: "cancelled", paid_cents: 0 });
      const off = await env.call("PATCH", `/api/clubs/${env.clubId}/events/${two.event.id}`, { body: { status: "cancelled" } });
      expect(off.status).toBe(200);
      expect(await rowOf(second.id)).toMatchObject({ status: "cancelled" });
      expect((await sent()).map((d) => [d.type, JSON.parse(d.payload).data.id]).sort()).toEqual(
        [
          ["invoice.cancelled", first.id],
          ["invoice.cancelled", second.id],
        ].sort(),
      );
    });
    const late = await importCsv(`date,amount,currency,reference\n${todayUtc()},30.00,CHF,${first.reference}\n`);
    expect(late.body.unmatched[0]).toMatchObject({ reason: "NOT_PAYABLE" });
    expect(await paymentsFor(first.id)).toHaveLength(0);
    expect((await regRow(one.reg.id)).status).toBe("cancelled");
  });

  it("refuses another member's registration, a confirmed one, and a tier or another kind beside it (422 naming the field)", async () => {
    const { m, reg } = await pendingTicket("Winter gala");
    const stranger = await seedMember(env);
    const foreign = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: stranger.id, registration_id: reg.id } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.code).toBe("REGISTRATION_NOT_FOUND");
    expect(foreign.body.detail[0].loc).toEqual(["body", "registration_id"]);
    const kind = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: m.id, registration_id: reg.id, kind: "other" } });
    expect(kind.status).toBe(422);
    expect(kind.body.detail.map((d: { loc: string[] }) => d.loc.join("."))).toEqual(["body.kind"]);
    await env.db.tx((t) => t.update(eventRegistrations).set({ status: "confirmed" }).where(eq(eventRegistrations.id, reg.id)));
    const done = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: m.id, registration_id: reg.id } });
    expect(done.status).toBe(422);
    expect(done.body.detail[0]).toMatchObject({ loc: ["body", "registration_id"], type: "registration_not_pending" });
    expect(await env.db.read.select().from(invoices).where(eq(invoices.registration_id, reg.id))).toHaveLength(0);
  });
});
