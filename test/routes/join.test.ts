// Joining a club online (issue 13, first slice: bank transfer): the public club page, the join
// per membership mode and price rule, the existing member who tries again, the form's proof of
// work, and the admin's decision on an application; mails received by a real SMTP server, what
// is stored read back from the database.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { clubs, memberHistory, members, promoCodes } from "../../db/schema";
import { solveChallenge } from "../../lib/forms";
import { runDueJobs } from "../../lib/jobs";
import { sha256Hex } from "../../lib/ids";
import { isCreditorReference } from "../../lib/payments/reference";
import { JOB_KINDS } from "../../server/jobs";
import { setup, type TestEnv } from "../helpers";
import { memberRow, pageTokenOf, seedMember, setCustomFields, withEndpoint } from "../members-fixtures";
import { header, startSmtp, type TestSmtp, textOf } from "../smtp";

let env: TestEnv;
let smtp: TestSmtp;
let slug: string;
let paidTier: string;
let freeTier: string;
beforeAll(async () => {
  smtp = await startSmtp();
  env = await setup({ SMTP_URL: smtp.url });
  [{ slug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
  paidTier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adulte", price_cents: 5000, currency: "EUR", duration_months: 12 } }))
    .body.id;
  freeTier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Junior", price_cents: 0, currency: "EUR", duration_months: 12 } })).body
    .id;
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});
beforeEach(async () => {
  await setClub({
    membership_mode: "open",
    payout_iban: "CH9300762011623852957",
    payout_bic: "POFICHBEXXX",
    payout_beneficiary_name: "Club de test",
    locale: "fr",
  });
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
  smtp.inbox.length = 0;
});

const setClub = (set: Record<string, unknown>) => env.db.tx((t) => t.update(clubs).set(set).where(eq(clubs.id, env.clubId)));
async function deliver() {
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
  return smtp.inbox;
}
let ip = 0;
async function join(body: Record<string, unknown>, to = slug, address = `10.9.${(++ip >> 8) & 255}.${ip & 255}`) {
  const res = await env.app.handle(
    new Request(`http://localhost/api/public/clubs/${to}/join`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tier_id: paidTier, first_name: "Ana", last_name: "Silva", payment_method: "bank_transfer", ...body }),
    }),
    address,
  );
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as any, text };
}
const byEmail = async (email: string) =>
  (
    await env.db.read
      .select()
      .from(members)
      .where(and(eq(members.club_id, env.clubId), eq(members.email, email)))
  )[0];
let n = 0;
const email = () => `joiner${++n}@example.org`;

describe("GET /api/public/clubs/<slug>", () => {
  it("answers what a join page needs and nothing about members; 404 for an unknown slug", async () => {
    const m = await seedMember(env, { first_name: "Secret", email: "secret-member@example.org" });
    await setCustomFields(env, [{ key: "club_licence", label: "Licence", required: false }]);
    const res = await env.call("GET", `/api/public/clubs/${slug}`, { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug, name: "Club de test", membership_mode: "open", currency: expect.any(String), payment_methods: ["bank_transfer"] });
    expect(res.body.tiers.map((t: any) => [t.name, t.price_cents])).toEqual([
      ["Adulte", 5000],
      ["Junior", 0],
    ]);
    expect(res.body.custom_fields).toEqual([{ key: "club_licence", label: "Licence", required: false }]);
    for (const secret of ["secret-member@example.org", "Secret", m.referral_code, m.id, pageTokenOf(m), m.manage_token as string, "CH93"])
      expect(res.text).not.toContain(secret);
    await setCustomFields(env, []);
    expect((await env.call("GET", "/api/public/clubs/no-such-club", { key: null })).status).toBe(404);
  });

  it("offers no bank transfer without a payout IBAN, and never stripe for now", async () => {
    await setClub({ payout_iban: null, payment_methods_enabled: ["bank_transfer", "stripe"] });
    expect((await env.call("GET", `/api/public/clubs/${slug}`, { key: null })).body.payment_methods).toEqual([]);
    await setClub({ payment_methods_enabled: ["bank_transfer"] });
  });
});

