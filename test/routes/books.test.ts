// The books (DESIGN.md section 21): GET payments (the ledger, its filters and totals, equal to the
// stats' revenue) and GET journal (the double-entry rules, the trial balance, each format against
// its published rules, the same bytes twice, bad input).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import Papa from "papaparse";
import { payments } from "../../db/schema";
import type { Caller } from "../../lib/access";
import { type Ctx, siteOf } from "../../lib/context";
import { receiptNumber } from "../../lib/payments/reference";
import { clubStats } from "../../lib/stats";
import { authCases } from "../auth-cases";
import { createEventVia, insertMember, insertPayment, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
/** The fixed year's payments (below): a bank transfer, a card payment, a ticket by card, a card refund, a cash payment in another month. */
let ids: Record<"bank" | "card" | "ticket" | "refund" | "cash", string>;
let memberId: string;

beforeAll(async () => {
  env = await setup();
  await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { locale: "en" } });
  const m = await insertMember(env, { first: "Émilie" });
  memberId = m.id;
  const e = await createEventVia(env, { title: "Summer ride", tickets: [{ name: "T", non_member_price_cents: 3000 }] });
  const reg = await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[0].id, amount: 3000, first: "Łukasz" });
  const bank = await insertPayment(env, { kind: "membership", amount: 5000, paidAt: "2025-03-02T09:00:00.000Z", memberId });
  const card = await insertPayment(env, { kind: "membership", amount: 10000, fee: 320, commission: 200, paidAt: "2025-03-10T12:00:00.000Z", memberId });
  const ticket = await insertPayment(env, { kind: "event", amount: 3000, fee: 100, paidAt: "2025-03-20T18:30:00.000Z", registrationId: reg.id });
  const refund = await insertPayment(env, {
    kind: "membership",
    amount: -4000,
    source: "provider",
    method: "stripe",
    paidAt: "2025-03-31T23:59:59.000Z",
    memberId,
  });
  const cash = await insertPayment(env, { kind: "membership", amount: 2500, method: "cash", paidAt: "2025-04-01T00:00:00.000Z", memberId });
  ids = { bank: bank.id, card: card.id, ticket: ticket.id, refund: refund.id, cash: cash.id };
  const other = await env.otherClub();
  await insertPayment(env, { clubId: other.club_id, kind: "membership", amount: 99999, paidAt: "2025-03-15T10:00:00.000Z" });
});
afterAll(() => env.close());

function ctxOf(e: TestEnv): Ctx {
  const actor: Caller = {
    kind: "key",
    adminId: e.adminId,
    clubId: e.clubId,
    locale: "en",
    scopes: e.allEdit,
    readOnly: false,
    isSuperadmin: false,
    keyId: null,
    keyPrefix: null,
  };
  return { db: e.db, actor, clubId: e.clubId, locale: "en", ...siteOf(e.config) };
}

