// A member who renews by bank transfer from their own page gets the details on screen and in a
// mail (DESIGN.md section 13: "in the answer and in a mail"), in their club's language, read here
// as a real SMTP server receives it; asking again the same day (a reload of the page) mails
// nothing more.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { clubs, remindersSent } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { JOB_KINDS } from "../../server/jobs";
import { setup, type TestEnv } from "../helpers";
import { pageTokenOf, seedMember } from "../members-fixtures";
import { header, startSmtp, type TestSmtp, textOf } from "../smtp";

let env: TestEnv;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  env = await setup({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});
beforeEach(async () => {
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
  smtp.inbox.length = 0;
});

const setClub = (set: Record<string, unknown>) => env.db.tx((t) => t.update(clubs).set(set).where(eq(clubs.id, env.clubId)));

async function deliver() {
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
  return smtp.inbox;
}

let ip = 0;
async function renew(token: string, path = `/api/public/manage/${token}/renew`, method = "POST") {
  const init: RequestInit = { method, headers: { "content-type": "application/json" } };
  if (method === "POST") init.body = JSON.stringify({ payment_method: "bank_transfer" });
  const res = await env.app.handle(new Request(`http://localhost${path}`, init), `10.7.0.${++ip}`);
  const text = await res.text();
  return { status: res.status, body: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
}

describe("renewing by bank transfer from the member's page", () => {
  it("mails nothing for a GET of the page (a preview, a prefetch, a reload): its form's POST mails, once", async () => {
    await setClub({
      locale: "en",
      membership_fee_cents: 5000,
      payout_iban: "CH9300762011623852957",
      payout_bic: null,
      payout_beneficiary_name: "Club de test",
    });
    const m = await seedMember(env, { first_name: "Noah", email: "noah@test.org" });
    const token = pageTokenOf(m);
    for (let i = 0; i < 3; i++) {
      const page = await renew(token, `/m/${token}?renew=bank_transfer`, "GET");
      expect(page.status).toBe(200);
      expect(page.body).toContain("CH9300762011623852957");
    }
    expect(await deliver()).toHaveLength(0);
    const marks = () =>
      env.db.read
        .select()
        .from(remindersSent)
        .where(and(eq(remindersSent.subject_id, m.id), eq(remindersSent.kind, "renewal_transfer")));
    expect(await marks()).toHaveLength(0);

    const form = () =>
      env.app.handle(
        new Request(`http://localhost/m/${token}/renew`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ payment_method: "bank_transfer" }),
        }),
        `10.7.1.${++ip}`,
      );
    expect((await form()).headers.get("location")).toBe(`http://localhost/m/${token}?renew=bank_transfer#renew`);
    expect((await form()).status).toBe(302);
    const inbox = await deliver();
    expect(inbox).toHaveLength(1);
    expect(inbox[0].to).toEqual(["noah@test.org"]);
    expect(textOf(inbox[0].raw)).toContain("IBAN: CH9300762011623852957");
    expect(await marks()).toHaveLength(1);
  });

  it("mails the transfer details the answer shows, in the club's language, with the way back to the page", async () => {
    await setClub({
      locale: "de",
      membership_fee_cents: 5000,
      payout_iban: "CH9300762011623852957",
      payout_bic: "POFICHBEXXX",
      payout_beneficiary_name: "Club de test",
    });
    const m = await seedMember(env, { first_name: "Jonas", email: "jonas@test.org" });
    const res = await renew(pageTokenOf(m));
    expect(res.status).toBe(200);
    const transfer = res.body.bank_transfer;
    expect(transfer).toMatchObject({ iban: "CH9300762011623852957", amount_cents: 5000, currency: "CHF" });

    const inbox = await deliver();
    expect(inbox).toHaveLength(1);
    expect(inbox[0].to).toEqual(["jonas@test.org"]);
    expect(header(inbox[0].raw, "Subject")).toBe("Die Verlängerung Ihrer Mitgliedschaft bei Club de test");
    const text = textOf(inbox[0].raw);
    expect(text).toContain("Hallo Jonas,");
    // German writes the amount as 50,00 CHF (a no-break space before the currency).
    expect(text).toMatch(/sobald Ihre Überweisung von 50,00\sCHF eingegangen ist/);
    expect(text).toContain("Empfänger: Club de test");
    expect(text).toContain("IBAN: CH9300762011623852957");
    expect(text).toContain("BIC: POFICHBEXXX");
    expect(text).toContain(`Referenz: ${transfer.reference}`);
    expect(text).toContain(`http://localhost/m/${pageTokenOf(m)}`);
  });

  it("mails once a day for one amount: asking again, or the page showing the details again, sends nothing more", async () => {
    await setClub({
      locale: "fr",
      membership_fee_cents: 5000,
      payout_iban: "CH9300762011623852957",
      payout_bic: null,
      payout_beneficiary_name: "Club de test",
    });
    const m = await seedMember(env, { first_name: "Léa", email: "lea@test.org" });
    const token = pageTokenOf(m);
    expect((await renew(token)).status).toBe(200);
    expect((await renew(token)).status).toBe(200);
    const page = await renew(token, `/m/${token}?renew=bank_transfer`, "GET");
    expect(page.status).toBe(200);
    expect(page.body).toContain("CH9300762011623852957");
    const inbox = await deliver();
    expect(inbox).toHaveLength(1);
    expect(header(inbox[0].raw, "Subject")).toBe("Le renouvellement de votre adhésion à Club de test");
    // No BIC given: no BIC line (a line, not the letters: the page's random token may hold them).
    expect(textOf(inbox[0].raw)).not.toMatch(/^BIC\b/m);
    const marks = await env.db.read
      .select()
      .from(remindersSent)
      .where(and(eq(remindersSent.subject_id, m.id), eq(remindersSent.kind, "renewal_transfer")));
    expect(marks).toHaveLength(1);

    // Another amount (the fee changed) is another mail.
    await setClub({ membership_fee_cents: 6000 });
    expect((await renew(token)).body.amount_cents).toBe(6000);
    expect(await deliver()).toHaveLength(2);
  });
});