describe("POST /api/public/clubs/<slug>/join", () => {
  it("open mode: a pending member, the bank transfer details answered and mailed in the club's language", async () => {
    const who = email();
    const res = await join({ email: who.toUpperCase() });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b).toMatchObject({ status: "pending", application_status: null, amount_cents: 5000, discount_cents: 0, currency: "EUR" });
    expect(b.bank_transfer).toMatchObject({
      beneficiary: "Club de test",
      iban: "CH9300762011623852957",
      bic: "POFICHBEXXX",
      amount_cents: 5000,
      currency: "EUR",
    });
    expect(isCreditorReference(b.bank_transfer.reference)).toBe(true);
    const row = await memberRow(env, b.member_id);
    expect(row).toMatchObject({ email: who, payment_status: "pending", tier_id: paidTier, is_manual: false, amount_due_cents: 5000, application_status: null });
    // The page's token is in the answer (and the mail); the row keeps its hash.
    const token = /^http:\/\/localhost\/m\/(\w{32})$/.exec(b.manage_url)?.[1] as string;
    expect(row.manage_token).toBe(sha256Hex(token));
    const mails = await deliver();
    expect(mails.map((m) => m.to[0])).toEqual([who]);
    expect(header(mails[0].raw, "subject")).toContain("paiement");
    const text = textOf(mails[0].raw);
    expect(text).toContain("CH9300762011623852957");
    expect(text).toContain(b.bank_transfer.reference);
    expect(text).toMatch(/50,00/);
    const admin = await env.call("GET", `/api/clubs/${env.clubId}/members/${b.member_id}`);
    expect(admin.body.status).toBe("pending");
  });

  it("a join is a member.created for the club's webhooks, written with the member (the item the admin sees)", async () => {
    await withEndpoint(env, ["member.created"], async (sent) => {
      const res = await join({ email: email() });
      expect(res.status).toBe(201);
      const delivered = await sent();
      expect(delivered.map((d) => d.type)).toEqual(["member.created"]);
      const admin = await env.call("GET", `/api/clubs/${env.clubId}/members/${res.body.member_id}`);
      expect(JSON.parse(delivered[0].payload).data).toEqual(admin.body);
    });
  });

  it("a free tier activates at once and sends a welcome, no payment details", async () => {
    const who = email();
    const res = await join({ email: who, tier_id: freeTier });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "active", amount_cents: 0, bank_transfer: null });
    expect((await memberRow(env, res.body.member_id)).payment_status).toBe("paid");
    const mails = await deliver();
    expect(header(mails[0].raw, "subject")).toContain("Bienvenue");
  });

  it("a membership promo code takes its discount and counts a use; an event code or another tier's is refused", async () => {
    const promo = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: { code: "WELCOME20", discount_type: "percent", discount_value: 20, applies_to_tier_ids: [paidTier], max_uses: 1 },
    });
    expect(promo.status).toBe(201);
    const res = await join({ email: email(), promo_code: "welcome20" });
    expect(res.body).toMatchObject({ amount_cents: 4000, discount_cents: 1000 });
    expect(res.body.bank_transfer.amount_cents).toBe(4000);
    const usedCount = async () => (await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, promo.body.id)))[0].used_count;
    // Counted once paid (DESIGN.md section 13): a joiner who never pays keeps no use.
    expect(await usedCount()).toBe(0);
    const other = await join({ email: email(), promo_code: "WELCOME20" });
    expect(other.status).toBe(201);
    const paid = await env.call("POST", `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/mark-paid`, { body: { amount_cents: 4000 } });
    expect(paid.status).toBe(200);
    expect(await usedCount()).toBe(1);
    // A renewal counts nothing more; the other joiner, promised the price, still counts when paying.
    await env.call("POST", `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/mark-paid`, { body: { amount_cents: 5000 } });
    expect(await usedCount()).toBe(1);
    const again = await join({ email: email(), promo_code: "WELCOME20" });
    expect([again.status, again.body.code]).toEqual([409, "PROMO_CODE_EXHAUSTED"]);
    await env.call("POST", `/api/clubs/${env.clubId}/members/${other.body.member_id}/actions/mark-paid`, { body: { amount_cents: 4000 } });
    expect(await usedCount()).toBe(2);
    await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: { code: "JUNIORONLY", discount_type: "amount", discount_value: 100, applies_to_tier_ids: [freeTier] },
    });
    expect((await join({ email: email(), promo_code: "JUNIORONLY" })).body.code).toBe("PROMO_CODE_NOT_APPLICABLE");
    const refused = email();
    expect((await join({ email: refused, promo_code: "NOPE1234" })).body.code).toBe("PROMO_CODE_UNKNOWN");
    expect(await byEmail(refused)).toBeUndefined();
  });

  it("a referral takes the club's reward percent off and names the referrer, who is credited once the newcomer pays; an unknown code is a 422", async () => {
    await setClub({ member_referral_enabled: true, member_referral_reward_percent: 10 });
    const referrer = await seedMember(env);
    const res = await join({ email: email(), referral_code: referrer.referral_code.toLowerCase() });
    expect(res.body).toMatchObject({ amount_cents: 4500, discount_cents: 500 });
    expect(await memberRow(env, res.body.member_id)).toMatchObject({ referred_by_member_id: referrer.id, acquisition_source: "referral" });
    // Once the newcomer pays, the referrer is credited the same amount; a renewal credits nothing more.
    expect(await memberRow(env, referrer.id)).toMatchObject({ referral_count: 0, referral_credit_cents: 0 });
    const paid = `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/mark-paid`;
    expect((await env.call("POST", paid, { body: { amount_cents: 4500 } })).status).toBe(200);
    expect(await memberRow(env, res.body.member_id)).toMatchObject({ payment_status: "paid", amount_due_cents: null });
    expect(await memberRow(env, referrer.id)).toMatchObject({ referral_count: 1, referral_credit_cents: 500 });
    await env.call("POST", paid, { body: { amount_cents: 5000 } });
    expect(await memberRow(env, referrer.id)).toMatchObject({ referral_count: 1, referral_credit_cents: 500 });
    // The referrer's credit is capped by member_referral_max_credits_cents.
    await setClub({ member_referral_max_credits_cents: 800 });
    const second = await join({ email: email(), referral_code: referrer.referral_code });
    await env.call("POST", `/api/clubs/${env.clubId}/members/${second.body.member_id}/actions/mark-paid`, { body: { amount_cents: 4500 } });
    expect(await memberRow(env, referrer.id)).toMatchObject({ referral_count: 2, referral_credit_cents: 800 });
    await setClub({ member_referral_max_credits_cents: null });
    const bad = await join({ email: email(), referral_code: "ZZZZZZZZ" });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("referral_code_unknown");
  });

  it("the referrer's credit is a member.updated of the referrer for the club's webhooks, with the new count and credit, and moves their updated_at", async () => {
    await setClub({ member_referral_enabled: true, member_referral_reward_percent: 10 });
    const referrer = await seedMember(env, { updated_at: "2025-01-01T00:00:00.000Z" });
    const res = await join({ email: email(), referral_code: referrer.referral_code });
    await withEndpoint(env, ["member.updated"], async (sent) => {
      const paid = await env.call("POST", `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/mark-paid`, { body: { amount_cents: 4500 } });
      expect(paid.status).toBe(200);
      const about = (await sent()).map((d) => JSON.parse(d.payload).data);
      expect(about.map((m) => m.id).sort()).toEqual([referrer.id, res.body.member_id].sort());
      expect(about.find((m) => m.id === referrer.id)).toMatchObject({ referral_count: 1, referral_credit_cents: 500 });
    });
    expect((await memberRow(env, referrer.id)).updated_at > "2025-01-01T00:00:00.000Z").toBe(true);
  });

  it("never below 0: promo and referral together on a cheap tier leave 0, and the member is active", async () => {
    await setClub({ member_referral_enabled: true, member_referral_reward_percent: 50 });
    const cheap = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Petit", price_cents: 1000, currency: "EUR" } })).body.id;
    await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, { body: { code: "MINUS800", discount_type: "amount", discount_value: 800 } });
    const referrer = await seedMember(env);
    const res = await join({ email: email(), tier_id: cheap, promo_code: "MINUS800", referral_code: referrer.referral_code });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount_cents: 0, discount_cents: 1000, status: "active", bank_transfer: null });
    await env.call("PATCH", `/api/clubs/${env.clubId}/tiers/${cheap}`, { body: { is_active: false } });
  });

  it("an address that is already a member's: 409 ALREADY_MEMBER, nobody created, the member mailed their page's link, no token in the answer", async () => {
    const m = await seedMember(env, { email: "known@example.org", first_name: "Kim" });
    const before = (await env.db.read.select().from(members)).length;
    const res = await join({ email: "Known@Example.org" });
    expect([res.status, res.body.code]).toEqual([409, "ALREADY_MEMBER"]);
    expect(res.body.detail).toContain("boîte mail");
    expect(res.text).not.toContain(pageTokenOf(m));
    expect(res.text).not.toContain("/m/");
    expect((await env.db.read.select().from(members)).length).toBe(before);
    const mails = await deliver();
    expect(mails.map((x) => x.to[0])).toEqual(["known@example.org"]);
    // Only a hash of the page's token is kept: the mail carries a new one, and the older link ends.
    const link = /http:\/\/localhost\/m\/(\w{32})/.exec(textOf(mails[0].raw))?.[1] as string;
    expect((await memberRow(env, m.id)).manage_token).toBe(sha256Hex(link));
    expect((await env.call("GET", `/api/public/manage/${link}`, { key: null })).status).toBe(200);
    expect((await env.call("GET", `/api/public/manage/${pageTokenOf(m)}`, { key: null })).status).toBe(404);
  });

  it("closed: 403 JOIN_CLOSED, nothing stored; unknown slug 404; unknown or inactive tier 422; stripe 409 PAYMENT_METHOD_UNAVAILABLE", async () => {
    await setClub({ membership_mode: "closed" });
    const who = email();
    const closed = await join({ email: who });
    expect([closed.status, closed.body.code]).toEqual([403, "JOIN_CLOSED"]);
    expect(await byEmail(who)).toBeUndefined();
    await setClub({ membership_mode: "open" });
    expect((await join({ email: who }, "no-such-club")).status).toBe(404);
    const unknownTier = await join({ email: who, tier_id: crypto.randomUUID() });
    expect(unknownTier.status).toBe(422);
    expect(unknownTier.text).toContain("tier_not_offered");
    const stripe = await join({ email: who, payment_method: "stripe" });
    expect([stripe.status, stripe.body.code]).toEqual([409, "PAYMENT_METHOD_UNAVAILABLE"]);
    await setClub({ payout_iban: null });
    expect((await join({ email: who })).body.code).toBe("PAYMENT_METHOD_UNAVAILABLE");
    expect(await byEmail(who)).toBeUndefined();
    expect((await deliver()).length).toBe(0);
  });

  it("custom fields are checked against the club's definitions", async () => {
    await setCustomFields(env, [
      { key: "licence", label: "Licence", required: true },
      { key: "size", type: "text", options: ["S", "M", "L"] },
      { key: "age", type: "number" },
    ]);
    const missing = await join({ email: email(), custom_fields: { size: "XL", age: "old", shoe: "42" } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.map((d: any) => [d.loc.at(-1), d.type])).toEqual([
      ["shoe", "custom_field_unknown"],
      ["licence", "custom_field_required"],
      ["size", "custom_field_invalid"],
      ["age", "custom_field_invalid"],
    ]);
    const ok = await join({ email: email(), custom_fields: { licence: "AB-12", size: "M", age: 31 } });
    expect(ok.status).toBe(201);
    expect((await memberRow(env, ok.body.member_id)).custom_fields).toEqual({ licence: "AB-12", size: "M", age: 31 });
    await setCustomFields(env, []);
  });

  it("a field whose options are numbers (a text field, or one of no type) takes one of them, as the number or as its text, and stores the option", async () => {
    await setCustomFields(env, [
      { key: "section", label: "Section", type: "text", options: [1, 2, 3] },
      {
        key: "year",
        label: "Année",
        options: [
          { value: 2026, label: "2026" },
          { value: 2027, label: "2027" },
        ],
      },
    ]);
    const asNumber = await join({ email: email(), custom_fields: { section: 2, year: 2027 } });
    expect(asNumber.status).toBe(201);
    expect((await memberRow(env, asNumber.body.member_id)).custom_fields).toEqual({ section: 2, year: 2027 });
    const asText = await join({ email: email(), custom_fields: { section: "3", year: "2026" } });
    expect(asText.status).toBe(201);
    expect((await memberRow(env, asText.body.member_id)).custom_fields).toEqual({ section: 3, year: 2026 });
    const other = await join({ email: email(), custom_fields: { section: "4", year: 2028 } });
    expect(other.body.detail.map((d: any) => [d.loc.at(-1), d.type])).toEqual([
      ["section", "custom_field_invalid"],
      ["year", "custom_field_invalid"],
    ]);
    await setCustomFields(env, []);
  });

  it("text fields are one line; the honeypot refuses", async () => {
    expect((await join({ email: email(), first_name: "Ana\nBcc: x@y.z" })).status).toBe(422);
    expect((await join({ email: "not-an-email" })).status).toBe(422);
    const pot = await join({ email: email(), website: "http://spam" });
    expect([pot.status, pot.body.code]).toEqual([403, "HONEYPOT_FILLED"]);
  });

  it("is rate-limited per address: 20 a minute", async () => {
    const statuses: number[] = [];
    // Valid requests are counted (a refused one does nothing): the honeypot makes each a 403.
    for (let i = 0; i < 21; i++) statuses.push((await join({ email: email(), website: "x" }, slug, "10.99.0.1")).status);
    expect(statuses.slice(0, 20).every((s) => s === 403)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe("application mode", () => {
  it("an applicant waits for approval; approve mails the payment step; 409 when not awaiting", async () => {
    await setClub({ membership_mode: "application", application_instructions: "Tell us about you." });
    expect((await env.call("GET", `/api/public/clubs/${slug}`, { key: null })).body).toMatchObject({
      membership_mode: "application",
      application_instructions: "Tell us about you.",
    });
    const who = email();
    const res = await join({ email: who });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "pending", application_status: "pending_approval", amount_cents: 5000, bank_transfer: null });
    expect((await memberRow(env, res.body.member_id)).application_status).toBe("pending_approval");
    expect((await env.call("GET", `/api/clubs/${env.clubId}/members/${res.body.member_id}`)).body.application_status).toBe("pending_approval");
    expect(header((await deliver())[0].raw, "subject")).toContain("demande");
    smtp.inbox.length = 0;
    const approved = await env.call("POST", `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/approve`, { body: {} });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "pending", application_status: null });
    expect((await memberRow(env, res.body.member_id)).application_status).toBeNull();
    const mails = await deliver();
    expect(mails.map((m) => m.to[0])).toEqual([who]);
    expect(textOf(mails[0].raw)).toContain("CH9300762011623852957");
    const again = await env.call("POST", `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/approve`, { body: {} });
    expect([again.status, again.body.code]).toEqual([409, "NOT_AWAITING_APPROVAL"]);
    expect((await env.call("POST", `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/reject`, { body: {} })).status).toBe(409);
  });

  it("approving a free tier's applicant makes them active, told to the club's webhooks", async () => {
    await setClub({ membership_mode: "application" });
    const res = await join({ email: email(), tier_id: freeTier });
    expect(res.body).toMatchObject({ status: "pending", application_status: "pending_approval", amount_cents: 0 });
    await withEndpoint(env, ["member.updated", "member.status_changed"], async (sent) => {
      const approved = await env.call("POST", `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/approve`, { body: {} });
      expect(approved.body.status).toBe("active");
      const delivered = await sent();
      expect(delivered.map((d) => d.type).sort()).toEqual(["member.status_changed", "member.updated"]);
      const changed = delivered.find((d) => d.type === "member.status_changed");
      expect(JSON.parse(changed?.payload ?? "{}").data).toMatchObject({ status: "active", previous_status: "pending" });
    });
  });

  it("a free application's promo code counts once the application is accepted; one turned down uses nothing", async () => {
    await setClub({ membership_mode: "application" });
    const promo = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: { code: "FREEYEAR", discount_type: "percent", discount_value: 100, applies_to_tier_ids: [paidTier], max_uses: 1 },
    });
    const usedCount = async () => (await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, promo.body.id)))[0].used_count;
    const turnedDown = await join({ email: email(), promo_code: "FREEYEAR" });
    expect(turnedDown.body).toMatchObject({ application_status: "pending_approval", amount_cents: 0 });
    expect(await usedCount()).toBe(0);
    const accepted = await join({ email: email(), promo_code: "FREEYEAR" });
    expect(accepted.status).toBe(201);
    const actions = `/api/clubs/${env.clubId}/members`;
    expect((await env.call("POST", `${actions}/${turnedDown.body.member_id}/actions/reject`, { body: {} })).status).toBe(204);
    expect(await usedCount()).toBe(0);
    const approved = await env.call("POST", `${actions}/${accepted.body.member_id}/actions/approve`, { body: {} });
    expect(approved.body.status).toBe("active");
    expect(await usedCount()).toBe(1);
    expect((await join({ email: email(), promo_code: "FREEYEAR" })).body.code).toBe("PROMO_CODE_EXHAUSTED");
  });

  it("reject erases the applicant and mails them; members:view cannot approve or reject", async () => {
    await setClub({ membership_mode: "application" });
    const who = email();
    const res = await join({ email: who });
    await deliver();
    smtp.inbox.length = 0;
    const viewer = await env.makeKey({ members: "view" } as never);
    for (const action of ["approve", "reject"]) {
      const refused = await env.call("POST", `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/${action}`, { key: viewer, body: {} });
      expect([refused.status, refused.body.code]).toEqual([403, "SCOPE_MISSING"]);
    }
    const rejected = await env.call("POST", `/api/clubs/${env.clubId}/members/${res.body.member_id}/actions/reject`, { body: {} });
    expect(rejected.status).toBe(204);
    expect(await memberRow(env, res.body.member_id)).toBeUndefined();
    const history = await env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, res.body.member_id));
    expect(history.map((h) => h.action)).toContain("erase");
    expect(JSON.stringify(history)).not.toContain(who);
    const mails = await deliver();
    expect(mails.map((m) => m.to[0])).toEqual([who]);
    expect(textOf(mails[0].raw)).toContain("pas été retenue");
  });
});

