// The dashboard's finances page through app.handle: the ledger with its totals and filters, the
// period's totals by account, the journal's exports (the bytes of GET journal), a bad filter
// shown beside its field, the page hidden from an admin's key scopes it lacks.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { insertMember, insertPayment } from "../events-fixtures";
import { setup } from "../helpers";
import { browser, type Env } from "./helpers";

let env: Env;
let owner: ReturnType<typeof browser>;
beforeAll(async () => {
  env = await setup();
  owner = browser(env);
  await owner.signIn();
  const m = await insertMember(env, { first: "Émilie" });
  await insertPayment(env, { kind: "membership", amount: 5000, paidAt: "2025-03-02T09:00:00.000Z", memberId: m.id });
  await insertPayment(env, { kind: "membership", amount: 10000, fee: 320, paidAt: "2025-03-10T12:00:00.000Z", memberId: m.id });
  await insertPayment(env, { kind: "membership", amount: 7000, method: "cash", paidAt: "2025-07-01T12:00:00.000Z", memberId: m.id });
});
afterAll(() => env.close());

describe("finances page", () => {
  it("shows the period's payments, their totals, the totals by account and the export buttons", async () => {
    const page = await owner.request("GET", "/admin/finances?from=2025-03-01&to=2025-03-31");
    expect(page.status).toBe(200);
    expect(page.text).toContain("2 paiements");
    expect(page.text).toContain("Cotisation Émilie Lovelace");
    // Gross, fees, net, in Swiss francs as French writes them.
    for (const figure of ["150,00", "3,20", "146,80"]) expect(page.text).toMatch(new RegExp(`<dd>${figure}\\s?CHF</dd>`));
    expect(page.text).toContain("<code>1020</code>");
    expect(page.text).toContain("<code>1021</code>");
    // Passage holds the card's 100.00 less its fee; July's cash payment is outside the period.
    expect(page.text).toMatch(/data-label="Solde">96,80\s?CHF<\/td>/);
    expect(page.text).not.toContain(">cash<");
    for (const format of ["csv", "banana", "datev", "json"]) expect(page.text).toContain(`name="format" value="${format}"`);
    const nav = await owner.request("GET", "/admin");
    expect(nav.text).toContain('href="/admin/finances"');
  });

  it("filters by method and kind; a reversed period is refused beside its field", async () => {
    const cash = await owner.request("GET", "/admin/finances?from=2025-01-01&to=2025-12-31&method=cash");
    expect(cash.text).toContain("1 paiement");
    expect(cash.text).toMatch(/<dd>70,00\s?CHF<\/dd>/);
    const reversed = await owner.request("GET", "/admin/finances?from=2025-12-31&to=2025-01-01");
    expect(reversed.status).toBe(422);
    expect(reversed.text).toContain('id="f-from-error"');
  });

  it("downloads the journal as GET journal answers it", async () => {
    const file = await owner.request("GET", "/admin/finances/journal?from=2025-03-01&to=2025-03-31&format=banana");
    expect(file.status).toBe(200);
    const api = await env.call("GET", `/api/clubs/${env.clubId}/journal?from=2025-03-01&to=2025-03-31&format=banana`);
    expect(file.text).toBe(api.text);
    expect(file.headers.get("content-disposition")).toContain("journal-");
    expect((await owner.request("GET", "/admin/finances/journal?from=2025-03-01&to=2025-03-31&format=xls")).status).toBe(422);
  });

  it("downloads this year's journal when opened without a period; a bad date is named by the form's label", async () => {
    const bare = await owner.request("GET", "/admin/finances/journal");
    expect(bare.status).toBe(200);
    const year = new Date().toISOString().slice(0, 4);
    const today = new Date().toISOString().slice(0, 10);
    const api = await env.call("GET", `/api/clubs/${env.clubId}/journal?from=${year}-01-01&to=${today}`);
    expect(bare.text).toBe(api.text);
    const bad = await owner.request("GET", "/admin/finances/journal?from=hier");
    expect(bad.status).toBe(422);
    expect(bad.text).toMatch(/role="alert">Du : [^<]+<\/div>/);
    expect(bad.text).not.toContain("undefined");
    expect(bad.text).toContain('href="/admin/finances"');
  });

  it("names the events account by its role while the club gives it no name (its default); a name given is shown", async () => {
    await insertPayment(env, { kind: "event", amount: 2000, method: "cash", paidAt: "2024-05-04T18:00:00.000Z" });
    const page = await owner.request("GET", "/admin/finances?from=2024-05-01&to=2024-05-31");
    expect(page.text).toMatch(/<code>3200<\/code><\/td><td[^>]*>Événements<\/td>/);
    const patched = await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { accounting_account_events_name: "Manifestations" } });
    expect(patched.status).toBe(200);
    const named = await browser(env);
    await named.signIn();
    expect((await named.request("GET", "/admin/finances?from=2024-05-01&to=2024-05-31")).text).toMatch(/<code>3200<\/code><\/td><td[^>]*>Manifestations<\/td>/);
  });

  it("says why there are no exports nor totals by account when the period has no start", async () => {
    const page = await owner.request("GET", "/admin/finances?from=&to=2025-12-31");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Cotisation Émilie Lovelace");
    expect(page.text).toContain("Les totaux par compte et les exports du journal portent sur une période : choisissez une date « Du » et une date « Au ».");
    expect(page.text).not.toContain('name="format"');
  });
});
