// The bank statement uploaded from the dashboard (/admin/payments/import; DESIGN.md section 20,
// "Paying an invoice"): a treasurer sends the bank's camt.054 as a multipart form, and the page
// says what it did (invoices paid or partly paid, the overpayment, the lines not matched), in the
// club's language; the same file again pays nothing twice; a file that is no statement is refused
// beside the field and records nothing; finances:edit as the API route; the invoices and finances
// pages link to it. Invoices arranged with lib/, checked in the database each time.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq, isNotNull } from "drizzle-orm";
import { clubs, invoices, payments } from "../../db/schema";
import { money } from "../../dashboard/format";
import { operatorCtx } from "../../lib/auth/operator";
import { createInvoice } from "../../lib/invoices";
import { camt054 } from "../fixtures/camt054";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { browser, type DashBrowser, type Env, type Page, readOnlySignedIn } from "./helpers";

let env: Env;
let owner: DashBrowser;
const QR_IBAN = "CH44 3199 9123 0008 8901 2";
const PATH = "/admin/payments/import";
type Made = { id: string; number: string; reference: string };
const made = {} as Record<"full" | "part" | "over" | "dues", Made>;

const chf = (cents: number) => money(cents, "CHF", "fr");
const rowOf = async (id: string) => (await env.db.read.select().from(invoices).where(eq(invoices.id, id)))[0];
const statementLines = async () => (await env.db.read.select().from(payments).where(isNotNull(payments.statement_line_key))).length;
const upload = (file: File, as = owner) => as.post(PATH, { file }, PATH);
const statusOf = (page: Page) => /<p role="status">([^<]*)<\/p>/.exec(page.text)?.[1] ?? "";
/** The count of lines of the morning's statement, `recorded` now and `before` by an earlier upload. */
const morningSummary = (recorded: number, before: number) =>
  `4 lignes dans le fichier (camt.054). Enregistrées : ${recorded}. Déjà importées : ${before}. Non rapprochées : 1.`;
/** What an upload's answer says first: its status, the result's heading and its count of lines. */
const said = (page: Page) => ({ status: page.status, title: /<h2 id="statement-result-title">([^<]*)<\/h2>/.exec(page.text)?.[1], summary: statusOf(page) });

/** The invoices as the morning's statement leaves them, however often it is uploaded: its three lines stored once. */
async function expectPaidByMorning() {
  expect(await rowOf(made.full.id)).toMatchObject({ status: "paid", paid_cents: 12000 });
  expect(await rowOf(made.part.id)).toMatchObject({ status: "open", paid_cents: 2000 });
  expect(await rowOf(made.over.id)).toMatchObject({ status: "paid", paid_cents: 7500 });
  expect(await statementLines()).toBe(3);
}

/** The bank's notification of this morning's QR-bill payments: one paid in full, one in part, one overpaid, one of a reference no invoice has. */
const morning = () =>
  new File(
    [
      camt054([
        { amount: "120.00", reference: made.full.reference, kind: "QRR", debtor: "Émilie Rochat" },
        { amount: "20.00", reference: made.part.reference, kind: "QRR", debtor: "Jonas Keller" },
        { amount: "75.00", reference: made.over.reference, kind: "QRR", debtor: "Chiara Rossi" },
        { amount: "33.00", reference: "210000000003139471430009017", kind: "QRR", debtor: "Inconnu SA" },
      ]),
    ],
    "camt054-20261103.xml",
    { type: "application/xml" },
  );

