// The join page and the event page end to end in Chromium at 390x844 (a phone), through
// test/dashboard/browser-harness.ts: each page and each answer (the join refused, its
// bank-transfer answer, the event's pending and confirmed answers, the no-JavaScript path) has no
// serious or critical axe-core violation and no horizontal scroll; the forms are filled by label
// and sent as a person does, the page's script solving the proof of work of lib/forms (8 bits
// here, so the test stays quick), and the database holds what was sent. SHOTS_DIR=<dir> also
// saves a screenshot of each page.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { clubs, eventRegistrations, members } from "../../db/schema";
import { HAS_BROWSER, launch, pageCheck, phonePage as openPhonePage } from "../dashboard/browser-harness";
import { createEventVia, insertMember } from "../events-fixtures";
import { setup } from "../helpers";
import { setCustomFields } from "../members-fixtures";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;
let slug = "";
let eventPath = "";

const clean = (name: string) => ({ name, violations: [], overflow: 0 });
const phonePage = (javaScriptEnabled = true): Promise<Page> => openPhonePage(run.browser, { javaScriptEnabled });

/** Records the forms the page posts; `.bits()` is the work the last one carried (leading zero bits of SHA-256(challenge + nonce)). */
function postsOf(page: Page) {
  const bodies: URLSearchParams[] = [];
  page.on("request", (r) => r.method() === "POST" && bodies.push(new URLSearchParams(r.postData() ?? "")));
  return {
    bits(): number {
      const form = bodies.at(-1);
      if (!form?.get("nonce")) return 0;
      const hash = new Bun.CryptoHasher("sha256").update(`${form.get("challenge")}${form.get("nonce")}`).digest();
      let bits = 0;
      for (const byte of hash) {
        bits += byte ? Math.clz32(byte) - 24 : 8;
        if (byte) break;
      }
      return bits;
    },
  };
}

const registrationOf = async (email: string) => (await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.email, email)))[0];

