// The dashboard end to end in Chromium (test/dashboard/browser-harness.ts): elements found by
// role and label, every page checked by axe-core (no serious or critical violation) at 1280 px
// and at 390x844 without horizontal scroll. A page added to the dashboard adds its path to PAGES.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { like } from "drizzle-orm";
import type { Page } from "playwright-core";
import { members } from "../../db/schema";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { DESKTOP, HAS_BROWSER, launch, newPage, noticeText, overflowX, PHONE, seriousViolations, signedIn, signInOn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;

/** Every page of the dashboard a signed-in owner can open, with its heading (`:member` is a member's id). */
const PAGES: { path: string; heading: RegExp }[] = [
  { path: "/admin", heading: /vue d'ensemble/i },
  { path: "/admin/members", heading: /membres/i },
  { path: "/admin/members/new", heading: /ajouter un membre/i },
  { path: "/admin/members/import", heading: /importer des membres/i },
  { path: "/admin/members/:member", heading: /léa rochat/i },
  { path: "/admin/members/:member/edit", heading: /modifier léa rochat/i },
  { path: "/admin/members/:member/erase", heading: /effacer léa rochat/i },
  { path: "/admin/payments/import", heading: /importer un relevé bancaire/i },
];
let memberId = "";

describe.skipIf(!HAS_BROWSER)("dashboard in Chromium", () => {
  beforeAll(async () => {
    env = await setup();
    run = await launch(env);
    memberId = (await seedMember(env, { first_name: "Léa", last_name: "Rochat", email: "lea@test.org" })).id;
    for (let i = 0; i < 60; i++) await seedMember(env, { first_name: `Membre${i}`, last_name: "Dupont-de-la-Tour-Saint-Maurice" });
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });

  it("refuses a wrong password, then signs in and out with the form", async () => {
    const page = await newPage(run.browser, DESKTOP);
    await page.goto(`${run.base}/admin`);
    await signInOn(page, { email: "owner@test.org", password: "not-the-password" });
    expect(await page.getByRole("alert").textContent()).toMatch(/.+/);
    await signInOn(page, { email: "owner@test.org", password: "owner-password" });
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toMatch(/vue d'ensemble/i);
    await page.getByRole("button", { name: /se déconnecter/i }).click();
    await page.waitForLoadState("load");
    expect(page.url()).toEndWith("/admin/login");
    await page.close();
  });

  // One test per page and width (a shared signed-in page per width): the list grows with the dashboard.
  const signedInAt = new Map<number, Promise<Page>>();
  for (const viewport of [DESKTOP, PHONE]) {
    for (const { path, heading } of PAGES) {
      it(`${path} at ${viewport.width} px: its heading, no serious accessibility violation, no horizontal scroll`, async () => {
        if (!signedInAt.has(viewport.width)) signedInAt.set(viewport.width, signedIn(run.browser, run.base, viewport));
        const page = (await signedInAt.get(viewport.width)) as Page;
        await page.goto(`${run.base}${path.replace(":member", memberId)}`);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toMatch(heading);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await overflowX(page)).toBe(0);
      });
    }
  }

  it("adds, edits and erases a member through the forms, found by their labels", async () => {
    const page = await signedIn(run.browser, run.base, PHONE);
    await page.goto(`${run.base}/admin/members`);
    await page.getByRole("link", { name: "Ajouter un membre" }).click();
    await page.getByLabel("Prénom").fill("Jules");
    await page.getByLabel("Nom", { exact: true }).fill("Favre");
    await page.getByLabel("E-mail").fill("jules.favre@test.org");
    await page.getByRole("button", { name: "Ajouter un membre" }).click();
    await page.waitForLoadState("load");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Jules Favre");
    expect(await noticeText(page)).toContain("Membre ajouté.");
    await page.getByRole("link", { name: "Modifier" }).click();
    await page.getByLabel("Prénom").fill("Julien");
    await page.getByRole("button", { name: "Enregistrer" }).click();
    await page.waitForLoadState("load");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Julien Favre");
    await page.getByRole("link", { name: "Effacer" }).click();
    await page.getByLabel(/je comprends/i).check();
    await page.getByRole("button", { name: "Effacer définitivement" }).click();
    await page.waitForLoadState("load");
    expect(page.url()).toContain("/admin/members?done=erased");
    expect(await noticeText(page)).toContain("Membre effacé.");
    expect(await overflowX(page)).toBe(0);
    await page.close();
  });

  it("searches the roster with htmx, without reloading the page", async () => {
    const page = await signedIn(run.browser, run.base, DESKTOP);
    await page.goto(`${run.base}/admin/members`);
    await page.evaluate("window.__marker = 1");
    await page.getByLabel("Rechercher").fill("rochat");
    await page.getByRole("button", { name: "Filtrer" }).click();
    await page.waitForURL(/search=rochat/);
    await page.getByRole("link", { name: /rochat léa/i }).waitFor();
    expect(await page.getByRole("table").getByRole("row").count()).toBe(2);
    // Still the same document: htmx swapped the results in.
    expect(await page.evaluate("window.__marker")).toBe(1);
    await page.close();
  });

  it("imports a 300-line spreadsheet with two typos: preview, import the 298 good lines, then the 2 fixed ones (htmx keeps the chosen file)", async () => {
    const sheet = (fixed: boolean) =>
      Buffer.from(
        [
          "Prénom;Nom;E-mail;Fin d'adhésion",
          ...Array.from({ length: 300 }, (_, i) => {
            const n = i + 1;
            if (!fixed && n === 17) return `Anna;Typo;saison-${n}(at)test.org;30.06.2027`;
            if (!fixed && n === 254) return `Bruno;Typo;saison-${n}@test.org;31.02.2027`;
            return `Membre${n};Saison;saison-${n}@test.org;30.06.2027`;
          }),
        ].join("\r\n"),
      );
    const imported = async () => (await env.db.read.select({ id: members.id }).from(members).where(like(members.email, "saison-%"))).length;
    const page = await signedIn(run.browser, run.base, PHONE);
    await page.goto(`${run.base}/admin/members/import`);
    await page.getByLabel("Fichier CSV").setInputFiles({ name: "saison.csv", mimeType: "text/csv", buffer: sheet(false) });
    await page.getByRole("button", { name: "Aperçu" }).click();
    await page.getByRole("table", { name: "Lignes en erreur" }).waitFor();
    expect(await noticeText(page)).toContain("298 à créer");
    expect(await page.getByRole("table", { name: "Lignes en erreur" }).textContent()).toContain("saison-17(at)test.org");
    expect(await seriousViolations(page)).toEqual([]);
    expect(await overflowX(page)).toBe(0);
    expect(await page.getByRole("link", { name: "Corriger et téléverser à nouveau" }).count()).toBe(1);
    await page.getByRole("button", { name: "Importer les 298 lignes correctes (ignorer 2)" }).click();
    await page.getByRole("heading", { name: "Import terminé" }).waitFor();
    expect(await noticeText(page)).toBe("Écrit : 298 membres créés, 0 mis à jour. 2 lignes en erreur ignorées, ci-dessous.");
    expect(await imported()).toBe(298);
    expect(await seriousViolations(page)).toEqual([]);
    // Fixed in the spreadsheet, chosen again: the 298 already there are left as they are, the 2 are created.
    await page.getByLabel("Fichier CSV").setInputFiles({ name: "saison.csv", mimeType: "text/csv", buffer: sheet(true) });
    await page.getByRole("button", { name: "Aperçu" }).click();
    await page.getByRole("button", { name: "Importer les 2 lignes" }).click();
    await page.getByRole("heading", { name: "Import terminé" }).waitFor();
    expect(await noticeText(page)).toBe("Écrit : 2 membres créés, 0 mis à jour. 298 lignes sans changement.");
    expect(await imported()).toBe(300);
    await page.close();
  });

  it("shows a read-only admin no edit action", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const page = await signedIn(run.browser, run.base, PHONE, { email: ro.email, password: "admin-password" });
    await page.goto(`${run.base}/admin/members/${memberId}`);
    expect(await page.getByText("Lecture seule").count()).toBe(1);
    expect(await page.getByRole("button", { name: /suspendre|prolonger|enregistrer/i }).count()).toBe(0);
    expect(await page.getByRole("link", { name: /modifier|effacer/i }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