describe("proof of work", () => {
  it("required when the server asks for it: none 403 CHALLENGE_REQUIRED; solved 201; the same challenge twice 403 CHALLENGE_USED", async () => {
    const strict = await setup({ PUBLIC_FORM_POW_BITS: "8" });
    try {
      const [{ slug: s }] = await strict.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, strict.clubId));
      const tier = (await strict.call("POST", `/api/clubs/${strict.clubId}/tiers`, { body: { name: "Junior", price_cents: 0 } })).body.id;
      const send = (body: Record<string, unknown>) =>
        strict.call("POST", `/api/public/clubs/${s}/join`, {
          key: null,
          body: { tier_id: tier, first_name: "Ana", last_name: "Silva", payment_method: "bank_transfer", ...body },
        });
      expect((await send({ email: "a@example.org" })).body.code).toBe("CHALLENGE_REQUIRED");
      const c = (await strict.call("GET", "/api/public/challenge", { key: null })).body;
      const proof = { challenge: c.challenge, nonce: solveChallenge(c.challenge, c.bits) };
      expect((await send({ email: "a@example.org", ...proof })).status).toBe(201);
      expect((await send({ email: "b@example.org", ...proof })).body.code).toBe("CHALLENGE_USED");
    } finally {
      await strict.close();
    }
  });
});
