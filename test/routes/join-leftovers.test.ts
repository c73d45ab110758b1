// What joining online leaves for later (DESIGN.md section 13): the members list filter
// `application_status`, and the referral credit taken off the member's next renewal (the
// member's page quotes it, mark-paid spends it in the payment's transaction, never below 0).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { addDays, historyOf, memberRow, pageTokenOf, seedMember, todayUtc } from "../members-fixtures";

let env: TestEnv;
let tier: string;
beforeAll(async () => {
  env = await setup();
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({ payout_iban: "CH9300762011623852957", payout_beneficiary_name: "Club de test", payment_methods_enabled: ["bank_transfer"] })
      .where(eq(clubs.id, env.clubId)),
  );
  tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adult", price_cents: 5000, currency: "CHF", duration_months: 12 } })).body
    .id;
});
afterAll(() => env.close());

const renewQuote = async (token: string) =>
  (
    await env.app.handle(
      new Request(`http://localhost/api/public/manage/${token}/renew`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ payment_method: "bank_transfer" }),
      }),
      `10.7.0.${Math.floor(Math.random() * 250)}`,
    )
  ).json() as Promise<{ amount_cents: number; bank_transfer: { amount_cents: number } }>;
const markPaid = (id: string, amount: number) =>
  env.call("POST", `/api/clubs/${env.clubId}/members/${id}/actions/mark-paid`, { body: { amount_cents: amount } });

describe("members list: application_status", () => {
  it("application_status=pending_approval lists only the applicants awaiting a decision, with their total", async () => {
    const applicants = [
      await seedMember(env, { payment_status: "pending", application_status: "pending_approval" }),
      await seedMember(env, { payment_status: "pending", application_status: "pending_approval" }),
    ];
    await seedMember(env, { payment_status: "pending" });
    const res = await env.call("GET", `/api/clubs/${env.clubId}/members?application_status=pending_approval`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.items.map((m: { id: string }) => m.id).sort()).toEqual(applicants.map((a) => a.id).sort());
    // Approved: off the list.
    expect((await env.call("POST", `/api/clubs/${env.clubId}/members/${applicants[0].id}/actions/approve`)).status).toBe(200);
    const after = await env.call("GET", `/api/clubs/${env.clubId}/members?application_status=pending_approval&status=pending`);
    expect(after.body.items.map((m: { id: string }) => m.id)).toEqual([applicants[1].id]);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/members?application_status=approved`)).status).toBe(422);
  });
});

describe("the referral credit off the next renewal", () => {
  it("the member's page quotes the tier's price less the credit; mark-paid spends what the payment left uncovered", async () => {
    const m = await seedMember(env, { tier_id: tier, referral_credit_cents: 1200 });
    const quote = await renewQuote(pageTokenOf(m));
    expect([quote.amount_cents, quote.bank_transfer.amount_cents]).toEqual([3800, 3800]);
    expect((await markPaid(m.id, 3800)).status).toBe(200);
    expect((await memberRow(env, m.id)).referral_credit_cents).toBe(0);
    expect((await historyOf(env, m.id)).find((h) => h.action === "mark_paid")?.details).toMatchObject({ referral_credit_spent_cents: 1200 });
    expect((await renewQuote(pageTokenOf(m))).amount_cents).toBe(5000);
  });

  it("never below 0: a credit above the price makes the renewal free and keeps the rest; a full payment keeps the credit", async () => {
    const rich = await seedMember(env, { tier_id: tier, referral_credit_cents: 8000 });
    expect((await markPaid(rich.id, 0)).status).toBe(200);
    expect((await memberRow(env, rich.id)).referral_credit_cents).toBe(3000);
    // Renewing from the page, once due, with nothing to pay: renewed at once, the credit spent again.
    const due = await seedMember(env, { tier_id: tier, referral_credit_cents: 8000, membership_end: addDays(todayUtc(), 3) });
    expect(await renewQuote(pageTokenOf(due))).toMatchObject({ amount_cents: 0, renewed: true, bank_transfer: null });
    expect((await memberRow(env, due.id)).referral_credit_cents).toBe(3000);
    const payer = await seedMember(env, { tier_id: tier, referral_credit_cents: 1000 });
    expect((await markPaid(payer.id, 5000)).status).toBe(200);
    expect((await memberRow(env, payer.id)).referral_credit_cents).toBe(1000);
  });

  it("the first payment after joining is what was owed: the credit is not spent on it", async () => {
    const joiner = await seedMember(env, { tier_id: tier, payment_status: "pending", amount_due_cents: 4500, referral_credit_cents: 500 });
    expect((await renewQuote(pageTokenOf(joiner))).amount_cents).toBe(4500);
    expect((await markPaid(joiner.id, 4500)).status).toBe(200);
    expect(await memberRow(env, joiner.id)).toMatchObject({ referral_credit_cents: 500, amount_due_cents: null });
  });
});