describe.skipIf(!HAS_BROWSER)("join and event pages in Chromium", () => {
  beforeAll(async () => {
    env = await setup({ PUBLIC_FORM_POW_BITS: "8" });
    await env.db.tx((t) =>
      t
        .update(clubs)
        .set({
          name: "Club Alpin Lausanne",
          description: "Randonnées, courses et soirées en montagne depuis 1902.",
          primary_color: "#0B5394",
          secondary_color: "#F59E0B",
          payout_iban: "CH9300762011623852957",
          payout_bic: "POFICHBEXXX",
          payout_beneficiary_name: "Club Alpin Lausanne",
          country: "CH",
        })
        .where(eq(clubs.id, env.clubId)),
    );
    [{ slug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
    for (const tier of [
      { name: "Adulte", price_cents: 6000, description: "Toutes les sorties et le bulletin." },
      { name: "Jeune (moins de 25 ans)", price_cents: 3000 },
      { name: "Famille", price_cents: 9000 },
    ])
      await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { ...tier, duration_months: 12 } });
    await setCustomFields(env, [
      { key: "size", label: "Taille du t-shirt", required: true, options: ["S", "M", "L", "XL"] },
      { key: "phone", label: "Téléphone" },
    ]);
    const event = await createEventVia(env, {
      title: "Soirée d'été au chalet",
      starts_at: "2099-07-01T16:30:00Z",
      tickets: [
        { name: "Membre", member_price_cents: 0 },
        { name: "Invité", member_price_cents: 2000, non_member_price_cents: 3500 },
      ],
      location_name: "Chalet des Alpes",
      description: "Fondue, musique et coucher de soleil.\nPensez à une lampe frontale pour le retour.",
      capacity: 60,
    });
    eventPath = new URL(event.public_url).pathname;
    run = await launch(env);
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });

  it("join page: refused without a required field, then sent (proof of work in the page), a pending member and the bank-transfer answer", async () => {
    const page = await phonePage();
    const posts = postsOf(page);
    const cspErrors: string[] = [];
    page.on("console", (m) => m.type() === "error" && m.text().includes("Content Security Policy") && cspErrors.push(m.text()));
    await page.goto(`${run.base}/join/${slug}`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Devenir membre");
    expect(await pageCheck(page, "join-fr")).toEqual(clean("join-fr"));
    await page.goto(`${run.base}/join/${slug}?lang=en`);
    expect(await pageCheck(page, "join-en")).toEqual(clean("join-en"));

    await page.getByLabel("Adulte").check();
    await page.getByLabel("First name").fill("Léa");
    await page.getByLabel("Last name").fill("Rochat");
    await page.getByLabel("Email address").fill("lea@example.org");
    await page.getByRole("button", { name: "Join" }).click();
    await page.waitForLoadState("load");
    // Refused (the t-shirt size is required): nobody stored, the form still filled in.
    expect(await page.getByLabel("Email address").inputValue()).toBe("lea@example.org");
    expect(await env.db.read.select().from(members).where(eq(members.email, "lea@example.org"))).toEqual([]);
    expect(await pageCheck(page, "join-refused")).toEqual(clean("join-refused"));

    await page.getByLabel("Taille du t-shirt").selectOption("M");
    await page.getByRole("button", { name: "Join" }).click();
    await page.getByText("One last step: the payment").waitFor();
    expect(posts.bits()).toBeGreaterThanOrEqual(8);
    expect(((await page.locator("main").textContent()) ?? "").replace(/\s/g, "")).toContain("CH9300762011623852957");
    expect(await pageCheck(page, "join-payment")).toEqual(clean("join-payment"));
    const [m] = await env.db.read.select().from(members).where(eq(members.email, "lea@example.org"));
    expect({ first: m.first_name, last: m.last_name, payment: m.payment_status, fields: m.custom_fields }).toEqual({
      first: "Léa",
      last: "Rochat",
      payment: "pending",
      fields: { size: "M" },
    });
    // The CSP let the page's one script run.
    expect(cspErrors).toEqual([]);
    await page.close();
  });

  it("event page: a guest's registration is pending (in French), a member's free ticket with their card code is confirmed", async () => {
    const page = await phonePage();
    const posts = postsOf(page);
    await page.goto(`${run.base}${eventPath}`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain("Soirée d'été au chalet");
    expect(await pageCheck(page, "event")).toEqual(clean("event"));
    await page.getByLabel(/^Invité/).check();
    await page.getByLabel("Prénom").fill("Marc");
    await page.getByLabel("Nom", { exact: true }).fill("Dubois");
    await page.getByLabel("Adresse e-mail").fill("marc@example.org");
    await page.getByRole("button", { name: "S'inscrire" }).click();
    await page.getByText("Place réservée").waitFor();
    expect(posts.bits()).toBeGreaterThanOrEqual(8);
    expect(await pageCheck(page, "event-pending")).toEqual(clean("event-pending"));
    expect(await registrationOf("marc@example.org")).toMatchObject({ first_name: "Marc", status: "pending", member_id: null });

    const member = await insertMember(env, { first: "Paul" });
    await page.goto(`${run.base}${eventPath}?lang=en`);
    await page.getByLabel(/^Membre/).check();
    await page.getByLabel("First name").fill("Paul");
    await page.getByLabel("Last name").fill("Favre");
    await page.getByLabel("Email address").fill("paul@example.org");
    await page.getByLabel(/membership card code/).fill(member.referral_code);
    await page.getByRole("button", { name: "Register" }).click();
    await page.getByText("You are registered").waitFor();
    expect(posts.bits()).toBeGreaterThanOrEqual(8);
    expect(await page.getByRole("img").count()).toBeGreaterThan(0);
    expect(await pageCheck(page, "event-confirmed")).toEqual(clean("event-confirmed"));
    expect(await registrationOf("paul@example.org")).toMatchObject({ status: "confirmed", member_id: member.id });
    await page.close();
  });

  it("event form without JavaScript: sent once the page has been open a few seconds, a pending registration", async () => {
    const page = await phonePage(false);
    await page.goto(`${run.base}${eventPath}?lang=de`);
    await page.getByLabel(/^Invité/).check();
    await page.getByLabel("Vorname").fill("Anna");
    await page.getByLabel("Nachname").fill("Keller");
    await page.getByLabel("E-Mail-Adresse").fill("anna@example.org");
    // The no-script rule of lib/forms: a form sent sooner than this after the page is refused.
    await Bun.sleep(3_200);
    await page.getByRole("button", { name: "Anmelden" }).click();
    await page.getByText("Platz reserviert").waitFor();
    expect(await registrationOf("anna@example.org")).toMatchObject({ first_name: "Anna", status: "pending" });
    // axe-core never finishes in a page whose JavaScript is off (its timers do not run): the same
    // answer's markup is checked in a page with JavaScript, served at the same address.
    const [url, html] = [page.url(), await page.content()];
    const twin = await phonePage();
    await twin.route(url, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
    await twin.goto(url);
    expect(await twin.getByText("Platz reserviert").count()).toBeGreaterThan(0);
    expect(await pageCheck(twin, "event-noscript")).toEqual(clean("event-noscript"));
    await twin.close();
    await page.close();
  });
});
