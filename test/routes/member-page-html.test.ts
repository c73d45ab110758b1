// /m/<manage_token>: the member's page as HTML (DESIGN.md section 14). In the club's language and
// colours, nothing loaded from another host and no script; its forms redirect back with a notice;
// the mailed email link confirms once and moves the page; a refusal is a page in the club's language.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, jobs, members } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { insertTier } from "../events-fixtures";
import { addDays, memberRow, pageTokenOf, seedMember, todayUtc } from "../members-fixtures";
import { sha256Hex } from "../../lib/ids";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
  await env.db.tx((t) =>
    t.update(clubs).set({ primary_color: "#0B5394", payout_iban: "CH9300762011623852957", membership_fee_cents: 5000 }).where(eq(clubs.id, env.clubId)),
  );
});
afterAll(() => env.close());

let n = 0;
async function get(path: string, lang = "en") {
  const res = await env.app.handle(new Request(`http://localhost${path}`, { headers: { "accept-language": lang } }), `10.1.0.${++n % 250}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
}
async function post(path: string, form: Record<string, string>) {
  const res = await env.app.handle(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
    }),
    `10.2.0.${++n % 250}`,
  );
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

describe("/m/<token>", () => {
  it("is the member's page in the club's language and colours, with no script and nothing from another host", async () => {
    const m = await seedMember(env, { first_name: "Léa", last_name: "Rochat" });
    const res = await get(`/m/${pageTokenOf(m)}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="fr">');
    expect(res.text).toContain("--primary:#0B5394");
    expect(res.text).toContain("Léa Rochat");
    expect(res.text).toContain("Adhésion active");
    expect(res.text).not.toMatch(/<script|<link |@import|src="https?:/i);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("in English: 'Tier: Adulte' without French spacing, dates in the style of the card page (30 June 2028)", async () => {
    const tier = await insertTier(env, { name: "Adulte" });
    const m = await seedMember(env, { first_name: "Ann", membership_end: "2028-06-30" });
    await env.db.tx((t) => t.update(members).set({ tier_id: tier.id }).where(eq(members.id, m.id)));
    await env.db.tx((t) => t.update(clubs).set({ locale: "en", country: "CH" }).where(eq(clubs.id, env.clubId)));
    try {
      const res = await get(`/m/${pageTokenOf(m)}`);
      expect(res.text).toContain(">Tier: Adulte<");
      expect(res.text).toContain("30 June 2028");
      expect(res.text).not.toContain("June 30, 2028");
      expect((await get(`/c/${m.pass_serial_number}`)).text).toContain("30 June 2028");
    } finally {
      await env.db.tx((t) => t.update(clubs).set({ locale: "fr", country: null }).where(eq(clubs.id, env.clubId)));
    }
  });

  it("takes an odd query (a notice too long) as no query: the page, never a 422", async () => {
    const m = await seedMember(env);
    const res = await get(`/m/${pageTokenOf(m)}?done=${"x".repeat(60)}&renew=${"y".repeat(60)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
  });

  it("answers a wrong token with a 404 page in the visitor's language", async () => {
    const res = await get("/m/nope", "en");
    expect(res.status).toBe(404);
    expect(res.text).toContain("Page not found");
  });

  it("renews by bank transfer by its form, not a link: the form's redirect shows the details with the reference", async () => {
    const m = await seedMember(env);
    const token = pageTokenOf(m);
    const page = await get(`/m/${token}`);
    expect(page.text).toContain('name="payment_method" value="bank_transfer"');
    expect(page.text).not.toContain("?renew=bank_transfer");
    const done = await post(`/m/${token}/renew`, { payment_method: "bank_transfer" });
    expect(done.status).toBe(302);
    expect(done.location).toBe(`http://localhost/m/${token}?renew=bank_transfer#renew`);
    const res = await get(`/m/${token}?renew=bank_transfer`);
    expect(res.text).toContain("CH9300762011623852957");
    expect(res.text).toMatch(new RegExp(`RF\\d{2}${m.referral_code}`));
    // The amount as the club's language writes it.
    expect(res.text).toMatch(/50,00\sCHF/);
  });

  it("answers a renewal it refuses (a suspended member) with its page saying why, not the API's JSON", async () => {
    const m = await seedMember(env, { payment_status: "suspended" });
    const res = await post(`/m/${pageTokenOf(m)}/renew`, { payment_method: "bank_transfer" });
    expect(res.status).toBe(409);
    expect(res.text).toContain("<!doctype html>");
    expect(res.text).not.toContain("CH9300762011623852957");
    // Its page's GET shows no details either.
    expect((await get(`/m/${pageTokenOf(m)}?renew=bank_transfer`)).text).not.toContain("CH9300762011623852957");
  });

  it("renews a free membership that is due by its form only: a link's GET shows the form and writes nothing", async () => {
    await env.db.tx((t) =>
      t
        .update(clubs)
        .set({ membership_fee_cents: 0, renewal_reminder_days: [30] })
        .where(eq(clubs.id, env.clubId)),
    );
    const end = addDays(todayUtc(), 5);
    const m = await seedMember(env, { membership_end: end });
    const shown = await get(`/m/${pageTokenOf(m)}?renew=stripe`);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain(`action="/m/${pageTokenOf(m)}/renew"`);
    expect(shown.text).toContain("Rien à payer");
    expect((await memberRow(env, m.id)).membership_end).toBe(end);
    const done = await post(`/m/${pageTokenOf(m)}/renew`, {});
    expect(done.status).toBe(302);
    expect(done.location).toBe(`http://localhost/m/${pageTokenOf(m)}?done=renewed`);
    expect((await memberRow(env, m.id)).membership_end > end).toBe(true);
    expect((await get(`/m/${pageTokenOf(m)}?done=renewed`)).text).toContain("Votre adhésion est renouvelée.");
    // Renewed: the next period is not due yet, so the form is refused with the page saying from when.
    const again = await post(`/m/${pageTokenOf(m)}/renew`, {});
    expect(again.status).toBe(409);
    expect(again.text).toContain("pas encore ouvert");
    await env.db.tx((t) => t.update(clubs).set({ membership_fee_cents: 5000 }).where(eq(clubs.id, env.clubId)));
  });

  it("runs its forms and redirects back with a notice", async () => {
    const m = await seedMember(env);
    const token = pageTokenOf(m);
    const named = await post(`/m/${token}/name`, { first_name: "Zoé", last_name: "Favre" });
    expect(named.status).toBe(302);
    expect(named.location).toBe(`http://localhost/m/${token}?done=name`);
    expect(await memberRow(env, m.id)).toMatchObject({ first_name: "Zoé", last_name: "Favre" });
    expect((await get(named.location?.replace("http://localhost", "") ?? "")).text).toContain("Votre nom a été corrigé.");
    const erased = await post(`/m/${token}/erasure-request`, {});
    expect(erased.location).toBe(`http://localhost/m/${token}?done=erasure`);
    expect((await memberRow(env, m.id)).erasure_requested_at).not.toBeNull();
    const refused = await post(`/m/${token}/auto-renewal`, { enabled: "false" });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("ne se renouvelle pas automatiquement");
  });

  it("refuses a name or an address with a control or direction-override character, as the JSON route does, and stores nothing", async () => {
    const m = await seedMember(env);
    const token = pageTokenOf(m);
    const bodies: Record<string, string>[] = [{ first_name: "Zoé\r\nBcc: x" }, { last_name: "Favre\u202E" }];
    for (const body of bodies) {
      const refused = await post(`/m/${token}/name`, body);
      expect(refused.status).toBe(422);
    }
    expect((await post(`/m/${token}/email`, { email: "new\u202E@example.org" })).status).toBe(422);
    expect(await memberRow(env, m.id)).toMatchObject({ first_name: m.first_name, last_name: m.last_name, pending_email: null });
  });

  it("confirms a new email from the mailed link once, then lives at its new address", async () => {
    const m = await seedMember(env);
    const token = pageTokenOf(m);
    expect((await post(`/m/${token}/email`, { email: "zoe.new@test.org" })).location).toBe(`http://localhost/m/${token}?done=email`);
    const [job] = (await env.db.read.select().from(jobs).where(eq(jobs.kind, "mail"))).filter(
      (j) => (j.payload as { message: { to: string } }).message.to === "zoe.new@test.org",
    );
    const link = /http:\/\/localhost(\/m\/\S+\/email\/confirm\?code=\w+)/.exec((job.payload as { message: { text: string } }).message.text)?.[1] as string;
    const followed = await get(link);
    expect(followed.status).toBe(302);
    const row = await memberRow(env, m.id);
    expect(row.email).toBe("zoe.new@test.org");
    // The page at its new token (the row keeps its hash).
    const next = /^http:\/\/localhost\/m\/(\w+)\?done=email_confirmed$/.exec(followed.headers.get("location") ?? "")?.[1] as string;
    expect(row.manage_token).toBe(sha256Hex(next));
    // The link again: its page no longer exists.
    expect((await get(link)).status).toBe(404);
    await env.db.tx((t) =>
      t
        .update(members)
        .set({ pending_email: "x@test.org", pending_email_code_hash: "0", pending_email_expires_at: "2000-01-01T00:00:00.000Z" })
        .where(eq(members.id, m.id)),
    );
    const wrong = await get(`/m/${next}/email/confirm?code=abc`);
    expect(wrong.status).toBe(409);
    expect(wrong.text).toContain("code de confirmation");
  });
});