const ledger = (qs: string) => env.call("GET", `/api/clubs/${env.clubId}/payments?${qs}`);
const journal = (qs: string) => env.call("GET", `/api/clubs/${env.clubId}/journal?${qs}`);
const bytesOf = async (qs: string) => {
  const res = await env.app.handle(new Request(`http://localhost/api/clubs/${env.clubId}/journal?${qs}`, { headers: { authorization: `Bearer ${env.key}` } }));
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe("GET /api/clubs/:club_id/payments", () => {
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/payments`, scope: "finances:view" });

  it("lists the club's payments newest first, each with its kind, net, reference and description; totals for the filter", async () => {
    const res = await ledger("from=2025-03-01&to=2025-03-31");
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([ids.refund, ids.ticket, ids.card, ids.bank]);
    const card = res.body.items[2];
    expect(card).toMatchObject({
      amount_cents: 10000,
      method: "card",
      kind: "membership",
      provider_fee_cents: 320,
      platform_commission_cents: 200,
      net_cents: 9480,
    });
    expect(card.description).toBe("Membership Émilie Lovelace");
    expect(card.reference).toMatch(/^RF\d\d/);
    expect(card.invoice_id).toBeNull();
    expect(res.body.items[0]).toMatchObject({ kind: "refund", amount_cents: -4000, description: "Refund: Membership Émilie Lovelace" });
    expect(res.body.items[1]).toMatchObject({ kind: "event", description: "Summer ride – Łukasz Hopper" });
    expect(res.body.totals).toEqual({ count: 4, gross_cents: 14000, provider_fees_cents: 420, platform_commission_cents: 200, net_cents: 13380 });
    // What the database holds for the club in that period, summed independently.
    const rows = (await env.db.read.select().from(payments).where(eq(payments.club_id, env.clubId))).filter((r) => r.paid_at.startsWith("2025-03"));
    expect(rows.reduce((s, r) => s + r.amount_cents, 0)).toBe(res.body.totals.gross_cents);
  });

  it("filters by kind, method and member, and pages with the totals of the whole filter", async () => {
    const refunds = await ledger("kind=refund");
    expect(refunds.body.items.map((i: { id: string }) => i.id)).toEqual([ids.refund]);
    const cash = await ledger("method=cash");
    expect(cash.body.items.map((i: { id: string }) => i.id)).toEqual([ids.cash]);
    const mine = await ledger(`member_id=${memberId}`);
    expect(mine.body.total).toBe(4);
    const page = await ledger("limit=2&page=2");
    expect(page.body).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(page.body.items.map((i: { id: string }) => i.id)).toEqual([ids.ticket, ids.card]);
    expect(page.body.totals.gross_cents).toBe(16500);
  });

  it("gives the stats' revenue of a month as the totals of its days", async () => {
    const stats = await clubStats(ctxOf(env), { now: new Date("2025-03-15T12:00:00Z") });
    const month = (await ledger("from=2025-03-01&to=2025-03-31")).body.totals;
    const m = stats.revenue.this_month;
    expect({ gross: month.gross_cents, fees: month.provider_fees_cents, commission: month.platform_commission_cents, net: month.net_cents }).toEqual({
      gross: m.gross_cents,
      fees: m.provider_fees_cents,
      commission: m.platform_commission_cents,
      net: m.net_cents,
    });
    const all = (await ledger("")).body.totals;
    expect(all.gross_cents).toBe(stats.revenue.all_time.gross_cents);
  });

  it("422 naming the parameter: from after to, a period over 10 years, an unknown kind", async () => {
    const reversed = await ledger("from=2025-04-01&to=2025-03-01");
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail[0].loc).toEqual(["query", "from"]);
    const long = await ledger("from=2015-01-01&to=2025-01-01");
    expect(long.status).toBe(422);
    expect(long.body.detail[0].loc).toEqual(["query", "to"]);
    expect((await ledger("from=2015-01-02&to=2025-01-01")).status).toBe(200);
    expect((await ledger("from=0001-01-01&to=0050-01-01")).body.detail[0].loc).toEqual(["query", "to"]);
    expect((await ledger("from=9995-01-01&to=9999-12-31")).status).toBe(200);
    const kind = await ledger("kind=gift");
    expect(kind.status).toBe(422);
    expect(kind.body.detail[0].loc).toEqual(["query", "kind"]);
  });
});

type Line = { date: string; doc: string; description: string; debit_account: string; credit_account: string; amount_cents: number; currency: string };

describe("GET /api/clubs/:club_id/journal", () => {
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/journal?from=2025-01-01&to=2025-12-31`, scope: "finances:view" });

  it("books bank to revenue, a card through passage with its fee and commission, a ticket to events, a refund reversed", async () => {
    const res = await journal("from=2025-03-01&to=2025-03-31");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const lines: Line[] = res.body.lines;
    const of = (id: string) => lines.filter((l) => l.doc === receiptNumber(id)).map((l) => [l.debit_account, l.credit_account, l.amount_cents]);
    expect(of(ids.bank)).toEqual([["1020", "3100", 5000]]);
    expect(of(ids.card)).toEqual([
      ["1021", "3100", 10000],
      ["3090", "1021", 320],
      ["3090", "1021", 200],
    ]);
    expect(of(ids.ticket)).toEqual([
      ["1021", "3200", 3000],
      ["3090", "1021", 100],
    ]);
    expect(of(ids.refund)).toEqual([["3100", "1021", 4000]]);
    expect(lines[0]).toEqual({
      date: "2025-03-02",
      doc: receiptNumber(ids.bank),
      description: "Membership Émilie Lovelace",
      debit_account: "1020",
      credit_account: "3100",
      amount_cents: 5000,
      currency: "CHF",
    });
    expect(lines.find((l) => l.amount_cents === 320)?.description).toBe("Payment fee: Membership Émilie Lovelace");
    // In date order; the cash payment of April 1st is outside the period.
    expect(lines.map((l) => l.date)).toEqual([...lines.map((l) => l.date)].sort());
    expect(of(ids.cash)).toEqual([]);
  });

  it("gives each account's totals: a trial balance summing to zero, passage holding what payouts owe", async () => {
    const res = await journal("from=2025-01-01&to=2025-12-31");
    const accounts: { account: string; name: string; debit_cents: number; credit_cents: number; balance_cents: number }[] = res.body.accounts;
    expect(accounts.reduce((s, a) => s + a.balance_cents, 0)).toBe(0);
    const byNumber = Object.fromEntries(accounts.map((a) => [a.account, a]));
    expect(byNumber["1020"]).toMatchObject({ name: "Banque", debit_cents: 7500, credit_cents: 0, balance_cents: 7500 });
    // Card money on its way: gross 13,000 - refund 4,000 - fees 420 - commission 200.
    expect(byNumber["1021"].balance_cents).toBe(8380);
    expect(byNumber["3100"].balance_cents).toBe(-(5000 + 10000 - 4000 + 2500));
    expect(byNumber["3090"].balance_cents).toBe(620);
    for (const a of accounts) expect(a.balance_cents).toBe(a.debit_cents - a.credit_cents);
  });

  it("writes Banana's import: tab-separated UTF-8, its header, ISO dates, amounts with a point", async () => {
    const { res, bytes } = await bytesOf("from=2025-03-01&to=2025-03-31&format=banana");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/tab-separated-values");
    expect(res.headers.get("content-disposition")).toContain(".txt");
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    const rows = text.split("\n");
    expect(rows[0]).toBe("Date\tDoc\tDescription\tAccountDebit\tAccountCredit\tAmount");
    expect(rows.at(-1)).toBe("");
    const body = rows.slice(1, -1).map((r) => r.split("\t"));
    expect(body.length).toBe(7);
    for (const r of body) {
      expect(r.length).toBe(6);
      expect(r[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r[5]).toMatch(/^\d+\.\d{2}$/);
    }
    expect(body[0]).toEqual(["2025-03-02", receiptNumber(ids.bank), "Membership Émilie Lovelace", "1020", "3100", "50.00"]);
    expect(body.find((r) => r[5] === "3.20")?.slice(3)).toEqual(["3090", "1021", "3.20"]);
  });

  it("writes CSV: UTF-8 with a BOM, the line fields", async () => {
    const { res, bytes } = await bytesOf("from=2025-03-01&to=2025-03-31&format=csv");
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const parsed = Papa.parse<string[]>(
      new TextDecoder()
        .decode(bytes)
        .replace(/^\uFEFF/, "")
        .trim(),
    );
    expect(parsed.data[0]).toEqual(["date", "doc", "description", "debit_account", "credit_account", "amount_cents", "currency"]);
    expect(parsed.data.length).toBe(8);
    expect(parsed.data[1]).toEqual(["2025-03-02", receiptNumber(ids.bank), "Membership Émilie Lovelace", "1020", "3100", "5000", "CHF"]);
  });

  it("writes DATEV's Buchungsstapel: EXTF 700 header, category 21, Windows-1252, `;`, decimal comma, S/H; a letter it lacks written as the closest, with a warning", async () => {
    const { res, bytes } = await bytesOf("from=2025-03-01&to=2025-03-31&format=datev");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("windows-1252");
    expect(res.headers.get("content-disposition")).toContain("EXTF_");
    const text = new TextDecoder("windows-1252").decode(bytes);
    const rows = text.split("\r\n");
    const header = rows[0].split(";");
    expect(header.length).toBe(31);
    expect(header.slice(0, 5)).toEqual(['"EXTF"', "700", "21", '"Buchungsstapel"', "13"]);
    expect(header[5]).toMatch(/^\d{17}$/);
    expect(header.slice(12, 16)).toEqual(["20250101", "4", "20250301", "20250331"]);
    expect(header[21]).toBe('"CHF"');
    expect(rows[1].split(";").slice(0, 2)).toEqual(["Umsatz (ohne Soll/Haben-Kz)", "Soll/Haben-Kennzeichen"]);
    const first = rows[2].split(";");
    expect(first.slice(0, 3)).toEqual(["50,00", '"S"', '"CHF"']);
    expect(first.slice(6, 8)).toEqual(["1020", "3100"]);
    expect(first[9]).toBe("0203");
    expect(first[10]).toBe(`"${receiptNumber(ids.bank)}"`);
    // É is in Windows-1252 (one byte 0xC9); Ł is not: written as L, and the answer says so.
    expect(first[13]).toBe('"Membership Émilie Lovelace"');
    expect(bytes.includes(0xc9)).toBe(true);
    expect(text).toContain("Summer ride – Lukasz Hopper");
    expect(res.headers.get("warning")).toMatch(/^299 - "2 line\(s\)/);
    for (const r of rows.slice(2, -1)) expect(r.split(";")[0]).toMatch(/^\d{1,10},\d{2}$/);
    expect(rows.at(-1)).toBe("");
  });

  it("gives the same bytes twice for the same period, in every format", async () => {
    for (const format of ["json", "csv", "banana", "datev"]) {
      const a = await bytesOf(`from=2025-01-01&to=2025-12-31&format=${format}`);
      const b = await bytesOf(`from=2025-01-01&to=2025-12-31&format=${format}`);
      expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    }
  });

  it("writes a period without payments: the header alone, a JSON without lines", async () => {
    const banana = await bytesOf("from=2020-01-01&to=2020-12-31&format=banana");
    expect(new TextDecoder().decode(banana.bytes)).toBe("Date\tDoc\tDescription\tAccountDebit\tAccountCredit\tAmount\n");
    const json = await journal("from=2020-01-01&to=2020-12-31");
    expect(json.body).toEqual({ from: "2020-01-01", to: "2020-12-31", currency: "CHF", journal: "", lines: [], accounts: [] });
  });

  it("books a payment an admin marks paid (bank transfer) from the bank to revenue", async () => {
    const m = await insertMember(env, { paymentStatus: "pending", first: "Zoé" });
    const paid = await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/mark-paid`, { body: { amount_cents: 4200 } });
    expect(paid.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const lines: Line[] = (await journal(`from=${today}&to=${today}`)).body.lines;
    const [row] = await env.db.read.select().from(payments).where(eq(payments.member_id, m.id));
    expect(lines.filter((l) => l.doc === receiptNumber(row.id))).toEqual([
      {
        date: today,
        doc: receiptNumber(row.id),
        description: "Membership Zoé Lovelace",
        debit_account: "1020",
        credit_account: "3100",
        amount_cents: 4200,
        currency: "CHF",
      },
    ]);
  });

  it("uses the club's own account numbers, which must be 1 to 10 digits", async () => {
    const e = await setup();
    try {
      for (const bad of ["10a0", "", "12345678901"]) {
        const res = await e.call("PUT", `/api/clubs/${e.clubId}`, { body: { accounting_account_bank: bad } });
        expect(res.status).toBe(422);
        expect(res.body.detail[0].loc).toEqual(["body", "accounting_account_bank"]);
      }
      const ok = await e.call("PUT", `/api/clubs/${e.clubId}`, { body: { accounting_account_bank: "1000", accounting_account_revenue: "6000" } });
      expect(ok.status).toBe(200);
      // The change is in the audit log: who (the key), what (PUT of the club), when, its answer.
      await e.app.audit.drain();
      const audit = await e.call("GET", `/api/clubs/${e.clubId}/audit-log?path=${encodeURIComponent(`/api/clubs/${e.clubId}`)}&limit=100`);
      const puts = audit.body.items.filter((r: { method: string }) => r.method === "PUT");
      expect(puts.map((r: { status: number; key_prefix: string }) => [r.status, r.key_prefix])).toEqual([
        [200, e.key.slice(0, 12)],
        [422, e.key.slice(0, 12)],
        [422, e.key.slice(0, 12)],
        [422, e.key.slice(0, 12)],
      ]);
      await insertPayment(e, { kind: "membership", amount: 1000, paidAt: "2025-05-05T10:00:00.000Z" });
      const res = await e.call("GET", `/api/clubs/${e.clubId}/journal?from=2025-05-01&to=2025-05-31`);
      expect(res.body.lines.map((l: Line) => [l.debit_account, l.credit_account, l.description])).toEqual([["1000", "6000", "Paiement"]]);
    } finally {
      await e.close();
    }
  });

  it("422 naming the parameter: from after to, an unknown format, a period over 10 years, a DATEV file over two years, a missing day", async () => {
    const cases: [string, string][] = [
      ["from=2025-04-01&to=2025-03-01", "from"],
      ["from=2025-01-01&to=2025-03-01&format=xls", "format"],
      ["from=2015-01-01&to=2025-01-01", "to"],
      ["from=2024-12-01&to=2025-01-31&format=datev", "to"],
      ["to=2025-01-31", "from"],
      ["from=2025-02-30&to=2025-03-01", "from"],
    ];
    for (const [qs, name] of cases) {
      const res = await journal(qs);
      expect({ qs, status: res.status, loc: res.body.detail?.[0]?.loc }).toEqual({ qs, status: 422, loc: ["query", name] });
    }
    expect((await journal("from=2024-12-01&to=2025-01-31&format=banana")).status).toBe(200);
  });
});

describe("a journal of many pages", () => {
  it("reads the period a page at a time: every payment once, in order, the payouts between them", async () => {
    const e = await setup();
    try {
      const { newId } = await import("../../lib/ids");
      const { payouts } = await import("../../db/schema");
      // 1,703 payments, several at the same instant (the id breaks the tie across a page's end); 18
      // pages, so a collection asked for between pages (COLLECT_EVERY, 16) comes in the middle.
      const rows = Array.from({ length: 1703 }, (_, i) => {
        const at = new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 3_600_000).toISOString();
        return {
          id: newId(),
          club_id: e.clubId,
          member_id: null,
          kind: "membership",
          amount_cents: 100 + i,
          currency: "CHF",
          method: "bank_transfer",
          source: "manual",
          paid_at: at,
          created_at: at,
        };
      });
      await e.db.tx((t) => t.insert(payments).values(rows));
      await e.db.tx((t) =>
        t.insert(payouts).values({
          id: newId(),
          club_id: e.clubId,
          provider_payout_id: "po_between",
          amount_cents: 777,
          currency: "CHF",
          paid_at: "2025-01-10T00:30:00.000Z",
          created_at: "2025-01-10T00:30:00.000Z",
        }),
      );
      const res = await e.call("GET", `/api/clubs/${e.clubId}/journal?from=2025-01-01&to=2025-12-31`);
      const lines: Line[] = res.body.lines;
      expect(lines.length).toBe(1704);
      const docs = lines.filter((l) => l.doc !== "po_between").map((l) => l.doc);
      expect(new Set(docs).size).toBe(1703);
      const inOrder = [...rows].sort((a, b) => (a.paid_at === b.paid_at ? (a.id < b.id ? -1 : 1) : a.paid_at < b.paid_at ? -1 : 1));
      expect(lines.filter((l) => l.doc !== "po_between").map((l) => l.amount_cents)).toEqual(inOrder.map((r) => r.amount_cents));
      const at = lines.findIndex((l) => l.doc === "po_between");
      expect(lines[at - 1].date <= "2025-01-10" && lines[at + 1].date >= "2025-01-10").toBe(true);
      expect(lines[at]).toMatchObject({ debit_account: "1020", credit_account: "1021", amount_cents: 777 });
    } finally {
      await e.close();
    }
  }, 30_000);
});
