// Invoices over HTTP (issue 27, DESIGN.md section 20): created for a member from lines or a tier's
// fee, numbered per club and year without gaps (also when many are created at once, on both
// engines), with a QR reference for a QR-IBAN and an RF reference otherwise; listed, filtered,
// read and cancelled; the bad input the issue names refused with a 422 naming the field.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { clubs, invoiceCounters, invoices } from "../../db/schema";
import { invoiceReference, isCreditorReference, isQrReference, qrReference } from "../../lib/payments/reference";
import { insertTier } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { seedMember, withEndpoint } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000000" });
});
afterAll(() => env.close());

const base = () => `/api/clubs/${env.clubId}/invoices`;
const create = (body: unknown, key?: string) => env.call("POST", base(), { body, key });
const rowOf = async (id: string) => (await env.db.read.select().from(invoices).where(eq(invoices.id, id)))[0];
const setIban = (iban: string | null) => env.db.tx((t) => t.update(clubs).set({ payout_iban: iban }).where(eq(clubs.id, env.clubId)));

describe("POST invoices", () => {
  it("makes an open invoice from lines, numbered YYYY-NNNN, with an RF reference for a plain IBAN", async () => {
    await setIban("CH93 0076 2011 6238 5295 7");
    const member = await seedMember(env);
    const res = await create({
      member_id: member.id,
      issued_on: "2031-03-01",
      lines: [
        { label: "Cotisation 2031", amount_cents: 8000 },
        { label: "Rabais", amount_cents: -500 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      number: "2031-0001",
      member_id: member.id,
      kind: "other",
      amount_cents: 7500,
      currency: "CHF",
      issued_on: "2031-03-01",
      due_on: "2031-03-31",
      status: "open",
      paid_cents: 0,
      dunning_level: 0,
      pdf_url: `http://localhost/api/clubs/${env.clubId}/invoices/${res.body.id}/pdf`,
    });
    expect(isCreditorReference(res.body.reference)).toBe(true);
    expect(res.body.reference).toMatch(/^RF\d\dINV2031000001$/);
    const row = await rowOf(res.body.id);
    expect(row).toMatchObject({ club_id: env.clubId, number: "2031-0001", amount_cents: 7500, status: "open", reference: res.body.reference });
    expect(row.lines).toEqual([
      { label: "Cotisation 2031", amount_cents: 8000 },
      { label: "Rabais", amount_cents: -500 },
    ]);
  });

  it("gives a 27-digit QR reference (mod 10 recursive) when the IBAN is a QR-IBAN", async () => {
    await setIban("CH44 3199 9123 0008 8901 2");
    const member = await seedMember(env);
    const res = await create({ member_id: member.id, issued_on: "2031-04-01", lines: [{ label: "Camp", amount_cents: 12000 }] });
    expect(res.status).toBe(201);
    expect(res.body.number).toBe("2031-0002");
    expect(res.body.reference).toMatch(/^\d{27}$/);
    expect(isQrReference(res.body.reference)).toBe(true);
    expect(res.body.reference.slice(0, 26)).toBe("00000000000020310000000002");
    expect((await rowOf(res.body.id)).reference).toBe(res.body.reference);
  });

  it("invoices a tier's fee: its name and price as the first line, its currency, kind membership", async () => {
    const member = await seedMember(env);
    const tier = await insertTier(env, { name: "Junior" });
    const res = await create({ member_id: member.id, tier_id: tier.id, lines: [{ label: "Don", amount_cents: 1000 }] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: "membership", tier_id: tier.id, amount_cents: 11000, currency: "CHF" });
    expect(res.body.lines).toEqual([
      { label: "Junior", amount_cents: 10000 },
      { label: "Don", amount_cents: 1000 },
    ]);
    expect(res.body.number.startsWith(`${new Date().getUTCFullYear()}-`)).toBe(true);
  });

  it("refuses bad input with a 422 naming the field, and stores nothing", async () => {
    const member = await seedMember(env);
    const before = (await env.db.read.select().from(invoices)).length;
    const cases: [unknown, (string | number)[], string][] = [
      [{ member_id: member.id }, ["body", "lines"], "invoice_no_line"],
      [{ member_id: member.id, lines: [] }, ["body", "lines"], "invoice_no_line"],
      [{ member_id: member.id, lines: [{ label: "Rien", amount_cents: 0 }] }, ["body", "lines"], "invoice_total_not_positive"],
      [{ member_id: member.id, lines: [{ label: "Avoir", amount_cents: -100 }] }, ["body", "lines"], "invoice_total_not_positive"],
      [{ member_id: crypto.randomUUID(), lines: [{ label: "x", amount_cents: 100 }] }, ["body", "member_id"], "member_not_found"],
      [{ member_id: member.id, tier_id: crypto.randomUUID() }, ["body", "tier_id"], "tier_not_found"],
      [{ member_id: member.id, lines: [{ label: "x", amount_cents: 100 }], issued_on: "2031-05-10", due_on: "2031-05-09" }, ["body", "due_on"], "date_order"],
      [{ member_id: member.id, lines: [{ label: "", amount_cents: 100 }] }, ["body", "lines", 0, "label"], "too_small"],
      [{ member_id: member.id, lines: [{ label: "x", amount_cents: 1.5 }] }, ["body", "lines", 0, "amount_cents"], "invalid_type"],
    ];
    for (const [body, loc, type] of cases) {
      const res = await create(body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 422]);
      expect(res.body.detail.map((d: { loc: unknown; type: string }) => [d.loc, d.type])).toContainEqual([loc, type]);
    }
    // A member of another club is unknown here.
    const other = await env.otherClub();
    const stranger = await seedMember(env, {}, other.club_id);
    const res = await create({ member_id: stranger.id, lines: [{ label: "x", amount_cents: 100 }] });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("MEMBER_NOT_FOUND");
    expect(res.body.detail[0].loc).toEqual(["body", "member_id"]);
    const tierless = await create({ member_id: member.id, tier_id: crypto.randomUUID(), lines: [{ label: "x", amount_cents: 0 }] });
    expect(tierless.body.code).toBe("TIER_NOT_FOUND");
    expect((await create({ member_id: member.id, lines: [] })).body.code).toBe("VALIDATION_FAILED");
    expect((await env.db.read.select().from(invoices)).length).toBe(before);
  });

  it("needs finances:edit to write and finances:view to read", async () => {
    const member = await seedMember(env);
    const body = { member_id: member.id, lines: [{ label: "x", amount_cents: 100 }] };
    expect((await create(body, await env.makeKey({ finances: "view" }))).status).toBe(403);
    expect((await env.call("GET", base(), { key: await env.makeKey({ members: "edit" }) })).status).toBe(403);
    const made = await create(body, await env.makeKey({ finances: "edit" }));
    expect(made.status).toBe(201);
    const viewer = await env.makeKey({ finances: "view" });
    expect((await env.call("GET", `${base()}/${made.body.id}`, { key: viewer })).status).toBe(200);
    expect((await env.call("POST", `${base()}/${made.body.id}/actions/cancel`, { key: viewer })).status).toBe(403);
  });

  it("fires invoice.created and invoice.cancelled", async () => {
    const member = await seedMember(env);
    await withEndpoint(env, ["invoice.created", "invoice.cancelled"], async (sent) => {
      const made = await create({ member_id: member.id, lines: [{ label: "x", amount_cents: 100 }] });
      await env.call("POST", `${base()}/${made.body.id}/actions/cancel`);
      const types = (await sent()).map((d) => [d.type, JSON.parse(d.payload).data.number]);
      expect(types).toEqual([
        ["invoice.created", made.body.number],
        ["invoice.cancelled", made.body.number],
      ]);
    });
  });
});

describe("references", () => {
  it("QRR: SIX's own example checks, a changed digit does not; RF: ISO 11649 check digits", () => {
    expect(isQrReference("21 00000 00003 13947 14300 09017")).toBe(true);
    expect(qrReference("21000000000313947143000901")).toBe("210000000003139471430009017");
    expect(isQrReference("210000000003139471430009018")).toBe(false);
    expect(isQrReference("210000000003139471430009107")).toBe(false);
    expect(invoiceReference(true, 2026, 12345)).toBe(qrReference("20260000012345"));
    expect(isCreditorReference(invoiceReference(false, 2026, 7))).toBe(true);
    expect(invoiceReference(false, 2026, 7)).toMatch(/^RF\d\dINV2026000007$/);
  });
});

describe("numbers under concurrency", () => {
  it("40 invoices created at once get 0001..0040 of their year, each once, and the counter says 40", async () => {
    const member = await seedMember(env);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => create({ member_id: member.id, issued_on: "2033-01-15", lines: [{ label: `Line ${i}`, amount_cents: 100 + i }] })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(201));
    const numbers = answers.map((a) => a.body.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => `2033-${String(i + 1).padStart(4, "0")}`));
    const rows = await env.db.read
      .select()
      .from(invoices)
      .where(and(eq(invoices.club_id, env.clubId), eq(invoices.issued_on, "2033-01-15")));
    expect(rows).toHaveLength(40);
    expect(new Set(rows.map((r) => r.reference)).size).toBe(40);
    const [counter] = await env.db.read
      .select()
      .from(invoiceCounters)
      .where(and(eq(invoiceCounters.club_id, env.clubId), eq(invoiceCounters.year, 2033)));
    expect(counter.last).toBe(40);
  }, 60_000);

  it("a refused invoice takes no number; another club counts on its own", async () => {
    const member = await seedMember(env);
    expect((await create({ member_id: member.id, issued_on: "2034-02-01", lines: [{ label: "x", amount_cents: 0 }] })).status).toBe(422);
    const first = await create({ member_id: member.id, issued_on: "2034-02-01", lines: [{ label: "x", amount_cents: 100 }] });
    expect(first.body.number).toBe("2034-0001");
    const other = await env.otherClub();
    const stranger = await seedMember(env, {}, other.club_id);
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/invoices`, {
      key: other.api_key,
      body: { member_id: stranger.id, issued_on: "2034-02-01", lines: [{ label: "x", amount_cents: 100 }] },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.number).toBe("2034-0001");
  });
});

describe("reading and cancelling", () => {
  it("GET invoices filters by status, overdue, member_id, from and to, and pages like the member list", async () => {
    const alice = await seedMember(env, { first_name: "Alice" });
    const bob = await seedMember(env, { first_name: "Bob" });
    const a1 = await create({ member_id: alice.id, issued_on: "2020-01-10", due_on: "2020-02-10", lines: [{ label: "a1", amount_cents: 100 }] });
    const a2 = await create({ member_id: alice.id, issued_on: "2020-03-10", lines: [{ label: "a2", amount_cents: 100 }] });
    const b1 = await create({ member_id: bob.id, issued_on: "2099-01-10", lines: [{ label: "b1", amount_cents: 100 }] });
    await env.call("POST", `${base()}/${a2.body.id}/actions/cancel`);
    const ids = async (qs: string) => {
      const res = await env.call("GET", `${base()}?${qs}`);
      expect(res.status).toBe(200);
      return res.body.items.map((i: { id: string }) => i.id);
    };
    expect(await ids(`member_id=${alice.id}`)).toEqual([a2.body.id, a1.body.id]);
    expect(await ids(`member_id=${alice.id}&status=cancelled`)).toEqual([a2.body.id]);
    expect(await ids(`member_id=${alice.id}&overdue=true`)).toEqual([a1.body.id]);
    expect(await ids(`member_id=${alice.id}&overdue=false`)).toEqual([a2.body.id]);
    expect(await ids(`from=2099-01-01&to=2099-12-31`)).toEqual([b1.body.id]);
    expect(await ids(`from=2020-01-01&to=2020-02-01`)).toEqual([a1.body.id]);
    const one = await env.call("GET", `${base()}?member_id=${alice.id}&limit=1&page=2`);
    expect(one.body).toMatchObject({ total: 2, page: 2, limit: 1 });
    expect(one.body.items.map((i: { id: string }) => i.id)).toEqual([a1.body.id]);
    expect((await env.call("GET", `${base()}?page_size=1`)).body.limit).toBe(1);
    const overdue = await env.call("GET", `${base()}/${a1.body.id}`);
    expect(overdue.body).toMatchObject({ overdue: true, status: "open", number: a1.body.number });
    const mine = await env.call("GET", `/api/clubs/${env.clubId}/members/${bob.id}/invoices`);
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((i: { id: string }) => i.id)).toEqual([b1.body.id]);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/members/${crypto.randomUUID()}/invoices`)).status).toBe(404);
    expect((await env.call("GET", `${base()}?overdue=maybe`)).status).toBe(422);
  });

  it("cancel: an open invoice becomes cancelled; again: the same answer; paid (in part too): 409; unknown: 404", async () => {
    const member = await seedMember(env);
    const made = await create({ member_id: member.id, lines: [{ label: "x", amount_cents: 100 }] });
    const cancel = (id: string) => env.call("POST", `${base()}/${id}/actions/cancel`);
    const first = await cancel(made.body.id);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("cancelled");
    expect((await rowOf(made.body.id)).status).toBe("cancelled");
    expect((await cancel(made.body.id)).body.cancelled_at).toBe(first.body.cancelled_at);

    const paid = await create({ member_id: member.id, lines: [{ label: "x", amount_cents: 100 }] });
    const part = await create({ member_id: member.id, lines: [{ label: "x", amount_cents: 100 }] });
    await env.db.tx(async (t) => {
      await t.update(invoices).set({ status: "paid", paid_cents: 100 }).where(eq(invoices.id, paid.body.id));
      await t.update(invoices).set({ paid_cents: 40 }).where(eq(invoices.id, part.body.id));
    });
    for (const id of [paid.body.id, part.body.id]) {
      const res = await cancel(id);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("INVOICE_PAID");
    }
    expect((await rowOf(paid.body.id)).status).toBe("paid");
    expect((await rowOf(part.body.id)).status).toBe("open");
    expect((await cancel(crypto.randomUUID())).status).toBe(404);
    expect((await env.call("GET", `${base()}/${crypto.randomUUID()}`)).status).toBe(404);
  });
});
