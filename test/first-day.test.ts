// The secretary's first day, end to end (issue 32's "done when"): the real server process started
// as the README starts it, on a fresh database, its mail to a real local SMTP server; then, in
// Chromium, only what a person does with what the first start printed: the sign-in link, a
// password, the club's logo, a tier, a spreadsheet of 300 of last season's members with two bad
// lines (the 298 good ones imported, with the tier), an event typed at 19:00 local time, and a
// member's card sent by mail. Each step is checked on the page, in the database and in the mail
// received. SHOTS_DIR=<dir> saves a screenshot of each page.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { type Db, openDb } from "../db";
import { clubs, events, members, tiers } from "../db/schema";
import { HAS_BROWSER, launchChromium, logoPng, newPage, noticeText, pageCheck } from "./dashboard/browser-harness";
import { freshDatabaseUrl } from "./databases";
import { type ServerProcess, startServer } from "./reliability/server-process";
import { header, startSmtp, type TestSmtp } from "./smtp";

const OWNER = "secretary@club.test";
const PASSWORD = "our club's own password";
const dir = mkdtempSync(join(tmpdir(), "club-first-day-"));

/** Last season's spreadsheet as a secretary has it: 300 members, two of them with a mistake. */
function spreadsheet(): string {
  const rows = Array.from({ length: 300 }, (_, i) => {
    const email = i === 41 ? "no-at-sign.example.org" : `member${i}@club.test`;
    const end = i === 207 ? "31.13.2026" : "31.12.2026";
    return `Prénom${i};Nom${i};${email};${end}`;
  });
  return `Prénom;Nom;E-Mail;Échéance\n${rows.join("\n")}\n`;
}

/** What the database holds now, opened beside the running server as the CLI would. */
async function inDb<T>(dbUrl: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb(dbUrl);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

/** Sends the form around `button` and waits for the page it leads to. */
async function submit(page: Page, button: string): Promise<void> {
  await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: button, exact: true }).click()]);
}

/** The page has no serious accessibility violation and no sideways scroll. */
async function looksRight(page: Page, name: string): Promise<void> {
  expect(await pageCheck(page, name)).toEqual({ name, violations: [], overflow: 0 });
}

