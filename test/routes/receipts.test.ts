// Every payment recorded mails the payer a receipt, a refund a refund note (DESIGN.md section
// 13), in the club's language, received by a real SMTP server; and the stats count what came in
// through those same paths, with the club's commission and a provider's fee (section 10).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, payments } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { recordPayment } from "../../lib/payments/record";
import { creditorReference, registrationReference } from "../../lib/payments/reference";
import { JOB_KINDS } from "../../server/jobs";
import { createEventVia } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { seedMember, todayUtc } from "../members-fixtures";
import { header, startSmtp, type TestSmtp, textOf } from "../smtp";

let env: TestEnv;
let smtp: TestSmtp;
let tier: string;
beforeAll(async () => {
  smtp = await startSmtp();
  env = await setup({ SMTP_URL: smtp.url });
  tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adulte", price_cents: 5000, currency: "CHF", duration_months: 12 } })).body
    .id;
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});

const setClub = (set: Record<string, unknown>) => env.db.tx((t) => t.update(clubs).set(set).where(eq(clubs.id, env.clubId)));
async function delivered(to: string) {
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
  return smtp.inbox.filter((m) => m.to.includes(to)).map((m) => ({ subject: header(m.raw, "subject"), text: textOf(m.raw) }));
}

/** A pending registration for a 15.00 ticket, added by the admin. */
async function pendingRegistration(email: string) {
  const event = await createEventVia(env, { title: "Soirée jeux", tickets: [{ name: "Invité", member_price_cents: 1500, non_member_price_cents: 1500 }] });
  const reg = await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/registrations`, {
    body: { ticket_id: event.tickets[0].id, first_name: "Grace", last_name: "Hopper", email, status: "pending" },
  });
  expect(reg.status).toBe(201);
  return { event, reg: reg.body };
}

describe("receipts", () => {
  it("mark-paid mails a receipt in the club's language (French): amount, date, what it paid for, reference", async () => {
    await setClub({ locale: "fr" });
    const m = await seedMember(env, { first_name: "Léa", email: "lea.receipt@test.org", tier_id: tier, payment_status: "pending", referral_code: "RCPTFR34" });
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/mark-paid`, { body: { amount_cents: 5000 } });
    expect(res.status).toBe(200);
    const [mail] = await delivered("lea.receipt@test.org");
    expect(mail.subject).toBe("Reçu de votre paiement à Club de test");
    expect(mail.text).toContain("Bonjour Léa,");
    expect(mail.text).toMatch(/Montant : 50,00\s?CHF/);
    expect(mail.text).toContain(`Pour : adhésion Adulte jusqu'au`);
    expect(mail.text).toContain(`Référence : ${creditorReference("RCPTFR34")}`);
    expect(mail.text).toContain(`Date : ${new Intl.DateTimeFormat("fr", { dateStyle: "long", timeZone: "UTC" }).format(new Date())}`);
  });

  it("confirm with a payment mails a receipt, a refund mails a refund note: in German when the club speaks German", async () => {
    await setClub({ locale: "de" });
    const { event, reg } = await pendingRegistration("grace.receipt@test.org");
    const base = `/api/clubs/${env.clubId}/events/${event.id}/registrations/${reg.id}/actions`;
    expect((await env.call("POST", `${base}/confirm`, { body: {} })).status).toBe(200);
    const [receipt] = await delivered("grace.receipt@test.org");
    expect(receipt.subject).toBe("Quittung für Ihre Zahlung an Club de test");
    expect(receipt.text).toContain("Hallo Grace,");
    expect(receipt.text).toMatch(/Betrag: (CHF 15\.00|15,00\s?CHF)/);
    expect(receipt.text).toContain("Für: Soirée jeux, Ticket Invité");
    expect(receipt.text).toContain(`Referenz: ${registrationReference(reg.id)}`);
    expect((await env.call("POST", `${base}/cancel`, { body: { refund_cents: 1000 } })).status).toBe(200);
    const mails = await delivered("grace.receipt@test.org");
    expect(mails).toHaveLength(2);
    expect(mails[1].subject).toBe("Rückerstattung von Club de test");
    expect(mails[1].text).toMatch(/Betrag: (CHF 10\.00|10,00\s?CHF)/);
  });

  it("a payment recorded without an address to write to (an attendee added without email) mails nothing and is still stored", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "Guest", non_member_price_cents: 700 }] });
    const reg = (
      await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/registrations`, {
        body: { ticket_id: event.tickets[0].id, first_name: "No", last_name: "Mail" },
      })
    ).body;
    const before = smtp.inbox.length;
    expect((await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/registrations/${reg.id}/actions/confirm`, { body: {} })).status).toBe(200);
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
    expect(smtp.inbox.length).toBe(before);
    expect(await env.db.read.select().from(payments).where(eq(payments.registration_id, reg.id))).toHaveLength(1);
  });
});

