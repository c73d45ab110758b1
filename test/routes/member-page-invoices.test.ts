// The member's own page lists their invoices (issue 27, DESIGN.md section 20): each with its PDF at
// an address of the page (its token is the key: no admin key), and for an open invoice the
// transfer details (the club's IBAN, the invoice's reference, what is left to pay), in the club's
// language, in the HTML page and its JSON twin. Another member's invoice, a wrong token or an odd
// id: a plain 404.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, invoices } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { pageTokenOf, seedMember } from "../members-fixtures";

let env: TestEnv;
let token = "";
let otherToken = "";
const ids = { open: "", paid: "", other: "" };
const numbers = { open: "", paid: "" };
let reference = "";

async function invoiceFor(memberId: string, amount: number): Promise<{ id: string; number: string; reference: string }> {
  const res = await env.call("POST", `/api/clubs/${env.clubId}/invoices`, {
    body: { member_id: memberId, due_on: "2099-03-31", lines: [{ label: "Jahresbeitrag", amount_cents: amount }] },
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** A visitor with no key or cookie: only the address. */
async function visit(path: string) {
  const res = await env.app.handle(new Request(`http://localhost${path}`), "10.9.0.1");
  const type = res.headers.get("content-type") ?? "";
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  return { status: res.status, type, text, body: type.includes("json") ? JSON.parse(text) : null, headers: res.headers };
}

beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000000" });
  await env.db.tx((t) =>
    t
      .update(clubs)
      .set({ locale: "de", payout_iban: "CH9300762011623852957", payout_bic: "POFICHBEXXX", payout_beneficiary_name: "Turnverein Test" })
      .where(eq(clubs.id, env.clubId)),
  );
  const m = await seedMember(env, { first_name: "Jonas", email: "jonas@test.org" });
  token = pageTokenOf(m);
  const open = await invoiceFor(m.id, 12000);
  ids.open = open.id;
  numbers.open = open.number;
  reference = open.reference;
  // 20.00 of it paid already.
  await env.db.tx((t) => t.update(invoices).set({ paid_cents: 2000 }).where(eq(invoices.id, open.id)));
  const paid = await invoiceFor(m.id, 3000);
  ids.paid = paid.id;
  numbers.paid = paid.number;
  await env.db.tx((t) => t.update(invoices).set({ status: "paid", paid_cents: 3000 }).where(eq(invoices.id, paid.id)));
  const other = await seedMember(env, { first_name: "Anna", email: "anna@test.org" });
  otherToken = pageTokenOf(other);
  ids.other = (await invoiceFor(other.id, 5000)).id;
});
afterAll(() => env.close());

describe("the member's invoices on their page", () => {
  it("answers them in the JSON twin: the open one with its transfer details, the paid one without", async () => {
    const res = await visit(`/api/public/manage/${token}`);
    expect(res.status).toBe(200);
    const list = res.body.invoices as Record<string, unknown>[];
    expect(list.map((i) => i.id).sort()).toEqual([ids.open, ids.paid].sort());
    const open = list.find((i) => i.id === ids.open);
    expect(open).toMatchObject({
      number: numbers.open,
      status: "open",
      overdue: false,
      amount_cents: 12000,
      paid_cents: 2000,
      currency: "CHF",
      due_on: "2099-03-31",
      pdf_url: `http://localhost/api/public/manage/${token}/invoices/${ids.open}/pdf`,
      bank_transfer: {
        beneficiary: "Turnverein Test",
        iban: "CH93 0076 2011 6238 5295 7",
        bic: "POFICHBEXXX",
        reference,
        amount_cents: 10000,
        currency: "CHF",
      },
    });
    expect(list.find((i) => i.id === ids.paid)).toMatchObject({ status: "paid", bank_transfer: null });
  });

  it("shows them on the HTML page in the club's language, with the PDF link and the transfer details", async () => {
    const res = await visit(`/m/${token}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h2 id="h-invoices">Meine Rechnungen</h2>');
    expect(res.text).toContain(`Rechnung ${numbers.open}`);
    expect(res.text).toContain(`href="http://localhost/api/public/manage/${token}/invoices/${ids.open}/pdf"`);
    expect(res.text).toContain(`Rechnung ${numbers.paid} herunterladen (PDF)`);
    expect(res.text).toContain("Bezahlt");
    expect(res.text).toContain("CH93 0076 2011 6238 5295 7");
    expect(res.text).toContain(reference);
    expect(res.text).toMatch(/Noch zu zahlen: 100\.00\sCHF|Noch zu zahlen: 100,00\sCHF/);
    // The other member's invoice is not on this page.
    expect(res.text).not.toContain(ids.other);
  });

  it("serves the member's own invoice as a PDF with the page's token only", async () => {
    const res = await visit(`/api/public/manage/${token}/invoices/${ids.open}/pdf`);
    expect(res.status).toBe(200);
    expect(res.type).toBe("application/pdf");
    expect(res.text.startsWith("%PDF-")).toBe(true);
    expect(res.headers.get("content-disposition")).toContain(`rechnung-${numbers.open}.pdf`);
    expect(res.headers.get("cache-control")).toContain("no-store");
  });

  it("answers 404 for another member's invoice, a wrong token or an id that is no invoice", async () => {
    expect((await visit(`/api/public/manage/${token}/invoices/${ids.other}/pdf`)).status).toBe(404);
    expect((await visit(`/api/public/manage/${otherToken}/invoices/${ids.open}/pdf`)).status).toBe(404);
    expect((await visit(`/api/public/manage/${"x".repeat(32)}/invoices/${ids.open}/pdf`)).status).toBe(404);
    const odd = await visit(`/api/public/manage/${token}/invoices/not-an-id/pdf`);
    expect(odd.status).toBe(404);
    expect(odd.body.code).toBe("INVOICE_NOT_FOUND");
    // The admin's address of the same PDF needs a key.
    expect((await visit(`/api/clubs/${env.clubId}/invoices/${ids.open}/pdf`)).status).toBe(401);
  });

  it("shows no invoices section to a member without invoices", async () => {
    const m = await seedMember(env, { first_name: "Lea", email: "lea@test.org" });
    const res = await visit(`/m/${pageTokenOf(m)}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain("h-invoices");
    expect((await visit(`/api/public/manage/${pageTokenOf(m)}`)).body.invoices).toEqual([]);
  });
});
