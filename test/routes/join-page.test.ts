// /join/<club_slug>: the join page (issue 13 item 6). HTML in the club's colours and language (or
// ?lang=), its tiers and form; a posted form joins through the JSON route's verb (what the
// database holds afterwards), the payment step with the bank transfer details, each refusal
// beside its field in the page's language, a closed club, an unknown slug, the proof against
// bots (the work done by the page's script, or a form open long enough without script).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { clubs, members } from "../../db/schema";
import { issueChallenge, solveChallenge } from "../../lib/forms";
import { PROOF_SCRIPT, PROOF_SCRIPT_HASH } from "../../lib/pages/form";
import { setup, type TestEnv } from "../helpers";
import { pageTokenOf, seedMember, setCustomFields } from "../members-fixtures";
import { sha256Hex } from "../../lib/ids";
import { errorOf, pageGet, pagePost } from "../pages-fixtures";

let env: TestEnv;
let slug: string;
let paidTier: string;
let freeTier: string;
beforeAll(async () => {
  env = await setup();
  [{ slug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
  paidTier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Adulte", price_cents: 5000, currency: "CHF", duration_months: 12 } }))
    .body.id;
  freeTier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Junior", price_cents: 0, currency: "CHF", duration_months: 12 } })).body
    .id;
});
afterAll(() => env.close());
beforeEach(async () => {
  await setClub({
    membership_mode: "open",
    application_instructions: null,
    payout_iban: "CH9300762011623852957",
    payout_bic: "POFICHBEXXX",
    payout_beneficiary_name: "Club de test",
    locale: "fr",
    primary_color: "#0B5394",
    secondary_color: "#F59E0B",
    description: "Randonnées & sorties <en montagne>",
  });
  await setCustomFields(env, []);
});

const setClub = (set: Record<string, unknown>) => env.db.tx((t) => t.update(clubs).set(set).where(eq(clubs.id, env.clubId)));
const get = (path: string, headers: Record<string, string> = {}) => pageGet(env, path, headers);
const post = (path: string, form: Record<string, string>) => pagePost(env, path, form);
let n = 0;
const email = () => `page-joiner${++n}@example.org`;
const joinForm = (over: Record<string, string> = {}) => ({
  tier_id: paidTier,
  first_name: "Ana",
  last_name: "Silva",
  email: email(),
  payment_method: "bank_transfer",
  challenge: "",
  nonce: "",
  website: "",
  ...over,
});
const byEmail = async (address: string) =>
  (
    await env.db.read
      .select()
      .from(members)
      .where(and(eq(members.club_id, env.clubId), eq(members.email, address)))
  )[0];
describe("GET /join/<slug>", () => {
  it("is the club's page in its language and colours, with its tiers, prices and form, and only its own script", async () => {
    const res = await get(`/join/${slug}`, { "accept-language": "en" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain('<html lang="fr">');
    expect(res.text).toContain("--primary:#0B5394");
    expect(res.text).toContain("Devenir membre");
    // Stored text is escaped.
    expect(res.text).toContain("Randonnées &amp; sorties &lt;en montagne&gt;");
    expect(res.text).toContain("Adulte");
    expect(res.text).toMatch(/50,00\sCHF/);
    expect(res.text).toContain("Gratuit");
    expect(res.text).toContain(`action="/join/${slug}"`);
    expect(res.text).toContain('name="challenge" value="p1.');
    for (const name of ["first_name", "last_name", "email", "promo_code", "referral_code", "payment_method", "website"])
      expect(res.text).toContain(`name="${name}"`);
    // Nothing from another host; the one script is the form's, allowed by its hash only.
    expect(res.text).not.toMatch(/<link |@import|src="https?:|<script src/i);
    expect(res.text.match(/<script>/g)?.length).toBe(1);
    expect(res.text).toContain(PROOF_SCRIPT);
    const csp = res.headers.get("content-security-policy") as string;
    expect(csp).toContain(`script-src '${PROOF_SCRIPT_HASH}'`);
    expect(csp).toContain("default-src 'none'");
    // The club's own site may frame it.
    expect(csp).toContain("frame-ancestors *");
  });

  it("speaks ?lang= when it is one of the four, else the club's language", async () => {
    expect((await get(`/join/${slug}?lang=de`)).text).toContain("Mitglied werden");
    const en = await get(`/join/${slug}?lang=en`);
    expect(en.text).toContain('<html lang="en">');
    // The form keeps the language.
    expect(en.text).toContain(`action="/join/${slug}?lang=en"`);
    const wrong = await get(`/join/${slug}?lang=xx`);
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain('<html lang="fr">');
    expect((await get(`/join/${slug}?lang=${"x".repeat(50)}`)).status).toBe(200);
  });

  it("asks the club's custom fields", async () => {
    await setCustomFields(env, [
      { key: "size", label: "Taille du t-shirt", required: true, options: ["S", "M", "L"] },
      { key: "licence", label: "Licence", type: "number" },
    ]);
    const res = await get(`/join/${slug}`);
    expect(res.text).toContain("Taille du t-shirt");
    expect(res.text).toContain('name="cf.size"');
    expect(res.text).toContain('<option value="M">M</option>');
    expect(res.text).toContain('name="cf.licence" type="number"');
  });

  it("says an application club's instructions, and a closed club says so with no form", async () => {
    await setClub({ membership_mode: "application", application_instructions: "Deux parrains sont nécessaires." });
    const applying = await get(`/join/${slug}`);
    expect(applying.text).toContain("Deux parrains sont nécessaires.");
    expect(applying.text).toContain("Envoyer ma demande");
    await setClub({ membership_mode: "closed" });
    const closed = await get(`/join/${slug}?lang=en`);
    expect(closed.status).toBe(200);
    expect(closed.text).toContain("This club is not taking new members at the moment.");
    expect(closed.text).not.toContain("<form");
    expect(closed.text).not.toContain("<script");
  });

  it("answers an unknown slug with a 404 page in the visitor's language", async () => {
    const res = await get("/join/no-such-club", { "accept-language": "de-CH,de;q=0.9" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.text).toContain("Seite nicht gefunden");
  });
});

describe("POST /join/<slug>", () => {
  it("joins: a pending member, and the payment step with the club's bank details and the RF reference", async () => {
    const form = joinForm();
    const res = await post(`/join/${slug}`, form);
    expect(res.status).toBe(201);
    const m = await byEmail(form.email);
    expect(m).toMatchObject({
      first_name: "Ana",
      last_name: "Silva",
      payment_status: "pending",
      tier_id: paidTier,
      acquisition_source: "join",
      amount_due_cents: 5000,
    });
    expect(res.text).toContain("Dernière étape : le paiement");
    expect(res.text).toContain("CH9300762011623852957");
    expect(res.text).toContain("POFICHBEXXX");
    expect(res.text).toMatch(new RegExp(`RF\\d{2}${m.referral_code}`));
    expect(res.text).toMatch(/50,00\sCHF/);
    // The member's page, at the token whose hash the row keeps.
    const token = /\/m\/(\w{32})/.exec(res.text)?.[1] as string;
    expect(m?.manage_token).toBe(sha256Hex(token));
  });

  it("activates a free tier at once, and keeps the custom fields' answers typed", async () => {
    await setCustomFields(env, [
      { key: "licence", label: "Licence", type: "number" },
      { key: "newsletter", label: "Newsletter", type: "boolean" },
    ]);
    const form = joinForm({ tier_id: freeTier, "cf.licence": "1234", "cf.newsletter": "true", lang: "en" });
    const res = await post(`/join/${slug}`, form);
    expect(res.status).toBe(201);
    expect(res.text).toContain("Welcome!");
    expect(await byEmail(form.email)).toMatchObject({ payment_status: "paid", custom_fields: { licence: 1234, newsletter: true } });
  });

  it("shows each refusal beside its field, in the page's language, and keeps what was typed", async () => {
    await setCustomFields(env, [{ key: "size", label: "Taille", required: true, options: ["S", "M"] }]);
    const form = joinForm({ email: "not-an-address", first_name: "Zoé" });
    const res = await post(`/join/${slug}`, form);
    expect(res.status).toBe(422);
    expect(errorOf(res.text, "email")).toBeString();
    expect(res.text).toContain('value="Zoé"');
    expect(res.text).toContain('aria-invalid="true"');
    const custom = await post(`/join/${slug}`, joinForm({ lang: "en" }));
    expect(custom.status).toBe(422);
    expect(errorOf(custom.text, "cf.size")).toBe("This field is required.");
    expect(await byEmail("not-an-address")).toBeUndefined();
    // No tier chosen.
    const noTier = await post(`/join/${slug}`, joinForm({ tier_id: "", "cf.size": "S" }));
    expect(noTier.status).toBe(422);
    expect(errorOf(noTier.text, "tier_id")).toBeString();
  });

  it("tells an existing member to check their mailbox, beside the email, and creates nobody", async () => {
    const m = await seedMember(env, { email: "already@example.org" });
    const res = await post(`/join/${slug}`, joinForm({ email: "Already@example.org" }));
    expect(res.status).toBe(409);
    expect(errorOf(res.text, "email")).toContain("consultez votre boîte mail");
    expect(res.text).not.toContain(pageTokenOf(m));
    const rows = await env.db.read
      .select()
      .from(members)
      .where(and(eq(members.club_id, env.clubId), eq(members.email, "already@example.org")));
    expect(rows.length).toBe(1);
  });

  it("refuses an unknown promo code beside its field", async () => {
    const res = await post(`/join/${slug}`, joinForm({ promo_code: "NOPE1234", lang: "it" }));
    expect(res.status).toBe(409);
    expect(errorOf(res.text, "promo_code")).toBeString();
    expect(res.text).toContain('<html lang="it">');
  });

  it("refuses a closed club with 403 JOIN_CLOSED's words, and stores nothing", async () => {
    await setClub({ membership_mode: "closed" });
    const form = joinForm();
    const res = await post(`/join/${slug}`, form);
    expect(res.status).toBe(403);
    expect(res.text).toContain("accepte pas de nouveaux membres");
    expect(await byEmail(form.email)).toBeUndefined();
  });

  it("takes an application: pending approval, no payment asked yet", async () => {
    await setClub({ membership_mode: "application" });
    const form = joinForm();
    const res = await post(`/join/${slug}`, form);
    expect(res.status).toBe(201);
    expect(res.text).toContain("Demande reçue");
    expect(res.text).not.toContain("CH9300762011623852957");
    expect(await byEmail(form.email)).toMatchObject({ application_status: "pending_approval", payment_status: "pending" });
  });

  it("answers 404 for an unknown slug, with nothing stored", async () => {
    const form = joinForm();
    const res = await post("/join/no-such-club", form);
    expect(res.status).toBe(404);
    expect(await byEmail(form.email)).toBeUndefined();
  });
});

describe("POST /join/<slug> rate", () => {
  it("shares the JSON join route's 20 a minute per address", async () => {
    const from = "10.66.0.1";
    const send = (path: string, init: RequestInit) => env.app.handle(new Request(`http://localhost${path}`, { method: "POST", ...init }), from);
    for (let i = 0; i < 20; i++) {
      const res = await send(`/join/${slug}`, { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ tier_id: "" }) });
      expect(res.status).toBe(422);
    }
    const json = await send(`/api/public/clubs/${slug}/join`, { headers: { "content-type": "application/json" }, body: JSON.stringify(joinForm()) });
    expect(json.status).toBe(429);
    expect(json.headers.get("retry-after")).toBeString();
  });
});

describe("POST /join/<slug> against bots (PUBLIC_FORM_POW_BITS=8)", () => {
  let bots: TestEnv;
  let botSlug: string;
  let tier: string;
  beforeAll(async () => {
    bots = await setup({ PUBLIC_FORM_POW_BITS: "8" });
    [{ slug: botSlug }] = await bots.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, bots.clubId));
    await bots.db.tx((t) => t.update(clubs).set({ payout_iban: "CH9300762011623852957" }).where(eq(clubs.id, bots.clubId)));
    tier = (await bots.call("POST", `/api/clubs/${bots.clubId}/tiers`, { body: { name: "Adulte", price_cents: 3000 } })).body.id;
  });
  afterAll(() => bots.close());
  let sent = 0;
  const send = async (form: Record<string, string>) => {
    const res = await bots.app.handle(
      new Request(`http://localhost/join/${botSlug}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ tier_id: tier, first_name: "Bo", last_name: "T", payment_method: "bank_transfer", ...form }),
      }),
      `10.8.0.${++sent % 250}`,
    );
    return { status: res.status, text: await res.text() };
  };
  const stored = async (address: string) => (await bots.db.read.select().from(members).where(eq(members.email, address))).length;

  it("takes the work done by the page's script, once", async () => {
    const { challenge } = await issueChallenge(bots.db, 8);
    const form = { email: "solved@example.org", challenge, nonce: solveChallenge(challenge, 8) };
    expect((await send(form)).status).toBe(201);
    const again = await send({ ...form, email: "solved-again@example.org" });
    expect(again.status).toBe(403);
    expect(await stored("solved-again@example.org")).toBe(0);
  });

  it("without script: refuses a form sent as soon as its page was drawn, takes it once the page has been open 3 s", async () => {
    const fresh = (await issueChallenge(bots.db, 8, new Date(), "page")).challenge;
    const fast = await send({ email: "fast@example.org", challenge: fresh });
    expect(fast.status).toBe(403);
    expect(fast.text).toContain("trop vite");
    // The same challenge is offered again: it was not spent.
    expect(fast.text).toContain(`value="${fresh}"`);
    expect(await stored("fast@example.org")).toBe(0);
    const aged = (await issueChallenge(bots.db, 8, new Date(Date.now() - 4_000), "page")).challenge;
    expect((await send({ email: "slow@example.org", challenge: aged })).status).toBe(201);
    expect(await stored("slow@example.org")).toBe(1);
  });

  it("without script, only the page's own challenge: one from GET /api/public/challenge needs its work however old (403, a page challenge offered)", async () => {
    const fromApi = await bots.call("GET", "/api/public/challenge", { key: null });
    expect(fromApi.status).toBe(200);
    // Its age, as a bot that waited would have it: the API's challenges are issued the same way, with `kind` api.
    const aged = (await issueChallenge(bots.db, 8, new Date(Date.now() - 4_000))).challenge;
    expect([fromApi.body.challenge.split(".")[0], aged.split(".")[0]]).toEqual(["c1", "c1"]);
    for (const challenge of [fromApi.body.challenge, aged]) {
      const res = await send({ email: "api-challenge@example.org", challenge });
      expect(res.status).toBe(403);
      expect(res.text).not.toContain(`value="${challenge}"`);
      expect(res.text).toMatch(/name="challenge" value="p1\./);
    }
    expect(await stored("api-challenge@example.org")).toBe(0);
    // With its work done, an API challenge is as good as any.
    const solved = { email: "api-solved@example.org", challenge: aged, nonce: solveChallenge(aged, 8) };
    expect((await send(solved)).status).toBe(201);
  });

  it("refuses a form with no challenge, or with the honeypot filled", async () => {
    expect((await send({ email: "none@example.org" })).status).toBe(403);
    const aged = (await issueChallenge(bots.db, 8, new Date(Date.now() - 4_000), "page")).challenge;
    expect((await send({ email: "honey@example.org", challenge: aged, website: "http://spam" })).status).toBe(403);
    expect(await stored("none@example.org")).toBe(0);
    expect(await stored("honey@example.org")).toBe(0);
  });

  it("keeps the JSON route to the work: no nonce there is 403 CHALLENGE_REQUIRED, however old the challenge, even a page's", async () => {
    const aged = (await issueChallenge(bots.db, 8, new Date(Date.now() - 4_000), "page")).challenge;
    const res = await bots.call("POST", `/api/public/clubs/${botSlug}/join`, {
      key: null,
      body: { tier_id: tier, first_name: "Bo", last_name: "T", email: "json@example.org", payment_method: "bank_transfer", challenge: aged },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("CHALLENGE_REQUIRED");
  });
});