describe("stats count what came in, through the paths that record it", () => {
  it("gross, provider fees, commission and net from mark-paid, confirm, a refund, a provider's payment and a statement line", async () => {
    const e = await setup();
    try {
      await e.db.tx((t) => t.update(clubs).set({ commission_rate_percent: 2, currency: "CHF" }).where(eq(clubs.id, e.clubId)));
      const m = await seedMember(e, { payment_status: "pending", referral_code: "STATSAA3", amount_due_cents: 6000 });
      const paid = await seedMember(e);
      expect((await e.call("POST", `/api/clubs/${e.clubId}/members/${paid.id}/actions/mark-paid`, { body: { amount_cents: 5000 } })).status).toBe(200);
      const event = await createEventVia(e, { tickets: [{ name: "Guest", non_member_price_cents: 2000 }] });
      const reg = (
        await e.call("POST", `/api/clubs/${e.clubId}/events/${event.id}/registrations`, {
          body: { ticket_id: event.tickets[0].id, first_name: "A", last_name: "B" },
        })
      ).body;
      const actions = `/api/clubs/${e.clubId}/events/${event.id}/registrations/${reg.id}/actions`;
      expect((await e.call("POST", `${actions}/confirm`, { body: {} })).status).toBe(200);
      expect((await e.call("POST", `${actions}/cancel`, { body: { refund_cents: 500 } })).status).toBe(200);
      // What a payment provider's webhook records (issue 13, Stripe): the same path, with its fee.
      await e.db.tx((t) =>
        recordPayment(
          t,
          { db: e.db, baseUrl: e.config.baseUrl },
          {
            clubId: e.clubId,
            kind: "membership",
            memberId: paid.id,
            amount: 10000,
            currency: "CHF",
            method: "card",
            source: "provider",
            provider_fee_cents: 320,
          },
        ),
      );
      const line = `date,amount,currency,reference\n${todayUtc()},60.00,CHF,${creditorReference("STATSAA3")}\n`;
      const imported = await e.call("POST", `/api/clubs/${e.clubId}/payments/import`, { rawBody: line, headers: { "content-type": "text/csv" } });
      expect(imported.body.matched.map((x: { member_id: string }) => x.member_id)).toEqual([m.id]);

      const stats = await e.call("GET", `/api/clubs/${e.clubId}/stats`);
      // 5000 + 2000 - 500 + 10000 + 6000; commission 2 % of each (the refund's given back); the provider's fee.
      const expected = {
        gross_cents: 22500,
        provider_fees_cents: 320,
        platform_commission_cents: 100 + 40 - 10 + 200 + 120,
        net_cents: 22500 - 320 - 450,
        memberships_cents: 21000,
        events_cents: 1500,
      };
      expect(stats.body.revenue.this_month).toEqual(expected);
      expect(stats.body.revenue.all_time).toEqual(expected);
    } finally {
      await e.close();
    }
  });
});
