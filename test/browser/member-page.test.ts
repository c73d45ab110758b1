// The member's page (/m/<manage_token>) end to end in Chromium at 390x844 (a phone), through
// test/dashboard/browser-harness.ts: in French and in English, with the bank-transfer details
// shown, no serious or critical axe-core violation and no horizontal scroll; its plain forms
// (name correction, automatic renewal off) filled by label and sent as a person does, and the
// database holds the change. SHOTS_DIR=<dir> also saves a screenshot of each page.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { clubs } from "../../db/schema";
import { freePort, HAS_BROWSER, launch, pageCheck, phonePage as openPhonePage } from "../dashboard/browser-harness";
import { setup } from "../helpers";
import { memberRow, pageTokenOf, seedMember } from "../members-fixtures";
import { type FakeStripe, fakeStripe } from "../stripe-fake";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;

const phonePage = (): Promise<Page> => openPhonePage(run.browser);

const clean = (name: string) => ({ name, violations: [], overflow: 0 });

async function clubIn(locale: "fr" | "en"): Promise<void> {
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({
        locale,
        name: locale === "fr" ? "Club Alpin Lausanne" : "Alpine Club",
        primary_color: "#0B5394",
        secondary_color: "#F59E0B",
        payout_iban: "CH9300762011623852957",
        payout_beneficiary_name: "Club Alpin",
        membership_fee_cents: 6000,
      })
      .where(eq(clubs.id, env.clubId)),
  );
}

describe.skipIf(!HAS_BROWSER)("member page in Chromium", () => {
  beforeAll(async () => {
    // The forms answer a redirect to BASE_URL, which the page's CSP (form-action) lets through
    // only to its own address: the server's.
    const port = freePort();
    env = await setup({ BASE_URL: `http://127.0.0.1:${port}` });
    run = await launch(env, port);
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });

  for (const locale of ["fr", "en"] as const) {
    it(`shows the renewal by bank transfer without a serious accessibility violation at 390 px (${locale})`, async () => {
      await clubIn(locale);
      const m = await seedMember(env, { first_name: "Léa", last_name: "Rochat", email: `lea-${locale}@test.org`, payment_mode: "subscription" });
      const page = await phonePage();
      await page.goto(`${run.base}/m/${pageTokenOf(m)}`);
      await page.getByRole("button", { name: locale === "fr" ? "Payer par virement bancaire" : "Pay by bank transfer" }).click();
      await page.waitForURL(/renew=bank_transfer/);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Léa Rochat");
      expect(await page.getByRole("heading", { name: locale === "fr" ? "Virement bancaire" : "Bank transfer" }).count()).toBe(1);
      expect(await page.locator("main").textContent()).toContain("CH9300762011623852957");
      expect(await pageCheck(page, `member-${locale}`)).toEqual(clean(`member-${locale}`));
      await page.close();
    });
  }

  it("corrects the name and turns automatic renewal off through the page's forms (stored, said on the page)", async () => {
    await clubIn("en");
    const m = await seedMember(env, { first_name: "Lea", last_name: "Rochat", payment_mode: "subscription" });
    const page = await phonePage();
    await page.goto(`${run.base}/m/${pageTokenOf(m)}`);
    await page.getByLabel("First name").fill("Léa");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/done=name/);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Léa Rochat");
    expect(await page.getByText("Your name has been corrected.").count()).toBe(1);
    expect((await memberRow(env, m.id)).first_name).toBe("Léa");

    await page.getByRole("button", { name: "Turn automatic renewal off" }).click();
    await page.waitForURL(/done=auto_renewal/);
    expect(await page.getByRole("button", { name: "Turn automatic renewal back on" }).count()).toBe(1);
    expect((await memberRow(env, m.id)).renewal_opt_out_at).not.toBeNull();
    expect(await pageCheck(page, "member-done")).toEqual(clean("member-done"));
    await page.close();
  });
});

describe.skipIf(!HAS_BROWSER)("member page in Chromium: paying by card", () => {
  let cardEnv: Env;
  let cardRun: Awaited<ReturnType<typeof launch>>;
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await fakeStripe();
    const port = freePort();
    cardEnv = await setup({ ...stripe.env, BASE_URL: `http://127.0.0.1:${port}` });
    cardRun = await launch(cardEnv, port);
  });
  afterAll(async () => {
    await cardRun?.close();
    await cardEnv?.close();
    stripe?.stop();
  });

  it("the card button is a form whose redirect to Stripe's page the page's CSP lets through (no Checkout opened by a link)", async () => {
    await cardEnv.db.tx((t) =>
      t
        .update(clubs)
        .set({ locale: "en", payout_iban: "CH9300762011623852957", membership_fee_cents: 6000, payment_methods_enabled: ["stripe", "bank_transfer"] })
        .where(eq(clubs.id, cardEnv.clubId)),
    );
    const m = await seedMember(cardEnv, { first_name: "Léa", last_name: "Rochat" });
    const page = await openPhonePage(cardRun.browser);
    const refusedByCsp: string[] = [];
    page.on("console", (msg) => {
      if (/form-action|Content Security Policy/i.test(msg.text())) refusedByCsp.push(msg.text());
    });
    await page.goto(`${cardRun.base}/m/${pageTokenOf(m)}`);
    expect(await page.locator('a[href*="renew=stripe"]').count()).toBe(0);
    // Stripe's (fake) page lives at a host that does not resolve: the browser's attempt to go there is what counts.
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith("https://checkout.stripe.test/")),
      page.getByRole("button", { name: "Pay by card" }).click(),
    ]);
    expect(stripe.sessionOf(request.url()).metadata).toMatchObject({ member_id: m.id, purpose: "membership" });
    expect(refusedByCsp).toEqual([]);
    await page.close();
  });
});
