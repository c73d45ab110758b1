// The admin pages (settings, card appearance, API keys, webhooks, audit log, finances) end to end in
// Chromium (test/dashboard/browser-harness.ts): elements found by role and label, axe-core finds
// no serious or critical violation at 1280 px and at 390x844 (no horizontal scroll there), a key
// created in the page works over the API and is refused (401) once revoked there, and the card's
// preview follows a colour typed before it is saved. SHOTS_DIR=<dir> also saves a screenshot of
// each page at each width (to look at them).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { clubs } from "../../db/schema";
import { setup } from "../helpers";
import { DESKTOP, HAS_BROWSER, launch, noticeText, overflowX, PHONE, seriousViolations, signedIn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;
let hookId = "";
const SHOTS = process.env.SHOTS_DIR;

const PAGES = () => [
  { name: "settings", path: "/admin/settings", heading: /réglages/i },
  { name: "card", path: "/admin/settings/card", heading: /apparence de la carte/i },
  { name: "keys", path: "/admin/keys", heading: /clés d'api/i },
  { name: "webhooks", path: "/admin/webhooks", heading: /webhooks/i },
  { name: "webhook", path: `/admin/webhooks/${hookId}`, heading: /hooks\.example\.org/i },
  { name: "audit", path: "/admin/audit", heading: /journal/i },
  { name: "finances", path: "/admin/finances", heading: /finances/i },
];

/** How many rows the navigation's entries take. */
const navRows = (page: Page) =>
  page.evaluate(() => new Set([...document.querySelectorAll(".nav a")].map((a) => Math.round(a.getBoundingClientRect().top))).size);

describe.skipIf(!HAS_BROWSER)("admin pages in Chromium", () => {
  beforeAll(async () => {
    env = await setup();
    run = await launch(env);
    // Something in each list: a key, a webhook with a test delivery, audit rows.
    await env.makeKey({ members: "view" });
    const hook = await env.call("POST", `/api/clubs/${env.clubId}/webhooks`, {
      body: { url: "https://hooks.example.org/club", events: ["*"], description: "Newsletter" },
    });
    hookId = hook.body.id;
    await env.call("POST", `/api/clubs/${env.clubId}/webhooks/${hookId}/test`);
    await env.call("PUT", `/api/clubs/${env.clubId}`, {
      body: { card_back_fields: [{ type: "text", label: "Piscine", value: "Entrée libre", is_perk: true }], card_welcome_message: "Bienvenue au club !" },
    });
    // A payment in the ledger (and so in the journal's totals by account).
    const member = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Léa", last_name: "Rochat", email: "lea.rochat@example.org", membership_end: "2030-01-01" },
    });
    await env.call("POST", `/api/clubs/${env.clubId}/members/${member.body.id}/actions/mark-paid`, { body: { amount_cents: 5000, reason: "Payé au local" } });
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`renders each admin page without a serious accessibility violation at ${viewport.width} px`, async () => {
      const page: Page = await signedIn(run.browser, run.base, viewport);
      for (const { name, path, heading } of PAGES()) {
        await page.goto(`${run.base}${path}`);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toMatch(heading);
        expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
        expect({ path, overflow: await overflowX(page) }).toEqual({ path, overflow: 0 });
        // At 1280 px the navigation is one row (in French, the club's language here; the others below).
        if (viewport === DESKTOP) expect({ path, rows: await navRows(page) }).toEqual({ path, rows: 1 });
        if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}-${viewport.width}.png`), fullPage: true });
      }
      await page.close();
    });
  }

  it("keeps the navigation on one row at 1280 px in each of the club's languages, whichever entry is current (bold)", async () => {
    try {
      for (const locale of ["fr", "it", "en", "de"]) {
        await env.db.tx((t) => t.update(clubs).set({ locale }).where(eq(clubs.id, env.clubId)));
        const page = await signedIn(run.browser, run.base, DESKTOP);
        for (const path of ["/admin/events", "/admin/mailings", "/admin/settings", "/admin/keys"]) {
          await page.goto(`${run.base}${path}`);
          expect({ locale, path, lang: await page.getAttribute("html", "lang"), rows: await navRows(page) }).toEqual({ locale, path, lang: locale, rows: 1 });
        }
        if (SHOTS) await page.screenshot({ path: join(SHOTS, `nav-${locale}-1280.png`) });
        await page.close();
      }
    } finally {
      await env.db.tx((t) => t.update(clubs).set({ locale: "fr" }).where(eq(clubs.id, env.clubId)));
    }
    // Four sign-ins and sixteen pages: past the suite's 30 s on a busy machine, and a timed-out
    // test has its browser killed under the tests after it.
  }, 120_000);

  it("creates a key with the scope picker, shows it once, and revokes it (then 401 over the API)", async () => {
    const page = await signedIn(run.browser, run.base, PHONE);
    await page.goto(`${run.base}/admin/keys`);
    await page.getByLabel("Nom", { exact: true }).fill("Navigateur");
    await page.getByRole("group", { name: "Membres" }).getByLabel("Modification").check();
    await page.getByRole("group", { name: "Événements" }).getByLabel("Lecture").check();
    await page.getByRole("button", { name: "Créer la clé" }).click();
    await page.waitForLoadState("load");
    const key = (await page.locator("#new-key-value").textContent())!.trim();
    expect(key).toStartWith("mk_live_");
    expect(await page.getByRole("button", { name: "Copier la clé" }).isVisible()).toBe(true);
    expect((await env.call("GET", "/api/auth/me", { key })).status).toBe(200);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, "key-created-390.png"), fullPage: true });

    // Shown once: the page loaded again has no key.
    await page.goto(`${run.base}/admin/keys`);
    expect(await page.locator("#new-key-value").count()).toBe(0);
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: /Révoquer la clé Navigateur/ }).click();
    await page.waitForLoadState("load");
    expect(await noticeText(page)).toContain("Clé révoquée");
    expect((await env.call("GET", "/api/auth/me", { key })).status).toBe(401);
    await page.close();
  });

  it("updates the card's preview as a colour is typed, before saving", async () => {
    const page = await signedIn(run.browser, run.base, DESKTOP);
    await page.goto(`${run.base}/admin/settings/card`);
    const frame = page.getByTitle("Aperçu de la carte d'un membre");
    expect(await frame.getAttribute("src")).toContain("primary_color=%231F2937");
    const asked = page.waitForRequest((r) => r.url().includes("/admin/settings/card/preview"));
    const drawn = page.waitForResponse((r) => r.url().includes("/admin/settings/card/frame") && r.url().includes("Salut"));
    await page.getByLabel("Message de bienvenue").fill("Salut la compagnie");
    await page.getByLabel("Couleur de fond").fill("#7b1fa2");
    expect((await drawn).status()).toBe(200);
    // The CSRF token stays out of the addresses (logs, history): the preview is a GET.
    expect((await asked).url()).not.toContain("_csrf");
    await page.waitForLoadState("load");
    const frameOf = () => page.frames().find((f) => f.url().includes("Salut") && f.url().includes("7b1fa2"));
    await page.waitForFunction(() => document.querySelector("iframe.card-preview")?.getAttribute("src")?.includes("7b1fa2"));
    await page.waitForTimeout(300);
    const html = await frameOf()!.content();
    expect(html).toContain("Salut la compagnie");
    expect(html).toContain("--primary:#7b1fa2");
    // Nothing saved.
    expect((await env.call("GET", `/api/clubs/${env.clubId}`)).body.card_welcome_message).toBe("Bienvenue au club !");
    if (SHOTS) await page.screenshot({ path: join(SHOTS, "card-preview-1280.png"), fullPage: true });
    await page.close();
  });
});
