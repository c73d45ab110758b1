// /api/public/manage/<manage_token>: the member's own page as JSON (DESIGN.md section 14). Each
// action and its refusal, the email change by a mailed link (wrong, expired, reused), a wrong
// token (404), the history written with `actor: member`, the erasure request the admin sees.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, desc, eq } from "drizzle-orm";
import { clubs, jobs, members } from "../../db/schema";
import { sha256Hex } from "../../lib/ids";
import { hashClearPageTokens } from "../../lib/member-page";
import { isCreditorReference } from "../../lib/payments/reference";
import { setup, type TestEnv } from "../helpers";
import { addDays, memberRow, pageTokenOf, paymentsOf, seedMember, todayUtc, withEndpoint } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

let ip = 0;
/** Each test from its own address: the page's rate limit (20 a minute) is tested on its own. */
async function page(method: string, token: string, sub = "", body?: unknown, from = `10.0.${Math.floor(++ip / 250)}.${ip % 250}`) {
  const init: RequestInit = { method, headers: { "content-type": "application/json" } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await env.app.handle(new Request(`http://localhost/api/public/manage/${token}${sub}`, init), from);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  // biome-ignore lint/suspicious/noExplicitAny: the parsed JSON answer
  return { status: res.status, body: parsed as any };
}

async function lastMailTo(address: string) {
  const rows = await env.db.read.select().from(jobs).where(eq(jobs.kind, "mail")).orderBy(desc(jobs.created_at));
  const row = rows.find((r) => (r.payload as { message: { to: string } }).message.to === address);
  return (row?.payload as { message: { subject: string; text: string; html: string } } | undefined)?.message;
}

async function history(memberId: string) {
  const res = await env.call("GET", `/api/clubs/${env.clubId}/members/${memberId}/history`);
  return res.body.items as { kind: string; actor: string }[];
}

describe("the member's page (JSON)", () => {
  it("answers the member's status, card and club; a wrong token is a plain 404", async () => {
    const m = await seedMember(env, { first_name: "Léa", membership_end: "2031-03-15" });
    const res = await page("GET", pageTokenOf(m));
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({
      first_name: "Léa",
      status: "active",
      membership_end: "2031-03-15",
      auto_renewal: null,
      erasure_requested_at: null,
    });
    expect(res.body.card.web).toBe(`http://localhost/c/${m.pass_serial_number}`);
    expect(res.body.club.name).toBe("Club de test");
    for (const wrong of ["x", `${pageTokenOf(m)}x`, "A".repeat(32), "A".repeat(199)]) {
      const miss = await page("GET", wrong);
      expect({ wrong, status: miss.status, code: miss.body.code }).toEqual({ wrong, status: 404, code: "MEMBER_PAGE_NOT_FOUND" });
    }
  });

  it("corrects the name, in the history with actor member", async () => {
    const m = await seedMember(env);
    const res = await page("PATCH", pageTokenOf(m), "", { first_name: "Anne-Marie", last_name: "Dupont" });
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ first_name: "Anne-Marie", last_name: "Dupont" });
    expect(await memberRow(env, m.id)).toMatchObject({ first_name: "Anne-Marie", last_name: "Dupont" });
    expect((await history(m.id))[0]).toMatchObject({ kind: "update", actor: "member" });
    expect((await page("PATCH", pageTokenOf(m), "", { first_name: "" })).status).toBe(422);
    const control = await page("PATCH", pageTokenOf(m), "", { last_name: "Dupont\nX" });
    expect(control.status).toBe(422);
    expect(control.body.detail[0]).toMatchObject({ loc: ["body", "last_name"], type: "text_control_character" });
    expect((await memberRow(env, m.id)).last_name).toBe("Dupont");
  });

  it("a change the member makes is a member.updated for the club's webhooks, with the item the admin sees", async () => {
    const m = await seedMember(env);
    try {
      await withEndpoint(env, ["member.updated"], async (sent) => {
        expect((await page("PATCH", pageTokenOf(m), "", { last_name: "Renamed" })).status).toBe(200);
        expect((await page("POST", pageTokenOf(m), "/erasure-request", {})).status).toBe(200);
        const delivered = await sent();
        expect(delivered.map((d) => d.type)).toEqual(["member.updated", "member.updated"]);
        const admin = await env.call("GET", `/api/clubs/${env.clubId}/members/${m.id}`);
        expect(JSON.parse(delivered[1].payload).data).toEqual(admin.body);
        expect(JSON.parse(delivered[0].payload).data.last_name).toBe("Renamed");
      });
    } finally {
      // The list filter test counts the club's erasure requests.
      await env.db.tx((t) => t.update(members).set({ erasure_requested_at: null }).where(eq(members.id, m.id)));
    }
  });

  it("a token an older version kept in clear is hashed by the pass the server runs at start; its link works again, and a second pass finds nothing", async () => {
    const m = await seedMember(env);
    const clear = "KeptInClearByAnOlderVersion01234";
    await env.db.tx((t) => t.update(members).set({ manage_token: clear }).where(eq(members.id, m.id)));
    // Pages are found by the token's hash: until the pass, the clear one finds nothing.
    expect((await page("GET", clear)).status).toBe(404);
    expect(await hashClearPageTokens(env.db)).toBe(1);
    expect((await memberRow(env, m.id)).manage_token).toBe(sha256Hex(clear));
    expect((await page("GET", clear)).status).toBe(200);
    expect(await hashClearPageTokens(env.db)).toBe(0);
  });

  it("changes the email through the link mailed to the new address; the token changes, the link works once", async () => {
    const m = await seedMember(env, { email: "old@test.org" });
    const token = pageTokenOf(m);
    // An admin opened the page from the dashboard too (an address of their own): it works beside the member's.
    const admins = "AdminOpenedThePageFromDashboard1";
    await env.db.tx((t) =>
      t
        .update(members)
        .set({ admin_page_token: sha256Hex(admins) })
        .where(eq(members.id, m.id)),
    );
    expect((await page("GET", admins)).status).toBe(200);
    const asked = await page("POST", token, "/email", { email: "New@Test.org" });
    expect(asked.status).toBe(202);
    expect(asked.body.pending_email).toBe("new@test.org");
    expect((await memberRow(env, m.id)).email).toBe("old@test.org");
    const mail = await lastMailTo("new@test.org");
    const code = /code=([A-Za-z0-9]+)/.exec(mail?.text ?? "")?.[1] as string;
    expect(mail?.text).toContain(`http://localhost/m/${token}/email/confirm?code=${code}`);

    expect((await page("POST", token, "/email/confirm", { code: "wrong" })).body.code).toBe("EMAIL_CODE_INVALID");
    const done = await page("POST", token, "/email/confirm", { code });
    expect(done.status).toBe(200);
    expect(done.body.email).toBe("new@test.org");
    const row = await memberRow(env, m.id);
    expect(row.email).toBe("new@test.org");
    // A new token, of which the row keeps only the hash.
    const next = (done.body.manage_url as string).replace("http://localhost/m/", "");
    expect(next).not.toBe(token);
    expect(row.manage_token).toBe(sha256Hex(next));
    expect((await page("GET", next)).status).toBe(200);
    // The old address of the page is gone, and so is one an admin had opened; the code does not work twice.
    expect((await page("GET", token)).status).toBe(404);
    expect((await page("GET", admins)).status).toBe(404);
    expect((await memberRow(env, m.id)).admin_page_token).toBeNull();
    const again = await page("POST", next, "/email/confirm", { code });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: "EMAIL_CHANGE_NOT_PENDING" });
    expect((await history(m.id))[0]).toMatchObject({ kind: "update", actor: "member" });
  });

  it("refuses an expired link, another member's address and the member's own", async () => {
    const m = await seedMember(env, { email: "exp@test.org" });
    const other = await seedMember(env, { email: "taken@test.org" });
    const token = pageTokenOf(m);
    expect((await page("POST", token, "/email", { email: other.email })).body.code).toBe("MEMBER_EMAIL_TAKEN");
    expect((await page("POST", token, "/email", { email: "exp@test.org" })).body.code).toBe("EMAIL_UNCHANGED");
    await page("POST", token, "/email", { email: "later@test.org" });
    const code = /code=([A-Za-z0-9]+)/.exec((await lastMailTo("later@test.org"))?.text ?? "")?.[1];
    await env.db.tx((t) => t.update(members).set({ pending_email_expires_at: "2000-01-01T00:00:00.000Z" }).where(eq(members.id, m.id)));
    const res = await page("POST", token, "/email/confirm", { code });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: "EMAIL_CHANGE_EXPIRED" });
    expect((await memberRow(env, m.id)).email).toBe("exp@test.org");
  });

  it("renews by bank transfer with the club's payout details and a creditor reference; refuses what the club does not offer", async () => {
    const m = await seedMember(env);
    const token = pageTokenOf(m);
    await env.db.tx((t) => t.update(clubs).set({ membership_fee_cents: 5000 }).where(eq(clubs.id, env.clubId)));
    const none = await page("POST", token, "/renew", { payment_method: "bank_transfer" });
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 409, code: "PAYMENT_METHOD_UNAVAILABLE" });
    await env.db.tx((t) =>
      t
        .update(clubs)
        .set({ payout_iban: "CH9300762011623852957", payout_bic: "POFICHBEXXX", payout_beneficiary_name: "Club de test" })
        .where(eq(clubs.id, env.clubId)),
    );
    const res = await page("POST", token, "/renew", { payment_method: "bank_transfer" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ payment_method: "bank_transfer", amount_cents: 5000, currency: "CHF", checkout_url: null, renewed: false });
    expect(res.body.bank_transfer).toMatchObject({ iban: "CH9300762011623852957", bic: "POFICHBEXXX", beneficiary: "Club de test", amount_cents: 5000 });
    expect(isCreditorReference(res.body.bank_transfer.reference)).toBe(true);
    expect(res.body.bank_transfer.reference).toEndWith(m.referral_code);
    expect((await page("POST", token, "/renew", { payment_method: "stripe" })).body.code).toBe("PAYMENT_METHOD_UNAVAILABLE");
    expect((await page("POST", token, "/renew", { payment_method: "cash" })).status).toBe(422);
    expect((await page("GET", token)).body.payment_methods).toEqual(["bank_transfer"]);
  });

  it("renews at once when the referral credit covers the price, spending it, once the renewal is due; not before", async () => {
    await env.db.tx((t) =>
      t
        .update(clubs)
        .set({ membership_fee_cents: 5000, renewal_reminder_days: [30, 7] })
        .where(eq(clubs.id, env.clubId)),
    );
    const end = addDays(todayUtc(), 10);
    const due = await seedMember(env, { membership_end: end, referral_credit_cents: 6000 });
    const res = await page("POST", pageTokenOf(due), "/renew", { payment_method: "stripe" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ payment_method: "stripe", amount_cents: 0, checkout_url: null, bank_transfer: null, renewed: true });
    const after = await memberRow(env, due.id);
    expect(after.membership_end > end).toBe(true);
    expect(after.referral_credit_cents).toBe(1000);
    expect((await paymentsOf(env, due.id)).map((p) => [p.amount_cents, p.method])).toEqual([[0, "referral_credit"]]);

    // Ending in 200 days, reminders from 30 days before: not due yet, nothing changes.
    const early = await seedMember(env, { membership_end: addDays(todayUtc(), 200), referral_credit_cents: 6000 });
    const refused = await page("POST", pageTokenOf(early), "/renew", { payment_method: "bank_transfer" });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: "RENEWAL_NOT_DUE" });
    // The answer says from when (the longest reminder, 30 days, before the end).
    expect(refused.body.detail).toContain(addDays(todayUtc(), 170));
    expect(await memberRow(env, early.id)).toMatchObject({ membership_end: addDays(todayUtc(), 200), referral_credit_cents: 6000 });
    expect(await paymentsOf(env, early.id)).toEqual([]);
  });

  it("turns the automatic renewal off and on, only on a subscription", async () => {
    const plain = await seedMember(env);
    const refused = await page("POST", pageTokenOf(plain), "/auto-renewal", { enabled: false });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: "NO_SUBSCRIPTION" });
    const sub = await seedMember(env, { payment_mode: "subscription" });
    const token = pageTokenOf(sub);
    const off = await page("POST", token, "/auto-renewal", { enabled: false });
    expect(off.body.member.auto_renewal).toBe(false);
    expect((await memberRow(env, sub.id)).renewal_opt_out_at).not.toBeNull();
    const on = await page("POST", token, "/auto-renewal", { enabled: true });
    expect(on.body.member.auto_renewal).toBe(true);
    expect((await memberRow(env, sub.id)).renewal_opt_out_at).toBeNull();
    expect((await history(sub.id)).map((h) => [h.kind, h.actor])).toEqual([
      ["auto_renewal_on", "member"],
      ["auto_renewal_off", "member"],
    ]);
  });

  it("gives the member their data (the art. 15 document)", async () => {
    const m = await seedMember(env, { first_name: "Data" });
    const inv = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, {
      body: { member_id: m.id, lines: [{ label: "Cotisation", amount_cents: 4000 }] },
    });
    const res = await page("GET", pageTokenOf(m), "/data-export");
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ id: m.id, first_name: "Data" });
    expect(Array.isArray(res.body.history)).toBe(true);
    // Their invoices too, and the mailings addressed to them (none yet).
    expect(res.body.invoices.map((i: { id: string; number: string }) => [i.id, i.number])).toEqual([[inv.body.id, inv.body.number]]);
    expect(res.body.mailings).toEqual([]);
  });

  it("records an erasure request the admin sees in the item and the list filter", async () => {
    const m = await seedMember(env);
    const res = await page("POST", pageTokenOf(m), "/erasure-request");
    expect(res.status).toBe(200);
    const again = await page("POST", pageTokenOf(m), "/erasure-request");
    expect(again.body.erasure_requested_at).toBe(res.body.erasure_requested_at);
    const item = await env.call("GET", `/api/clubs/${env.clubId}/members/${m.id}`);
    expect(item.body.erasure_requested_at).toBe(res.body.erasure_requested_at);
    const asked = await env.call("GET", `/api/clubs/${env.clubId}/members?erasure_requested=true&limit=1000`);
    expect(asked.body.items.map((i: { id: string }) => i.id)).toEqual([m.id]);
    const others = await env.call("GET", `/api/clubs/${env.clubId}/members?erasure_requested=false&limit=1000`);
    expect(others.body.items.some((i: { id: string }) => i.id === m.id)).toBe(false);
    expect((await history(m.id))[0]).toMatchObject({ kind: "erasure_requested", actor: "member" });
  });

  it("is rate-limited per address: 20 a minute", async () => {
    const m = await seedMember(env);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await page("GET", pageTokenOf(m), "", undefined, "10.9.9.9")).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect((await page("GET", pageTokenOf(m), "", undefined, "10.9.9.8")).status).toBe(200);
  });
});

it("stores nothing for another club's admin to see", async () => {
  const other = await env.otherClub();
  const res = await env.call("GET", `/api/clubs/${env.clubId}/members?erasure_requested=true`, { key: other.api_key });
  expect(res.status).toBe(403);
  const [row] = await env.db.read
    .select()
    .from(members)
    .where(and(eq(members.club_id, other.club_id)));
  expect(row).toBeUndefined();
});