beforeAll(async () => {
  env = await setup();
  await env.db.tx((t) => t.update(clubs).set({ currency: "CHF", payout_iban: QR_IBAN }).where(eq(clubs.id, env.clubId)));
  const ctx = await operatorCtx(env.db, env.clubId, env.config);
  const invoiceFor = async (first_name: string, last_name: string, label: string, amount_cents: number, kind?: "membership") => {
    const m = await seedMember(env, { first_name, last_name });
    const inv = await createInvoice(ctx, { member_id: m.id, lines: [{ label, amount_cents }] });
    if (kind) await env.db.tx((t) => t.update(invoices).set({ kind }).where(eq(invoices.id, inv.id)));
    return { id: inv.id, number: inv.number, reference: inv.reference };
  };
  made.full = await invoiceFor("Émilie", "Rochat", "Camp d'été", 12000);
  made.part = await invoiceFor("Jonas", "Keller", "Tournoi", 5000);
  made.over = await invoiceFor("Chiara", "Rossi", "Licence", 5000);
  made.dues = await invoiceFor("Léa", "Favre", "Cotisation 2027", 8000, "membership");
  owner = browser(env);
  await owner.signIn();
});
afterAll(() => env.close());

describe("the invoices and finances pages", () => {
  it("say where the bank's statement is uploaded, and an open membership invoice points to the member's 'record a payment'", async () => {
    const list = await owner.request("GET", "/admin/invoices");
    expect(list.text).toContain("Elles sont réglées par les lignes du relevé bancaire");
    expect(list.text).toContain(`<a href="${PATH}">Importer un relevé bancaire</a>`);
    expect(list.text).not.toContain("ou à la main.");
    expect(list.text).toContain("«\u00a0Enregistrer un paiement\u00a0» sur la page du membre");
    const dues = await rowOf(made.dues.id);
    expect(list.text).toContain(`href="/admin/members/${dues.member_id}#a-mark-paid" aria-label="Enregistrer un paiement pour la facture ${made.dues.number}"`);
    // Only membership invoices: mark-paid pays those.
    expect(list.text).not.toContain(`Enregistrer un paiement pour la facture ${made.part.number}`);
    const finances = await owner.request("GET", "/admin/finances");
    expect(finances.text).toContain(`<a href="${PATH}">Importer un relevé bancaire</a>`);
    const form = await owner.request("GET", PATH);
    expect(form.status).toBe(200);
    expect(form.text).toContain("<title>Importer un relevé bancaire");
    expect(form.text).toContain('enctype="multipart/form-data"');
    expect(form.text).toContain('name="_csrf"');
  });
});

describe("a camt.054 uploaded by the treasurer", () => {
  it("pays the invoices its lines quote (in full, in part, over), lists the line it could not match, and stores each line once", async () => {
    const res = await upload(morning());
    expect(said(res)).toEqual({ status: 200, title: "Relevé importé", summary: morningSummary(3, 0) });
    // Each invoice by its number, its member and what it is now.
    expect(res.text).toContain('<h3 id="statement-invoices">Factures payées par ce relevé</h3>');
    expect(res.text).toMatch(
      new RegExp(`${made.full.number}</td><td[^>]*><a href="/admin/members/[^"]+">Émilie Rochat</a></td><td[^>]*>${chf(12000)}</td><td[^>]*>Payée</td>`),
    );
    expect(res.text).toContain(`Partiellement payée : ${chf(2000)} sur ${chf(5000)}`);
    // The overpayment, recorded and listed.
    expect(res.text).toContain('<h3 id="statement-overpaid">Trop-perçus</h3>');
    expect(res.text).toMatch(
      new RegExp(
        `${made.over.number}</td><td[^>]*><a [^>]+>Chiara Rossi</a></td><td[^>]*>${chf(7500)}</td><td[^>]*>${chf(5000)}</td><td[^>]*>${chf(2500)}</td>`,
      ),
    );
    // The line no invoice's reference: as the bank wrote it, with the verb's reason in French.
    expect(res.text).toContain('<h3 id="statement-unmatched">Lignes non rapprochées</h3>');
    expect(res.text).toContain("Inconnu SA");
    expect(res.text).toContain("<code>210000000003139471430009017</code>");
    expect(res.text).not.toContain("REFERENCE_UNKNOWN");

    await expectPaidByMorning();
    const byInvoice = await env.db.read.select().from(payments).where(eq(payments.invoice_id, made.over.id));
    expect(byInvoice.map((p) => [p.amount_cents, p.method])).toEqual([[7500, "bank_transfer"]]);
  });

  it("uploaded again pays nothing twice: its lines are listed as imported before", async () => {
    const res = await upload(morning());
    expect(said(res)).toEqual({ status: 200, title: "Rien de nouveau enregistré", summary: morningSummary(0, 3) });
    expect(res.text).toContain('<h3 id="statement-before">Lignes déjà importées</h3>');
    expect(res.text).not.toContain("Factures payées par ce relevé");
    await expectPaidByMorning();
  });

  it("the rest of the partly paid invoice, in a later CSV, pays it", async () => {
    const csv = new File([`date,amount,currency,reference\n2026-11-20,30.00,CHF,${made.part.reference}\n`], "export.csv", { type: "text/csv" });
    const res = await upload(csv);
    expect(statusOf(res)).toBe("1 ligne dans le fichier (csv). Enregistrées : 1. Déjà importées : 0. Non rapprochées : 0.");
    expect(res.text).toMatch(new RegExp(`${made.part.number}</td><td[^>]*><a [^>]+>Jonas Keller</a></td><td[^>]*>${chf(3000)}</td><td[^>]*>Payée</td>`));
    expect(await rowOf(made.part.id)).toMatchObject({ status: "paid", paid_cents: 5000 });
  });
});

