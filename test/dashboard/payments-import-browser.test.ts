// The bank statement uploaded from the dashboard in Chromium (test/dashboard/browser-harness.ts),
// at 1280 and 390 px: from the invoices page's link to the upload, the bank's camt.054 chosen in
// the file field, the result read by a person (paid, partly paid, overpaid, not matched), the same
// file again recording nothing, a file that is no statement refused beside the field. axe-core
// finds no serious violation, nothing scrolls sideways. SHOTS_DIR=<dir> saves a screenshot of each.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq, isNotNull } from "drizzle-orm";
import { clubs, invoices, payments } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { createInvoice } from "../../lib/invoices";
import { camt054 } from "../fixtures/camt054";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { DESKTOP, HAS_BROWSER, launch, PHONE, pageCheck, signedIn } from "./browser-harness";

type Env = Awaited<ReturnType<typeof setup>>;
let env: Env;
let ctx: Ctx;
let run: Awaited<ReturnType<typeof launch>>;

const ok = (name: string) => ({ name, violations: [], overflow: 0 });
const rowOf = async (id: string) => (await env.db.read.select().from(invoices).where(eq(invoices.id, id)))[0];
const statementLines = async () => (await env.db.read.select().from(payments).where(isNotNull(payments.statement_line_key))).length;

describe.skipIf(!HAS_BROWSER)("the bank statement page in Chromium", () => {
  beforeAll(async () => {
    env = await setup();
    await env.db.tx((t) => t.update(clubs).set({ currency: "CHF", payout_iban: "CH44 3199 9123 0008 8901 2" }).where(eq(clubs.id, env.clubId)));
    ctx = await operatorCtx(env.db, env.clubId, env.config);
    run = await launch(env);
  });
  afterAll(async () => {
    await run?.close();
    await env?.close();
  });

  it("uploads the bank's camt.054 at 1280 and 390 px: what it paid, then the same file again pays nothing twice; a bad file is refused beside the field", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const w = viewport.width;
      const m = await seedMember(env, { first_name: "Marie-Françoise", last_name: `de Montmollin-Vuilleumier ${w}` });
      const full = await createInvoice(ctx, { member_id: m.id, lines: [{ label: "Camp de ski", amount_cents: 25000 }] });
      const part = await createInvoice(ctx, { member_id: m.id, lines: [{ label: "Licence", amount_cents: 8000 }] });
      const file = {
        name: `camt054-${w}.xml`,
        mimeType: "application/xml",
        buffer: Buffer.from(
          camt054(
            [
              { amount: "260.00", reference: full.reference, kind: "QRR", debtor: "M.-F. de Montmollin" },
              { amount: "30.00", reference: part.reference, kind: "QRR", debtor: "M.-F. de Montmollin" },
              { amount: "12.50", reference: "RF18539007547034", kind: "SCOR", debtor: "Fondation pour la jeunesse sportive du Jura bernois" },
            ],
            { msgId: `CAMT054-${w}`, entryRef: `ENTRY-${w}` },
          ),
        ),
      };
      const before = await statementLines();

      const page = await signedIn(run.browser, run.base, viewport);
      await page.goto(`${run.base}/admin/invoices`);
      await page.getByRole("link", { name: "Importer un relevé bancaire" }).click();
      await page.waitForLoadState("load");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Importer un relevé bancaire");
      expect(await pageCheck(page, `statement-form-${w}`)).toEqual(ok(`statement-form-${w}`));

      await page.getByLabel("Fichier du relevé (camt.053, camt.054 ou CSV)").setInputFiles(file);
      await page.getByRole("button", { name: "Importer le relevé" }).click();
      await page.waitForLoadState("load");
      expect(await page.getByRole("heading", { name: "Relevé importé" }).isVisible()).toBe(true);
      expect(await page.getByRole("status").textContent()).toBe(
        "3 lignes dans le fichier (camt.054). Enregistrées : 2. Déjà importées : 0. Non rapprochées : 1.",
      );
      const paid = page.getByRole("region", { name: "Factures payées par ce relevé" });
      expect(await paid.getByRole("row").filter({ hasText: full.number }).textContent()).toContain("Payée");
      expect(await paid.getByRole("row").filter({ hasText: part.number }).textContent()).toMatch(/Partiellement payée : 30,00\sCHF sur 80,00\sCHF/);
      expect(await page.getByRole("region", { name: "Trop-perçus" }).getByRole("row").filter({ hasText: full.number }).textContent()).toMatch(/10,00\sCHF/);
      expect(await page.getByRole("region", { name: "Lignes non rapprochées" }).textContent()).toContain("Fondation pour la jeunesse sportive");
      expect(await pageCheck(page, `statement-done-${w}`)).toEqual(ok(`statement-done-${w}`));
      expect(await rowOf(full.id)).toMatchObject({ status: "paid", paid_cents: 26000 });
      expect(await rowOf(part.id)).toMatchObject({ status: "open", paid_cents: 3000 });
      expect(await statementLines()).toBe(before + 2);

      // The same file again (the browser still offers it): listed as imported before, nothing paid twice.
      await page.getByLabel("Fichier du relevé (camt.053, camt.054 ou CSV)").setInputFiles(file);
      await page.getByRole("button", { name: "Importer le relevé" }).click();
      await page.waitForLoadState("load");
      expect(await page.getByRole("heading", { name: "Rien de nouveau enregistré" }).isVisible()).toBe(true);
      expect(await page.getByRole("region", { name: "Lignes déjà importées" }).getByRole("row").count()).toBe(3);
      expect(await pageCheck(page, `statement-again-${w}`)).toEqual(ok(`statement-again-${w}`));
      expect(await rowOf(part.id)).toMatchObject({ status: "open", paid_cents: 3000 });
      expect(await statementLines()).toBe(before + 2);

      // Not a statement: the reason beside the field, nothing recorded.
      await page
        .getByLabel("Fichier du relevé (camt.053, camt.054 ou CSV)")
        .setInputFiles({ name: "photo.xml", mimeType: "application/xml", buffer: Buffer.from("<photo/>") });
      await page.getByRole("button", { name: "Importer le relevé" }).click();
      await page.waitForLoadState("load");
      expect(await page.locator("#f-file-error").textContent()).toContain("Le relevé n'est ni un CSV lisible ni un fichier camt.053 ou camt.054");
      expect(await pageCheck(page, `statement-refused-${w}`)).toEqual(ok(`statement-refused-${w}`));
      expect(await statementLines()).toBe(before + 2);
      await page.close();
    }
  }, 120_000);
});
