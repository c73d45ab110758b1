// The mailings pages in Chromium (issue 29; test/dashboard/browser-harness.ts), at 1280 and 390 px:
// a mailing composed in its form, the live count following the picker (htmx), saved, previewed as
// a member gets it (the mail's HTML in its sandboxed frame), a test to me read from a real SMTP
// server, then sent now behind its confirmation; its recipients; the history with the counts; the
// member page's mark. axe-core finds no serious violation and nothing scrolls sideways.
// SHOTS_DIR=<dir> saves a screenshot of each page at each width.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { mailings } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { MAILING_JOBS } from "../../lib/mailings/send";
import { createEventVia, insertRegistration, insertTier } from "../events-fixtures";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { header, startSmtp, type TestSmtp } from "../smtp";
import { DESKTOP, freePort, HAS_BROWSER, launch, noticeText, PHONE, pageCheck, signedIn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let smtp: TestSmtp;
let run: Awaited<ReturnType<typeof launch>>;
let bounced: { id: string };
let eventId: string;

const ok = (name: string) => ({ name, violations: [], overflow: 0 });

describe.skipIf(!HAS_BROWSER)("the mailings pages in Chromium", () => {
  beforeAll(async () => {
    const port = freePort();
    smtp = await startSmtp();
    env = await setup({ BASE_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, MAIL_RATE_PER_MINUTE: "6000" });
    run = await launch(env, port);
    const tier = await insertTier(env, { name: "Seniors" });
    const event = await createEventVia(env, { title: "Assemblée générale 2027", tickets: [{ name: "Membre" }] });
    eventId = event.id;
    const people = [
      ["Marie-Françoise", "de Montmollin-Vuilleumier", "marie-francoise.montmollin@example.org"],
      ["Jean-Baptiste", "de Pourtalès-Castellane", "jb@example.org"],
      ["Zoé", "Müller", "zoe@example.org"],
    ];
    for (const [i, [first_name, last_name, email]] of people.entries()) {
      const m = await seedMember(env, { first_name, last_name, email, tier_id: tier.id });
      if (i < 2) await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, memberId: m.id, first: first_name });
    }
    const now = new Date().toISOString();
    bounced = await seedMember(env, {
      first_name: "Bruno",
      last_name: "Rebond",
      email: "bruno@example.org",
      email_bounced_at: now,
      email_bounced_address: "bruno@example.org",
    });
    await seedMember(env, { first_name: "Nina", last_name: "Non", email: "nina@example.org", mailing_opt_out_at: now });
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
    await smtp?.close();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`composes, previews, tests and sends a mailing at ${viewport.width} px`, async () => {
      const w = viewport.width;
      const page = await signedIn(run.browser, run.base, viewport);
      page.setDefaultTimeout(10_000);
      await page.goto(`${run.base}/admin/mailings`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Envois");
      expect(await pageCheck(page, `mailings-list-${w}`)).toEqual(ok(`mailings-list-${w}`));
      await page.getByRole("link", { name: "Nouvel envoi" }).click();
      await page.waitForLoadState("load");

      // The live count: everyone (5, 2 skipped), then the event's registrants (2).
      const count = page.locator("#audience-count");
      expect(await count.textContent()).toContain("5 membres recevraient cet envoi.");
      expect(await count.textContent()).toContain("2 d'entre eux seraient sautés");
      const subject = `Convocation ${w}, {{first_name}}`;
      await page.getByLabel("Objet").fill(subject);
      await page
        .getByLabel("Message")
        .fill("Bonjour {{first_name}},\n\nNotre **assemblée générale** a lieu le 12 mars.\n\n<script>alert(1)</script>\n\n[Votre page]({{member_page_url}})");
      await page.getByLabel("Inscrits à l'événement").selectOption(eventId);
      await page.getByText("2 membres recevraient cet envoi.").waitFor();
      await page.getByLabel("Actif").check();
      await page.getByText("2 membres recevraient cet envoi.").waitFor();
      expect(await pageCheck(page, `mailing-compose-${w}`)).toEqual(ok(`mailing-compose-${w}`));
      await page.getByRole("button", { name: "Enregistrer le brouillon" }).click();
      await page.waitForLoadState("load");
      expect(await noticeText(page)).toBe("Brouillon créé.");
      const [row] = (await env.db.read.select().from(mailings)).filter((m) => m.subject === subject);
      expect(row).toMatchObject({ status: "draft" });
      expect(row.audience).toMatchObject({ statuses: ["active"], event_id: expect.any(String) });

      // The preview as a member gets it: the HTML in its frame (the script shown as text), the text part.
      expect(await page.locator(".preview-subject").textContent()).toBe(`Convocation ${w}, Marie-Françoise`);
      const frame = page.frameLocator("iframe.mail-preview");
      await frame.getByText("Bonjour Marie-Françoise,").waitFor();
      expect(await frame.locator("strong").first().textContent()).toBe("assemblée générale");
      expect(await frame.getByText("<script>alert(1)</script>").count()).toBe(1);
      await page.getByLabel("Tel que le reçoit").selectOption({ label: "Jean-Baptiste de Pourtalès-Castellane" });
      await page.locator(".preview-subject", { hasText: "Jean-Baptiste" }).waitFor();
      await frame.getByText("Bonjour Jean-Baptiste,").waitFor();
      expect(await page.locator(".mail-text").textContent()).toContain("Bonjour Jean-Baptiste,");
      expect(await pageCheck(page, `mailing-draft-${w}`)).toEqual(ok(`mailing-draft-${w}`));
      // The frame in view on its own (a whole-page screenshot leaves a sandboxed frame below the fold blank).
      if (process.env.SHOTS_DIR) {
        await page.locator("iframe.mail-preview").scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(process.env.SHOTS_DIR, `mailing-preview-${w}.png`) });
      }

      // A test to me.
      smtp.inbox.length = 0;
      await page.getByRole("button", { name: "M'envoyer un test" }).click();
      await page.waitForLoadState("load");
      expect(await noticeText(page)).toBe("Test envoyé à votre adresse.");
      expect(smtp.inbox.map((m) => m.to)).toEqual([["owner@test.org"]]);
      expect(header(smtp.inbox[0].raw, "Subject")).toBe(`[Test] Convocation ${w}, Marie-Françoise`);

      // Send now: dismissed, nothing; accepted, sending.
      page.once("dialog", (dialog) => dialog.dismiss());
      await page.getByRole("button", { name: "Envoyer maintenant" }).click();
      expect((await env.db.read.select().from(mailings).where(eq(mailings.id, row.id)))[0].status).toBe("draft");
      page.once("dialog", (dialog) => {
        expect(dialog.message()).toBe("Envoyer ce message maintenant à 2 membres ?");
        dialog.accept();
      });
      await page.getByRole("button", { name: "Envoyer maintenant" }).click();
      await page.waitForLoadState("load");
      expect(await noticeText(page)).toBe("Envoi lancé.");
      for (let i = 0; i < 20 && (await env.db.read.select().from(mailings).where(eq(mailings.id, row.id)))[0].status === "sending"; i++)
        await runDueJobs(env.db, { kinds: MAILING_JOBS, config: env.config, now: new Date(Date.now() + i * 60_000) });
      expect((await env.db.read.select().from(mailings).where(eq(mailings.id, row.id)))[0].status).toBe("sent");
      await page.reload();
      expect(await page.locator(".state-sent", { hasText: "Envoyé" }).count()).toBe(2);
      expect(await pageCheck(page, `mailing-sent-${w}`)).toEqual(ok(`mailing-sent-${w}`));

      await page.getByRole("link", { name: "Retour aux envois" }).click();
      await page.waitForLoadState("load");
      expect(await page.getByRole("link", { name: subject }).isVisible()).toBe(true);
      expect(await pageCheck(page, `mailings-history-${w}`)).toEqual(ok(`mailings-history-${w}`));

      await page.goto(`${run.base}/admin/members/${bounced.id}`);
      expect(await page.getByText("Adresse rejetée").isVisible()).toBe(true);
      expect(await pageCheck(page, `member-bounced-${w}`)).toEqual(ok(`member-bounced-${w}`));
      await page.close();
    });
  }
});