describe("a file that is no statement", () => {
  it("is refused beside the field in the club's language (422), and records nothing", async () => {
    const before = await statementLines();
    const res = await upload(new File(["<html>not a statement</html>"], "relevé.xml", { type: "application/xml" }));
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/<p id="f-file-error" class="error-text">Le relevé n&#x27;est ni un CSV lisible ni un fichier camt.053 ou camt.054/);
    expect(res.text).toContain('aria-invalid="true"');
    expect(res.text).not.toContain('id="statement-result"');
    const columns = await upload(new File(["nom;ville\nAnna;Bienne\n"], "liste.csv", { type: "text/csv" }));
    expect(columns.status).toBe(422);
    expect(columns.text).toContain('<p id="f-file-error" class="error-text">Colonnes introuvables dans le relevé');
    const empty = await upload(new File([""], "vide.csv", { type: "text/csv" }));
    expect(empty.status).toBe(422);
    expect(empty.text).toContain('<p id="f-file-error" class="error-text">Choisissez le fichier du relevé.</p>');
    expect(await statementLines()).toBe(before);
  });

  it("is refused in German for a German club", async () => {
    await env.db.tx((t) => t.update(clubs).set({ locale: "de" }).where(eq(clubs.id, env.clubId)));
    try {
      const res = await upload(new File(["<html/>"], "auszug.xml", { type: "application/xml" }));
      expect(res.status).toBe(422);
      expect(res.text).toContain("<title>Kontoauszug importieren");
      expect(res.text).toContain('<p id="f-file-error" class="error-text">Der Kontoauszug ist weder ein lesbares CSV noch eine camt.053- oder camt.054-Datei');
    } finally {
      await env.db.tx((t) => t.update(clubs).set({ locale: "fr" }).where(eq(clubs.id, env.clubId)));
    }
  });
});

describe("who may upload", () => {
  it("needs the CSRF token of the session, as every dashboard form", async () => {
    const before = await statementLines();
    const res = await owner.request("POST", PATH, { form: { file: morning() } });
    expect(res.status).toBe(403);
    expect(await statementLines()).toBe(before);
  });

  it("needs finances:edit, as the API route: a read-only admin sees no link and is refused the page and the upload", async () => {
    const reader = await readOnlySignedIn(env);
    const list = await reader.request("GET", "/admin/invoices");
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(`href="${PATH}"`);
    expect(list.text).not.toContain("#a-mark-paid");
    expect((await reader.request("GET", PATH)).status).toBe(403);
    const before = await statementLines();
    const res = await reader.post(PATH, { file: morning() }, "/admin/invoices");
    expect(res.status).toBe(403);
    expect(await statementLines()).toBe(before);
  });
});
