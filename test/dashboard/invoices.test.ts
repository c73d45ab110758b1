// The dashboard's invoices page through app.handle (issue 27, DESIGN.md section 20): the tabs open /
// overdue / paid / cancelled / all with their rows, the PDF as GET pdf answers it, send (mailed to
// a real local SMTP server) and cancel (a paid one refused in the club's language), a new invoice
// from lines or a tier's fee (bad input beside its field), pages of 50, the member page's section,
// and a read-only admin who sees the invoices but neither writes nor their buttons.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs, invoices } from "../../db/schema";
import { insertTier } from "../events-fixtures";
import { setup } from "../helpers";
import { seedMember } from "../members-fixtures";
import { header, startSmtp, type TestSmtp } from "../smtp";
import { browser, type Env } from "./helpers";

let env: Env;
let smtp: TestSmtp;
let owner: ReturnType<typeof browser>;
let member: { id: string; first_name: string; last_name: string };
const ids = { open: "", overdue: "", paid: "", cancelled: "" };

const api = () => `/api/clubs/${env.clubId}/invoices`;
const rowOf = async (id: string) => (await env.db.read.select().from(invoices).where(eq(invoices.id, id)))[0];
async function invoice(body: Record<string, unknown>): Promise<{ id: string; number: string }> {
  const res = await env.call("POST", api(), { body: { member_id: member.id, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

beforeAll(async () => {
  smtp = await startSmtp();
  env = await setup({ SMTP_URL: smtp.url, RATE_LIMIT_PER_MINUTE: "100000000" });
  await env.db.tx((t) => t.update(clubs).set({ payout_iban: "CH93 0076 2011 6238 5295 7" }).where(eq(clubs.id, env.clubId)));
  owner = browser(env);
  await owner.signIn();
  member = await seedMember(env, { first_name: "Émilie", last_name: "Rochat", email: "emilie@test.org" });
  ids.open = (await invoice({ lines: [{ label: "Camp d'été", amount_cents: 12000 }], due_on: "2099-12-31" })).id;
  ids.overdue = (await invoice({ issued_on: "2024-01-10", lines: [{ label: "Cotisation 2024", amount_cents: 5000 }] })).id;
  ids.paid = (await invoice({ lines: [{ label: "Licence", amount_cents: 3000 }] })).id;
  await env.db.tx((t) => t.update(invoices).set({ status: "paid", paid_cents: 3000 }).where(eq(invoices.id, ids.paid)));
  ids.cancelled = (await invoice({ lines: [{ label: "Erreur", amount_cents: 1000 }] })).id;
  expect((await env.call("POST", `${api()}/${ids.cancelled}/actions/cancel`)).status).toBe(200);
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});

/** The number of each invoice row a page lists (its first cell). */
const numbersIn = (html: string) => [...html.matchAll(/<td[^>]*data-label="N°">(\d{4}-\d{4})<\/td>/g)].map((m) => m[1]);

describe("invoices page", () => {
  it("is in the navigation and opens on the open invoices, overdue ones included, each with its member, figures, state and actions", async () => {
    const nav = await owner.request("GET", "/admin");
    expect(nav.text).toContain('href="/admin/invoices"');
    const page = await owner.request("GET", "/admin/invoices");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<title>Factures");
    expect(page.text).toContain("2 factures");
    const open = await rowOf(ids.open);
    const overdue = await rowOf(ids.overdue);
    expect(numbersIn(page.text).sort()).toEqual([open.number, overdue.number].sort());
    expect(page.text).toContain(`<a href="/admin/members/${member.id}">Émilie Rochat</a>`);
    expect(page.text).toMatch(/data-label="Montant">120,00\s?CHF<\/td>/);
    expect(page.text).toContain("31 déc. 2099");
    expect(page.text).toContain('<span class="status status-suspended">En retard</span>');
    expect(page.text).toContain('<span class="status status-pending">Ouverte</span>');
    expect(page.text).toContain(`href="/admin/invoices/${ids.open}/pdf" aria-label="PDF de la facture ${open.number}"`);
    expect(page.text).toContain(`aria-label="Envoyer la facture ${open.number} au membre"`);
    expect(page.text).toContain(`data-confirm="Annuler la facture ${open.number} ? Elle ne sera plus rappelée ni payable."`);
    expect(page.text).toContain('href="/admin/invoices/new"');
  });

  it("shows each tab's invoices: overdue, paid, cancelled, all", async () => {
    const numberOf = async (id: string) => (await rowOf(id)).number;
    const tabs = { overdue: [ids.overdue], paid: [ids.paid], cancelled: [ids.cancelled], all: Object.values(ids) };
    for (const [tab, want] of Object.entries(tabs)) {
      const page = await owner.request("GET", `/admin/invoices?show=${tab}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`href="/admin/invoices?show=${tab}" aria-current="page"`);
      expect(numbersIn(page.text).sort()).toEqual((await Promise.all(want.map(numberOf))).sort());
    }
    // A paid invoice offers its PDF and send (a copy), not cancel; a cancelled one only its PDF.
    const cancelled = await owner.request("GET", "/admin/invoices?show=cancelled");
    expect(cancelled.text).toContain('<span class="status status-expired">Annulée</span>');
    expect(cancelled.text).not.toContain("/send");
    expect(cancelled.text).not.toContain("/cancel");
    const paid = await owner.request("GET", "/admin/invoices?show=paid");
    expect(paid.text).toMatch(/data-label="Payé">30,00\s?CHF<\/td>/);
    expect(paid.text).not.toContain(`/admin/invoices/${ids.paid}/cancel`);
    // An unknown tab is the open one, never an error.
    expect((await owner.request("GET", "/admin/invoices?show=nope&page=-3")).status).toBe(200);
  });

  it("downloads the PDF the API's GET pdf answers", async () => {
    const file = await owner.request("GET", `/admin/invoices/${ids.open}/pdf`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.text.startsWith("%PDF-")).toBe(true);
    expect(file.headers.get("content-disposition")).toContain(`facture-${(await rowOf(ids.open)).number}.pdf`);
    expect((await owner.request("GET", `/admin/invoices/${crypto.randomUUID()}/pdf`)).status).toBe(404);
  });

  it("sends an invoice to its member (the PDF attached) and comes back to the list it was sent from", async () => {
    smtp.inbox.length = 0;
    const res = await owner.post(`/admin/invoices/${ids.overdue}/send`, { back: "/admin/invoices?show=overdue" }, "/admin/invoices?show=overdue");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/invoices?show=overdue&done=sent");
    expect(smtp.inbox).toHaveLength(1);
    expect(smtp.inbox[0].to).toEqual(["emilie@test.org"]);
    expect(header(smtp.inbox[0].raw, "Subject")).toContain((await rowOf(ids.overdue)).number);
    expect(smtp.inbox[0].raw).toMatch(/content-type:\s*application\/pdf/i);
    const after = await owner.request("GET", res.headers.get("location") as string);
    expect(after.text).toContain("Facture envoyée au membre.");
    // A cancelled invoice is not sent: the list says why, in French, with the API's status.
    const refused = await owner.post(`/admin/invoices/${ids.cancelled}/send`, { back: "/admin/invoices?show=all" });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain("annulée");
    expect(smtp.inbox).toHaveLength(1);
  });

  it("cancels an open invoice; one with a payment on it is refused (409) and stays open", async () => {
    const extra = await invoice({ lines: [{ label: "Tournoi", amount_cents: 2000 }] });
    const res = await owner.post(`/admin/invoices/${extra.id}/cancel`, { back: "/admin/invoices?show=open" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/invoices?show=open&done=cancelled");
    expect(await rowOf(extra.id)).toMatchObject({ status: "cancelled" });
    expect((await env.call("GET", `${api()}/${extra.id}`)).body.status).toBe("cancelled");

    const part = await invoice({ lines: [{ label: "Stage", amount_cents: 4000 }] });
    await env.db.tx((t) => t.update(invoices).set({ paid_cents: 1000 }).where(eq(invoices.id, part.id)));
    const refused = await owner.post(`/admin/invoices/${part.id}/cancel`, { back: "/admin/invoices?show=open" });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain(part.number);
    expect(await rowOf(part.id)).toMatchObject({ status: "open", cancelled_at: null });
    // A `back` that is not a list of this page goes to the open invoices, never elsewhere.
    const third = await invoice({ lines: [{ label: "Repas", amount_cents: 2500 }] });
    const odd = await owner.post(`/admin/invoices/${third.id}/cancel`, { back: "https://evil.example/admin/invoices?x" });
    expect(odd.headers.get("location")).toBe("/admin/invoices?done=cancelled");
  });

  it("creates an invoice for a member found by the search, from lines", async () => {
    const other = await seedMember(env, { first_name: "Noé", last_name: "Vuilleumier", email: "noe@test.org" });
    const search = await owner.request("GET", "/admin/invoices/new?search=Vuilleumier");
    expect(search.status).toBe(200);
    expect(search.text).toContain(`href="/admin/invoices/new?member_id=${other.id}"`);
    const form = await owner.request("GET", `/admin/invoices/new?member_id=${other.id}`);
    expect(form.text).toContain("Nouvelle facture pour Noé Vuilleumier");
    const res = await owner.request("POST", "/admin/invoices/new", {
      form: {
        _csrf: owner.csrfOf(form),
        member_id: other.id,
        line0_label: "Cotisation 2026",
        line0_amount: "80",
        line1_label: "Rabais famille",
        line1_amount: "-12,50",
        line2_label: "",
        line2_amount: "",
        due_on: "2099-06-30",
      },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/invoices?show=open&done=created");
    const [row] = await env.db.read.select().from(invoices).where(eq(invoices.member_id, other.id));
    expect(row).toMatchObject({ status: "open", amount_cents: 6750, kind: "other", due_on: "2099-06-30" });
    expect(row.lines).toEqual([
      { label: "Cotisation 2026", amount_cents: 8000 },
      { label: "Rabais famille", amount_cents: -1250 },
    ]);
    expect((await owner.request("GET", "/admin/invoices?done=created")).text).toContain("Facture créée.");
  });

  it("takes a line's amount with an apostrophe (1'200.00), and says how to type one it cannot read", async () => {
    const other = await seedMember(env, { first_name: "Ada", last_name: "Apostrophe", email: "ada.apostrophe@test.org" });
    const from = `/admin/invoices/new?member_id=${other.id}`;
    const bad = await owner.post("/admin/invoices/new", { member_id: other.id, line0_label: "Camp", line0_amount: "mille" }, from);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("Saisissez un montant comme 50 ou 50.00.");
    expect(bad.text).not.toContain("nombre attendu");
    expect(await env.db.read.select().from(invoices).where(eq(invoices.member_id, other.id))).toEqual([]);
    const res = await owner.post("/admin/invoices/new", { member_id: other.id, line0_label: "Camp", line0_amount: "1'200.00" }, from);
    expect(res.status).toBe(303);
    const [row] = await env.db.read.select().from(invoices).where(eq(invoices.member_id, other.id));
    expect(row.lines).toEqual([{ label: "Camp", amount_cents: 120000 }]);
  });

  it("takes a line's amount with the club's currency (CHF 80, -CHF 5), and names a due date before today by the form's labels", async () => {
    const other = await seedMember(env, { first_name: "Cléo", last_name: "Devise", email: "cleo.devise@test.org" });
    const from = `/admin/invoices/new?member_id=${other.id}`;
    const early = await owner.post("/admin/invoices/new", { member_id: other.id, line0_label: "Camp", line0_amount: "80", due_on: "2020-01-01" }, from);
    expect(early.status).toBe(422);
    expect(early.text).toContain("« Échéance »");
    expect(early.text).not.toContain("« due_on »");
    const res = await owner.post(
      "/admin/invoices/new",
      { member_id: other.id, line0_label: "Camp", line0_amount: "CHF 80", line1_label: "Rabais", line1_amount: "-CHF 5" },
      from,
    );
    expect(res.status).toBe(303);
    const [row] = await env.db.read.select().from(invoices).where(eq(invoices.member_id, other.id));
    expect(row.lines).toEqual([
      { label: "Camp", amount_cents: 8000 },
      { label: "Rabais", amount_cents: -500 },
    ]);
  });

  it("creates an invoice of a tier's fee; no line at all, or a total of zero, is refused beside the lines", async () => {
    const tier = await insertTier(env, { name: "Junior" });
    const other = await seedMember(env, { first_name: "Léon", email: "leon@test.org" });
    const from = `/admin/invoices/new?member_id=${other.id}`;
    const form = await owner.request("GET", from);
    expect(form.text).toContain(`<option value="${tier.id}">Junior · 100,00`);
    expect((await owner.post("/admin/invoices/new", { member_id: other.id, tier_id: tier.id }, from)).status).toBe(303);
    const [row] = await env.db.read.select().from(invoices).where(eq(invoices.member_id, other.id));
    expect(row).toMatchObject({ kind: "membership", tier_id: tier.id, amount_cents: 10000 });

    const none = await owner.post("/admin/invoices/new", { member_id: other.id }, from);
    expect(none.status).toBe(422);
    expect(none.text).toContain('class="error-text"');
    const zero = await owner.post("/admin/invoices/new", { member_id: other.id, line0_label: "Rien", line0_amount: "0" }, from);
    expect(zero.status).toBe(422);
    const bad = await owner.post("/admin/invoices/new", { member_id: other.id, line0_label: "Stage", line0_amount: "douze" }, from);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('value="douze"');
    expect(await env.db.read.select().from(invoices).where(eq(invoices.member_id, other.id))).toHaveLength(1);
    // A member of another club (or none) is not invoiced: the search again.
    const stranger = await owner.request("GET", `/admin/invoices/new?member_id=${crypto.randomUUID()}`);
    expect(stranger.status).toBe(404);
  });

  it("shows 50 invoices a page, with the way to the next", async () => {
    const many = await seedMember(env, { first_name: "Beaucoup", email: "many@test.org" });
    for (let i = 0; i < 50; i++) await env.call("POST", api(), { body: { member_id: many.id, lines: [{ label: `L${i}`, amount_cents: 100 + i }] } });
    const first = await owner.request("GET", "/admin/invoices?show=all");
    const total = (await env.call("GET", `${api()}?limit=1`)).body.total;
    expect(numbersIn(first.text)).toHaveLength(50);
    expect(first.text).toContain('href="/admin/invoices?show=all&amp;page=2" rel="next"');
    const second = await owner.request("GET", "/admin/invoices?show=all&page=2");
    expect(numbersIn(second.text)).toHaveLength(total - 50);
    expect(second.text).toContain('rel="prev"');
  });

  it("lists the member's invoices on their page, with the way to a new one", async () => {
    const page = await owner.request("GET", `/admin/members/${member.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2 id="invoices">Factures</h2>');
    for (const id of Object.values(ids)) expect(page.text).toContain(`href="/admin/invoices/${id}/pdf"`);
    expect(page.text).toContain(`href="/admin/invoices/new?member_id=${member.id}"`);
    const fresh = await seedMember(env, { first_name: "Zoé", email: "zoe@test.org" });
    expect((await owner.request("GET", `/admin/members/${fresh.id}`)).text).toContain("Aucune facture.");
  });

  it("lets a read-only admin see the invoices and their PDFs, without buttons, and refuses their writes (403)", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const page = await viewer.request("GET", "/admin/invoices?show=overdue");
    expect(page.status).toBe(200);
    expect(page.text.includes(`/admin/invoices/${ids.overdue}/pdf`)).toBe(true);
    expect(page.text).not.toContain("/send");
    expect(page.text).not.toContain("/cancel");
    expect(page.text).not.toContain('href="/admin/invoices/new"');
    expect((await viewer.request("GET", `/admin/invoices/${ids.open}/pdf`)).status).toBe(200);
    expect((await viewer.request("GET", "/admin/invoices/new")).status).toBe(403);
    const refused = await viewer.post(`/admin/invoices/${ids.open}/cancel`, { back: "/admin/invoices?show=open" }, "/admin/invoices");
    expect(refused.status).toBe(403);
    expect(await rowOf(ids.open)).toMatchObject({ status: "open" });
    expect((await viewer.request("GET", `/admin/members/${member.id}`)).text).not.toContain("/admin/invoices/new?member_id=");
  });
});