describe.skipIf(!HAS_BROWSER)("the secretary's first day, from what the first start prints", () => {
  let smtp: TestSmtp;
  let server: ServerProcess;
  let dbUrl: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    smtp = await startSmtp();
    dbUrl = await freshDatabaseUrl(dir);
    server = await startServer(dbUrl, { ADMIN_EMAIL: OWNER, SMTP_URL: smtp.url, LOG_LEVEL: "silent" });
    browser = await launchChromium();
    page = await newPage(browser);
    page.setDefaultTimeout(15_000);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("signs in through the printed link, choosing a password", async () => {
    const link = /sign in:\s+(\S+)/.exec(server.out)?.[1] ?? "";
    expect(link).toStartWith(`${server.base}/admin/welcome?token=`);
    await page.goto(link);
    await page.getByLabel("Nouveau mot de passe").fill(PASSWORD);
    await page.getByLabel("Le même, une seconde fois").fill(PASSWORD);
    await submit(page, "Enregistrer et se connecter");
    expect(page.url()).toBe(`${server.base}/admin`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Vue d'ensemble");
    await looksRight(page, "first-day-overview");
  });

  it("sets the club's logo", async () => {
    await page.goto(`${server.base}/admin/settings`);
    const logo = await logoPng(240, 80);
    await page.getByLabel("Image du logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
    await submit(page, "Envoyer le logo");
    expect(await noticeText(page)).toBe("Réglages enregistrés.");
    const shown = await page
      .locator("img.logo-preview")
      .first()
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
    expect(shown).toBe(true);
    const club = await inDb(dbUrl, async (db) => (await db.read.select().from(clubs))[0]);
    expect(club.logo_url).toStartWith(`${server.base}/logos/${club.id}/logo.png?v=`);
    await looksRight(page, "first-day-settings");
  });

  it("adds the season's tier", async () => {
    await page.goto(`${server.base}/admin/tiers`);
    await Promise.all([page.waitForEvent("load"), page.getByRole("link", { name: "Ajouter une catégorie" }).click()]);
    await page.getByLabel("Nom", { exact: true }).fill("Adulte");
    await page.getByLabel(/^Prix/).fill("60");
    await submit(page, "Ajouter une catégorie");
    const tier = await inDb(dbUrl, async (db) => (await db.read.select().from(tiers))[0]);
    expect(tier).toMatchObject({ name: "Adulte", price_cents: 6000 });
    await looksRight(page, "first-day-tiers");
  });

  it("imports last season's 300 members: the two bad lines named, the 298 good ones written with the tier", async () => {
    await page.goto(`${server.base}/admin/members/import`);
    await page.getByLabel("Fichier CSV").setInputFiles({ name: "membres.csv", mimeType: "text/csv", buffer: Buffer.from(spreadsheet()) });
    const adult = await page.getByLabel("Catégorie par défaut").locator("option", { hasText: "Adulte" }).getAttribute("value");
    await page.getByLabel("Catégorie par défaut").selectOption(adult ?? "");
    // The page sends the file in place (htmx) and shows the preview below the form.
    await page.getByRole("button", { name: "Aperçu" }).click();
    await page.locator("#import-result").getByText(/298/).first().waitFor();
    expect(await page.locator("#import-result p").first().textContent()).toBe(
      "300 lignes lues : 298 à créer, 0 à mettre à jour, 0 sans changement, 2 en erreur.",
    );
    const bad = await page.getByRole("table", { name: "Lignes en erreur" }).locator("tbody tr").allTextContents();
    expect(bad).toEqual([
      "43Adresse e-mail invalide : « no-at-sign.example.org ».",
      "209Date invalide dans « Échéance » : « 31.13.2026 » (AAAA-MM-JJ ou JJ.MM.AAAA).",
    ]);
    await looksRight(page, "first-day-import-preview");
    // Nothing written by the preview.
    expect(await inDb(dbUrl, async (db) => (await db.read.select().from(members)).length)).toBe(0);

    await page.getByRole("button", { name: /298/ }).click();
    // The preview's section is swapped for the result's (the preview too has a status line).
    await page.getByRole("heading", { name: "Import terminé" }).waitFor();
    expect(await page.locator("#import-result").getByRole("status").textContent()).toBe(
      "Écrit : 298 membres créés, 0 mis à jour. 2 lignes en erreur ignorées, ci-dessous.",
    );
    await looksRight(page, "first-day-import-done");
    const written = await inDb(dbUrl, (db) => db.read.select().from(members));
    expect(written).toHaveLength(298);
    const tier = await inDb(dbUrl, async (db) => (await db.read.select().from(tiers))[0]);
    expect(new Set(written.map((m) => m.tier_id))).toEqual(new Set([tier.id]));
    expect(written.map((m) => m.email)).not.toContain("no-at-sign.example.org");
    expect(written.map((m) => m.email)).not.toContain("member207@club.test");
  }, 60_000);

  it("creates an event at 19:00 on the club's clock; its public page says 19:00", async () => {
    await page.goto(`${server.base}/admin/events/new`);
    await page.getByLabel("Titre").fill("Assemblée générale");
    await page.getByLabel(/^Début/).fill("2031-01-15T19:00");
    await page.getByLabel("Nom du billet").first().fill("Entrée");
    await page
      .getByLabel(/^Prix membre/)
      .first()
      .fill("0");
    await page
      .getByLabel(/^Prix non-membre/)
      .first()
      .fill("0");
    await page.getByLabel(/Publier tout de suite/).check();
    await submit(page, "Créer un événement");
    await looksRight(page, "first-day-event");
    const event = await inDb(dbUrl, async (db) => (await db.read.select().from(events).where(eq(events.title, "Assemblée générale")))[0]);
    expect(event.starts_at).toBe("2031-01-15T18:00:00.000Z");
    expect(await page.locator("body").textContent()).toContain("15 janv. 2031, 19:00");
    const publicUrl = await page.getByRole("link", { name: "Page publique" }).getAttribute("href");
    const shown = await newPage(browser);
    await shown.goto(publicUrl ?? "");
    expect(await shown.locator("body").textContent()).toContain("19:00");
    await looksRight(shown, "first-day-event-public");
    await shown.close();
  });

  it("sends a member their card by mail from the member's page", async () => {
    const member = await inDb(dbUrl, async (db) => (await db.read.select().from(members).where(eq(members.email, "member7@club.test")))[0]);
    await page.goto(`${server.base}/admin/members/${member.id}`);
    await submit(page, "Envoyer la carte par e-mail");
    expect(await noticeText(page)).toBe("Carte envoyée par e-mail.");
    await looksRight(page, "first-day-member");
    // The server's own job queue sends it, through the SMTP server.
    const deadline = Date.now() + 20_000;
    let mail = smtp.inbox.find((m) => m.to.includes("member7@club.test"));
    while (!mail && Date.now() < deadline) {
      await Bun.sleep(200);
      mail = smtp.inbox.find((m) => m.to.includes("member7@club.test"));
    }
    expect(mail).toBeDefined();
    expect(header(mail?.raw ?? "", "subject")).toMatch(/carte/i);
    expect(mail?.raw).toContain(`${server.base}/c/${member.pass_serial_number}`);
  }, 40_000);
});
