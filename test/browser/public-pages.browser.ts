// The join page and the event page in headless Chromium at 390x844 (a phone): each form filled
// in and sent as a person does (the page's script solving the proof of work of lib/forms, at 12
// bits), the answer pages, then the same forms with JavaScript off (the no-script rule). Each page
// is screenshot to /tmp and checked by axe-core (no serious or critical violation) and for
// horizontal scrolling. Not part of `bun test` (it needs Debian's chromium):
// `bun test/browser/public-pages.browser.ts`.
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { clubs, eventRegistrations, members } from "../../db/schema";
import { setup } from "../helpers";
import { insertMember } from "../events-fixtures";
import { setCustomFields } from "../members-fixtures";
import { launch, overflowX, PHONE, seriousViolations } from "../dashboard/browser-harness";

const env = await setup({ PUBLIC_FORM_POW_BITS: "12" });

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
const [{ slug }] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
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
const event = (
  await env.call("POST", `/api/clubs/${env.clubId}/events`, {
    body: {
      title: "Soirée d'été au chalet",
      starts_at: "2099-07-01T16:30:00Z",
      ends_at: "2099-07-01T21:00:00Z",
      location_name: "Chalet des Alpes",
      location_address: "Chemin du Col 12, 1884 Villars",
      description: "Fondue, musique et coucher de soleil.\nPensez à une lampe frontale pour le retour.",
      capacity: 60,
      tickets: [
        { name: "Membre", member_price_cents: 0 },
        { name: "Invité", member_price_cents: 2000, non_member_price_cents: 3500 },
      ],
    },
  })
).body;
const eventPath = new URL(event.public_url).pathname;

const { browser, base, close } = await launch(env);
let failed = false;

/** Screenshot, axe-core and the width check of the page as it is now. */
async function check(page: Page, name: string, javaScript = true): Promise<void> {
  await page.screenshot({ path: `/tmp/public-${name}.png`, fullPage: true });
  if (!javaScript) {
    // axe runs as a script: without JavaScript the screenshot is all (the same markup passed above).
    console.log(name, "| screenshot only (no script to run axe)");
    return;
  }
  const serious = await seriousViolations(page);
  const overflow = await overflowX(page);
  console.log(name, "| serious or critical:", serious.join(", ") || "none", "| horizontal overflow", overflow);
  if (serious.length || overflow > 0) failed = true;
}

async function newPage(javaScript = true): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, javaScriptEnabled: javaScript });
  return context.newPage();
}

// The join page, in French then in English; a refusal (no size), then a join that succeeds.
{
  const page = await newPage();
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${base}/join/${slug}`);
  await check(page, "join-fr");
  await page.goto(`${base}/join/${slug}?lang=en`);
  await check(page, "join-en");
  await page.getByLabel("Adulte").check();
  await page.getByLabel("First name").fill("Léa");
  await page.getByLabel("Last name").fill("Rochat");
  await page.getByLabel("Email address").fill("lea@example.org");
  await page.getByRole("button", { name: "Join" }).click();
  await page.waitForLoadState("load");
  await check(page, "join-refused");
  await page.getByLabel("Taille du t-shirt").selectOption("M");
  await page.getByRole("button", { name: "Join" }).click();
  await page.waitForSelector("text=One last step: the payment");
  await check(page, "join-payment");
  const [m] = await env.db.read.select().from(members).where(eq(members.email, "lea@example.org"));
  console.log("joined:", m?.payment_status, m?.custom_fields, "| console errors:", errors.length ? errors : "none");
  if (m?.payment_status !== "pending") failed = true;
  // The CSP let the page's one script run (no violation reported).
  if (errors.some((e) => e.includes("Content Security Policy"))) failed = true;
  await page.context().close();
}

// The event page; a guest registration (pending), then a free member ticket refused without a code.
{
  const page = await newPage();
  await page.goto(`${base}${eventPath}`);
  await check(page, "event");
  await page.getByLabel(/^Invité/).check();
  await page.getByLabel("Prénom").fill("Marc");
  await page.getByLabel("Nom", { exact: true }).fill("Dubois");
  await page.getByLabel("Adresse e-mail").fill("marc@example.org");
  await page.getByRole("button", { name: "S'inscrire" }).click();
  await page.waitForSelector("text=Place réservée");
  await check(page, "event-pending");
  await page.context().close();
}

// A member takes the free member ticket with their card code: confirmed, with the ticket's QR code.
{
  const member = await insertMember(env, { first: "Paul" });
  const page = await newPage();
  await page.goto(`${base}${eventPath}?lang=en`);
  await page.getByLabel(/^Membre/).check();
  await page.getByLabel("First name").fill("Paul");
  await page.getByLabel("Last name").fill("Favre");
  await page.getByLabel("Email address").fill("paul@example.org");
  await page.getByLabel(/membership card code/).fill(member.referral_code);
  await page.getByRole("button", { name: "Register" }).click();
  await page.waitForSelector("text=You are registered");
  await check(page, "event-confirmed");
  await page.context().close();
}

// Without JavaScript: the forms still work once the page has been open a few seconds.
{
  const page = await newPage(false);
  await page.goto(`${base}${eventPath}?lang=de`);
  await page.getByLabel(/^Invité/).check();
  await page.getByLabel("Vorname").fill("Anna");
  await page.getByLabel("Nachname").fill("Keller");
  await page.getByLabel("E-Mail-Adresse").fill("anna@example.org");
  await Bun.sleep(3_200);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await page.waitForSelector("text=Platz reserviert");
  await check(page, "event-noscript", false);
  const regs = await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.email, "anna@example.org"));
  console.log("registered without script:", regs[0]?.status);
  if (regs.length !== 1) failed = true;
  await page.context().close();
}

await close();
await env.close();
console.log(failed ? "FAILED" : "ok");
process.exit(failed ? 1 : 0);
