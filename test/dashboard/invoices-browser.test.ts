// The invoices pages in Chromium (issue 27; test/dashboard/browser-harness.ts): the dashboard's
// invoices list, a new invoice typed in its form, a cancel asked first, the member page's invoices,
// and the member's own page with their invoices and the transfer details; the dues run, its dry run
// then the run itself, at each width. axe-core finds no
// serious violation and nothing scrolls sideways, at 1280 and 390 px. SHOTS_DIR=<dir> saves a
// screenshot of each page at each width.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, invoices } from "../../db/schema";
import { insertTier } from "../events-fixtures";
import { setup } from "../helpers";
import { addDays, pageTokenOf, seedMember, todayUtc } from "../members-fixtures";
import { DESKTOP, freePort, HAS_BROWSER, launch, newPage, noticeText, PHONE, pageCheck, signedIn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let run: Awaited<ReturnType<typeof launch>>;
let member: Awaited<ReturnType<typeof seedMember>>;
const ids = { open: "", overdue: "", paid: "", cancelled: "" };

async function invoice(body: Record<string, unknown>): Promise<string> {
  const res = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, { body: { member_id: member.id, ...body } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const ok = (name: string) => ({ name, violations: [], overflow: 0 });

describe.skipIf(!HAS_BROWSER)("the invoices pages in Chromium", () => {
  beforeAll(async () => {
    const port = freePort();
    env = await setup({ BASE_URL: `http://127.0.0.1:${port}` });
    run = await launch(env, port);
    await env.db.tx((t) =>
      t
        .update(clubs)
        .set({
          payout_iban: "CH93 0076 2011 6238 5295 7",
          payout_bic: "POFICHBEXXX",
          address: "Rue du Lac 12",
          postal_code: "1003",
          city: "Lausanne",
          country: "CH",
        })
        .where(eq(clubs.id, env.clubId)),
    );
    member = await seedMember(env, { first_name: "Marie-Françoise", last_name: "de Montmollin-Vuilleumier", email: "marie-francoise.montmollin@example.org" });
    ids.open = await invoice({ lines: [{ label: "Cotisation 2027", amount_cents: 12000 }], due_on: "2099-12-31" });
    ids.overdue = await invoice({ issued_on: "2024-01-10", lines: [{ label: "Cotisation 2024", amount_cents: 5000 }] });
    ids.paid = await invoice({ lines: [{ label: "Licence", amount_cents: 3000 }] });
    await env.db.tx((t) => t.update(invoices).set({ status: "paid", paid_cents: 3000 }).where(eq(invoices.id, ids.paid)));
    ids.cancelled = await invoice({ lines: [{ label: "Erreur", amount_cents: 1000 }] });
    await env.call("POST", `/api/clubs/${env.clubId}/invoices/${ids.cancelled}/actions/cancel`);
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`shows the invoices pages without a serious accessibility violation at ${viewport.width} px`, async () => {
      const page = await signedIn(run.browser, run.base, viewport);
      const w = viewport.width;
      await page.goto(`${run.base}/admin/invoices`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Factures");
      expect(await page.getByRole("link", { name: /PDF de la facture/ }).count()).toBe(2);
      expect(await pageCheck(page, `invoices-open-${w}`)).toEqual(ok(`invoices-open-${w}`));
      await page.getByRole("link", { name: "Toutes" }).click();
      await page.waitForLoadState("load");
      expect(await page.getByText("4 factures").isVisible()).toBe(true);
      expect(await pageCheck(page, `invoices-all-${w}`)).toEqual(ok(`invoices-all-${w}`));
      await page.goto(`${run.base}/admin/invoices/new`);
      expect(await pageCheck(page, `invoice-choose-${w}`)).toEqual(ok(`invoice-choose-${w}`));
      await page.goto(`${run.base}/admin/invoices/new?member_id=${member.id}`);
      expect(await pageCheck(page, `invoice-new-${w}`)).toEqual(ok(`invoice-new-${w}`));
      await page.goto(`${run.base}/admin/members/${member.id}`);
      expect(await page.getByRole("heading", { name: "Factures" }).isVisible()).toBe(true);
      expect(await pageCheck(page, `member-invoices-${w}`)).toEqual(ok(`member-invoices-${w}`));
      await page.close();

      const own = await newPage(run.browser, viewport);
      await own.goto(`${run.base}/m/${pageTokenOf(member)}`);
      expect(await own.getByRole("heading", { name: "Mes factures" }).isVisible()).toBe(true);
      expect(await own.getByText("CH93 0076 2011 6238 5295 7").count()).toBe(2);
      expect(await pageCheck(own, `member-page-invoices-${w}`)).toEqual(ok(`member-page-invoices-${w}`));
      await own.close();
      // Six pages through axe: past the suite's 30 s on a busy machine, and a timed-out test has its browser killed under the tests after it.
    }, 90_000);
  }

  for (const viewport of [DESKTOP, PHONE]) {
    it(`runs the dues at ${viewport.width} px: the dry run writes nothing, its button makes the invoices, found in the open tab`, async () => {
      const w = viewport.width;
      // Members of a tier of this width's own, ending within the month: only they are ticked.
      const tier = await insertTier(env, { name: `Saison ${w}` });
      const soon = addDays(todayUtc(), 20);
      const names = [
        ["Jean-Baptiste", "de Pourtalès-Castellane"],
        ["Zoé", "Müller"],
        ["Léa", "Rossi"],
      ];
      const ids: string[] = [];
      for (const [first_name, last_name] of names) ids.push((await seedMember(env, { first_name, last_name, membership_end: soon, tier_id: tier.id })).id);
      const theirs = async () => (await env.db.read.select().from(invoices)).filter((i) => ids.includes(i.member_id));

      const page = await signedIn(run.browser, run.base, viewport);
      await page.goto(`${run.base}/admin/invoices`);
      await page.getByRole("link", { name: "Facturer les cotisations" }).click();
      await page.waitForLoadState("load");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Facturer les cotisations");
      expect(await pageCheck(page, `dues-run-form-${w}`)).toEqual(ok(`dues-run-form-${w}`));
      await page.getByLabel("Adhésions se terminant avant le").fill(addDays(todayUtc(), 60));
      await page.getByLabel(`Saison ${w} · 100,00 CHF`).check();
      await page.getByRole("button", { name: "Voir ce qui serait créé" }).click();
      await page.waitForLoadState("load");
      expect(await page.getByRole("heading", { name: "3 factures seraient créées" }).isVisible()).toBe(true);
      expect(await page.getByText("Jean-Baptiste de Pourtalès-Castellane").isVisible()).toBe(true);
      expect(await pageCheck(page, `dues-run-dry-${w}`)).toEqual(ok(`dues-run-dry-${w}`));
      expect(await theirs()).toEqual([]);

      await page.getByRole("button", { name: "Créer 3 factures" }).click();
      await page.waitForLoadState("load");
      expect(await page.getByRole("heading", { name: "3 factures créées" }).isVisible()).toBe(true);
      expect(await pageCheck(page, `dues-run-done-${w}`)).toEqual(ok(`dues-run-done-${w}`));
      const made = await theirs();
      expect(made.map((i) => [i.kind, i.status, i.amount_cents])).toEqual(Array(3).fill(["membership", "open", 10000]));

      await page.getByRole("link", { name: "Voir les factures ouvertes" }).click();
      await page.waitForLoadState("load");
      for (const i of made) expect(await page.getByRole("link", { name: `PDF de la facture ${i.number}` }).isVisible()).toBe(true);
      await page.close();
    });
  }

  it("finds a member, types an invoice with two lines and creates it; then cancels it, asked first", async () => {
    const page = await signedIn(run.browser, run.base, PHONE);
    await page.goto(`${run.base}/admin/invoices`);
    await page.getByRole("link", { name: "Nouvelle facture" }).click();
    await page.getByLabel("Nom ou e-mail").fill("Montmollin");
    await page.getByRole("button", { name: "Chercher" }).click();
    await page.getByRole("link", { name: /Marie-Françoise/ }).click();
    await page.waitForLoadState("load");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain("Nouvelle facture pour Marie-Françoise");
    await page.getByLabel("Libellé 1").fill("Camp de ski");
    await page.getByLabel("Montant 1 (CHF)").fill("250");
    await page.getByLabel("Libellé 2").fill("Rabais fratrie");
    await page.getByLabel("Montant 2 (CHF)").fill("-25,50");
    await page.getByRole("button", { name: "Créer la facture" }).click();
    await page.waitForLoadState("load");
    expect(await noticeText(page)).toBe("Facture créée.");
    const [made] = (await env.db.read.select().from(invoices).where(eq(invoices.member_id, member.id))).filter((i) => i.amount_cents === 22450);
    expect(made).toMatchObject({
      status: "open",
      lines: [
        { label: "Camp de ski", amount_cents: 25000 },
        { label: "Rabais fratrie", amount_cents: -2550 },
      ],
    });

    // Dismissed: nothing happens; accepted: cancelled.
    page.once("dialog", (dialog) => dialog.dismiss());
    await page.getByRole("button", { name: `Annuler la facture ${made.number}` }).click();
    expect((await env.db.read.select().from(invoices).where(eq(invoices.id, made.id)))[0].status).toBe("open");
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: `Annuler la facture ${made.number}` }).click();
    await page.waitForLoadState("load");
    expect(await noticeText(page)).toBe("Facture annulée.");
    expect((await env.db.read.select().from(invoices).where(eq(invoices.id, made.id)))[0].status).toBe("cancelled");
    await page.close();
  });
});
