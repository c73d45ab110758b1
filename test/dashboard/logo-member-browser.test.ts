// The logo and the member page in Chromium (issue 32; test/dashboard/browser-harness.ts): the
// logo chosen in the settings' file field and uploaded, then seen loaded on the settings page and
// on the member's web card; on the member page, the card sent by email, a payment recorded with a
// method picked from the list, and the link to the member's card followed. axe-core finds no
// serious violation and nothing scrolls sideways, at 1280 and 390 px. SHOTS_DIR=<dir> saves a
// screenshot of each page at each width.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, members, payments } from "../../db/schema";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { DESKTOP, freePort, HAS_BROWSER, launch, logoPng, noticeText, PHONE, pageCheck, signedIn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;

/** Whether the image `selector` shows on the page: loaded, with pixels. */
const loaded = (page: import("playwright-core").Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

describe.skipIf(!HAS_BROWSER)("the logo and the member page in Chromium", () => {
  beforeAll(async () => {
    // BASE_URL is the server's own address: the logo's address and the card's link lead back to it.
    const port = freePort();
    env = await setup({ BASE_URL: `http://127.0.0.1:${port}` });
    run = await launch(env, port);
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });

  it("uploads the logo from the settings page; it shows there and on the member's card", async () => {
    const page = await signedIn(run.browser, run.base, DESKTOP);
    await page.goto(`${run.base}/admin/settings`);
    const logo = await logoPng();
    await page.getByLabel("Image du logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
    await page.getByRole("button", { name: "Envoyer le logo" }).click();
    await page.waitForLoadState("load");
    expect(await noticeText(page)).toBe("Réglages enregistrés.");
    expect(await loaded(page, "img.logo-preview")).toBe(true);
    const [club] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expect(club.logo_url).toStartWith(`${run.base}/logos/${env.clubId}/logo.png?v=`);
    expect(await pageCheck(page, "settings-logo-1280")).toEqual({ name: "settings-logo-1280", violations: [], overflow: 0 });
    const m = await seedMember(env, { first_name: "Lina", last_name: "Logo" });
    await page.goto(`${run.base}/c/${m.pass_serial_number}`);
    expect(await loaded(page, "img.logo")).toBe(true);
    expect(await pageCheck(page, "web-card-logo-1280")).toEqual({ name: "web-card-logo-1280", violations: [], overflow: 0 });
    await page.close();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`the member page at ${viewport.width} px: sends the card, records a payment by a method from the list, opens the card`, async () => {
      const m = await seedMember(env, { first_name: "Maxime", last_name: `Membre ${viewport.width}`, payment_status: "pending" });
      const page = await signedIn(run.browser, run.base, viewport);
      page.setDefaultTimeout(15_000);
      await page.goto(`${run.base}/admin/members/${m.id}`);
      const name = `member-${viewport.width}`;
      expect(await pageCheck(page, name)).toEqual({ name, violations: [], overflow: 0 });

      await page.getByRole("button", { name: "Envoyer la carte par e-mail" }).click();
      await page.waitForLoadState("load");
      expect(await noticeText(page)).toBe("Carte envoyée par e-mail.");
      expect((await env.db.read.select().from(members).where(eq(members.id, m.id)))[0].card_email_sent_at).toBeString();

      const form = page.locator("form", { has: page.getByRole("heading", { name: "Enregistrer un paiement" }) });
      await form.getByLabel(/^Montant/).fill("45");
      await form.getByLabel("Moyen").selectOption({ label: "Espèces" });
      await form.getByRole("button", { name: "Enregistrer un paiement" }).click();
      await page.waitForLoadState("load");
      expect(await noticeText(page)).toBe("Paiement enregistré.");
      expect((await env.db.read.select().from(payments).where(eq(payments.member_id, m.id)))[0]).toMatchObject({ amount_cents: 4500, method: "cash" });
      const after = `member-paid-${viewport.width}`;
      expect(await pageCheck(page, after)).toEqual({ name: after, violations: [], overflow: 0 });

      await page.getByRole("link", { name: "Ouvrir la carte" }).click();
      await page.waitForLoadState("load");
      expect(page.url()).toBe(`${run.base}/c/${m.pass_serial_number}`);
      expect(await page.getByText(`Maxime Membre ${viewport.width}`).count()).toBeGreaterThan(0);
      await page.goBack();
      // Opened at an address of the admin's (the member's token is kept as a hash).
      await page.getByRole("button", { name: "Ouvrir la page du membre" }).click();
      await page.waitForURL(/\/m\/\w{32}$/);
      expect(page.url()).toStartWith(`${run.base}/m/`);
      expect(await loaded(page, "img.logo")).toBe(true);
      const own = `member-own-page-${viewport.width}`;
      expect(await pageCheck(page, own)).toEqual({ name: own, violations: [], overflow: 0 });
      await page.close();
    }, 60_000);
  }

  it("the settings page at 390 px with a logo", async () => {
    const page = await signedIn(run.browser, run.base, PHONE);
    await page.goto(`${run.base}/admin/settings`);
    expect(await loaded(page, "img.logo-preview")).toBe(true);
    expect(await pageCheck(page, "settings-logo-390")).toEqual({ name: "settings-logo-390", violations: [], overflow: 0 });
    await page.close();
  });
});
