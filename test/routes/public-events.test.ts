// GET /api/public/clubs/:slug/events, POST /api/public/events/:event_id/registrations,
// GET /api/public/registrations/:qr_token/ics
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { clubs, eventRegistrations, promoCodes, promoRedemptions } from "../../db/schema";
import { createEventVia, inDaysAt, insertMember, insertRegistration, insertTier } from "../events-fixtures";
import { t } from "../../lib/i18n";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
let clubSlug: string;
beforeAll(async () => {
  env = await setup();
  clubSlug = (await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId)))[0].slug;
});
afterAll(() => env.close());

const person = { first_name: "Marie", last_name: "Curie", email: "Marie@Example.org" };
let ipCounter = 0;
/**
 * A public POST from its own client address (each address is rate-limited: see the last test),
 * by its own mailbox unless `body` names one (an event takes one registration per email).
 */
async function register(eventId: string, body: Record<string, unknown>) {
  const ip = `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  const request = new Request(`http://localhost/api/public/events/${eventId}/registrations`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...person, email: `marie${ipCounter}@example.org`, ...body }),
  });
  const res = await env.app.handle(request, ip);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), headers: res.headers };
}
const regsOf = async (eventId: string) => env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, eventId));
const holding = async (eventId: string) => (await regsOf(eventId)).filter((r) => r.status !== "cancelled").length;
const promo = (body: Record<string, unknown>) =>
  env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, { body: { discount_type: "percent", discount_value: 10, ...body } });

describe("GET /api/public/clubs/:slug/events", () => {
  it("lists only the club's published, listed events, without credentials", async () => {
    const fresh = await setup();
    try {
      const slug = (await fresh.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, fresh.clubId)))[0].slug;
      const shown = await createEventVia(fresh, { title: "Shown", capacity: 10, tickets: [{ name: "T", non_member_price_cents: 500 }] });
      await createEventVia(fresh, { title: "Unlisted", listed: false });
      const draft = await createEventVia(fresh, { title: "Draft" });
      await fresh.call("PATCH", `/api/clubs/${fresh.clubId}/events/${draft.id}`, { body: { status: "draft" } });
      const cancelled = await createEventVia(fresh, { title: "Cancelled" });
      await fresh.call("PATCH", `/api/clubs/${fresh.clubId}/events/${cancelled.id}`, { body: { status: "cancelled" } });
      await insertRegistration(fresh, { eventId: shown.id, ticketId: shown.tickets[0].id });
      const res = await fresh.call("GET", `/api/public/clubs/${slug}/events`, { key: null });
      expect(res.status).toBe(200);
      expect(res.body.map((e: { title: string }) => e.title)).toEqual(["Shown"]);
      expect(res.body[0]).toMatchObject({ capacity: 10, places_left: 9, currency: "CHF" });
      expect(res.body[0].tickets[0]).toMatchObject({ name: "T", non_member_price_cents: 500, sold_out: false });
      expect((await fresh.call("GET", "/api/public/clubs/no-such-club/events", { key: null })).status).toBe(404);
    } finally {
      await fresh.close();
    }
  });
});

describe("places held: one rule for the public list, the refusals and the admin counts", () => {
  it("confirmed and pending hold a place, cancelled none; when full the list shows sold_out and places_left 0", async () => {
    const e = await createEventVia(env, {
      capacity: 3,
      tickets: [
        { name: "A", non_member_price_cents: 0, quantity_max: 1 },
        { name: "B", non_member_price_cents: 0 },
      ],
    });
    const [a, b] = e.tickets.map((t: { id: string }) => t.id);
    await insertRegistration(env, { eventId: e.id, ticketId: a });
    await insertRegistration(env, { eventId: e.id, ticketId: b, status: "pending" });
    await insertRegistration(env, { eventId: e.id, ticketId: b, status: "cancelled" });
    const listed = async () => (await env.call("GET", `/api/public/clubs/${clubSlug}/events`, { key: null })).body.find((x: { id: string }) => x.id === e.id);
    let shown = await listed();
    expect(shown.places_left).toBe(1);
    expect(shown.tickets.map((t: { sold_out: boolean }) => t.sold_out)).toEqual([true, false]);
    const detail = (await env.call("GET", `/api/clubs/${env.clubId}/events/${e.id}`)).body;
    expect(detail.registered_count).toBe(2);
    expect(detail.tickets.map((t: { registered_count: number }) => t.registered_count)).toEqual([1, 1]);
    expect((await register(e.id, { ticket_id: a })).body.code).toBe("TICKET_SOLD_OUT");
    expect((await register(e.id, { ticket_id: b })).status).toBe(201);
    shown = await listed();
    expect(shown.places_left).toBe(0);
    expect(shown.tickets.map((t: { sold_out: boolean }) => t.sold_out)).toEqual([true, true]);
    const full = await register(e.id, { ticket_id: b });
    expect(full.status).toBe(409);
    expect(full.body.code).toBe("EVENT_FULL");
    expect(await holding(e.id)).toBe(3);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/events`)).body.find((x: { id: string }) => x.id === e.id).registered_count).toBe(3);
  });
});

describe("POST /api/public/events/:event_id/registrations", () => {
  it("a free registration is confirmed, stored, and answers its qr_token and calendar address", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
    const res = await register(e.id, { ticket_id: e.tickets[0].id, email: person.email });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "confirmed", amount_cents: 0, is_member: false, ticket_name: "Libre", currency: "CHF" });
    expect(res.body.ics_url).toBe(`http://localhost/api/public/registrations/${res.body.qr_token}/ics`);
    const [row] = await regsOf(e.id);
    expect(row).toMatchObject({ id: res.body.id, status: "confirmed", email: "marie@example.org", source: "public", member_id: null, club_id: env.clubId });
  });

  it("a paid registration is pending (awaiting payment) at the non-member price", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "Payant", member_price_cents: 1000, non_member_price_cents: 2500 }] });
    const res = await register(e.id, { ticket_id: e.tickets[0].id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "pending", amount_cents: 2500 });
    expect((await regsOf(e.id))[0].status).toBe("pending");
  });

  it("member prices: the tier's price when set, else member_price_cents; the card code in any case", async () => {
    const gold = await insertTier(env, { name: "Gold" });
    const silver = await insertTier(env, { name: "Silver" });
    const e = await createEventVia(env, { tickets: [{ name: "T", member_price_cents: 1000, non_member_price_cents: 2500, tier_prices: { [gold.id]: 400 } }] });
    const goldMember = await insertMember(env, { code: "GOLD3467", tierId: gold.id });
    const silverMember = await insertMember(env, { code: "SILV3467", tierId: silver.id });
    const plain = await insertMember(env, { code: "PLAN3467" });
    const g = await register(e.id, { ticket_id: e.tickets[0].id, member_code: "gold3467" });
    expect(g.body).toMatchObject({ amount_cents: 400, is_member: true, status: "pending" });
    expect((await register(e.id, { ticket_id: e.tickets[0].id, member_code: "SILV3467" })).body.amount_cents).toBe(1000);
    expect((await register(e.id, { ticket_id: e.tickets[0].id, member_code: "PLAN3467" })).body.amount_cents).toBe(1000);
    const rows = await regsOf(e.id);
    expect(rows.map((r) => r.member_id).sort()).toEqual([goldMember.id, silverMember.id, plain.id].sort());
  });

  it("member code: unknown -> 422; another club's member -> 422; inactive membership -> 409", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "T", member_price_cents: 0, non_member_price_cents: 100 }] });
    const unknown = await register(e.id, { ticket_id: e.tickets[0].id, member_code: "NOPE9999" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(["body", "member_code"]);
    const other = await env.otherClub();
    await insertMember(env, { clubId: other.club_id, code: "OTHR3467" });
    expect((await register(e.id, { ticket_id: e.tickets[0].id, member_code: "OTHR3467" })).status).toBe(422);
    await insertMember(env, { code: "EXPD3467", end: "2020-01-01" });
    await insertMember(env, { code: "SUSP3467", paymentStatus: "suspended" });
    for (const code of ["EXPD3467", "SUSP3467"]) {
      const res = await register(e.id, { ticket_id: e.tickets[0].id, member_code: code });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("MEMBERSHIP_NOT_ACTIVE");
    }
    expect(await regsOf(e.id)).toHaveLength(0);
  });

  it("members-only ticket (no non-member price) and members-only event -> 403 without a member code", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "Membres", member_price_cents: 0 }] });
    const res = await register(e.id, { ticket_id: e.tickets[0].id });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("TICKET_MEMBERS_ONLY");
    const m = await insertMember(env, { code: "MBRS3467" });
    expect((await register(e.id, { ticket_id: e.tickets[0].id, member_code: m.referral_code })).status).toBe(201);
    const closed = await createEventVia(env, { access: "members", tickets: [{ name: "T", non_member_price_cents: 0 }] });
    const refused = await register(closed.id, { ticket_id: closed.tickets[0].id });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("EVENT_MEMBERS_ONLY");
    expect(await regsOf(closed.id)).toHaveLength(0);
  });

  it("a refusal is told in the club's language, whatever language the visitor's browser asks for", async () => {
    const english = await setup();
    try {
      expect((await english.call("PUT", `/api/clubs/${english.clubId}`, { body: { locale: "en" } })).status).toBe(200);
      const e = await createEventVia(english, { tickets: [{ name: "Members", member_price_cents: 0 }] });
      const res = await english.app.handle(
        new Request(`http://localhost/api/public/events/${e.id}/registrations`, {
          method: "POST",
          headers: { "content-type": "application/json", "accept-language": "de" },
          body: JSON.stringify({ ...person, ticket_id: e.tickets[0].id }),
        }),
        "10.9.9.9",
      );
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body.code).toBe("TICKET_MEMBERS_ONLY");
      expect(body.detail).toBe(t("en", "TICKET_MEMBERS_ONLY"));
    } finally {
      await english.close();
    }
  });

  it("registration window: before opening and after closing -> 409; a past event -> 409", async () => {
    const soon = await createEventVia(env, { registration_opens_at: inDaysAt(30), tickets: [{ name: "T", non_member_price_cents: 0 }] });
    const early = await register(soon.id, { ticket_id: soon.tickets[0].id });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("REGISTRATION_NOT_OPEN");
    const closed = await createEventVia(env, { registration_closes_at: "2020-01-01T00:00:00Z", tickets: [{ name: "T", non_member_price_cents: 0 }] });
    expect((await register(closed.id, { ticket_id: closed.tickets[0].id })).body.code).toBe("REGISTRATION_CLOSED");
    const past = await createEventVia(env, { starts_at: "2020-01-01T00:00:00Z", tickets: [{ name: "T", non_member_price_cents: 0 }] });
    expect((await register(past.id, { ticket_id: past.tickets[0].id })).status).toBe(409);
    const open = await createEventVia(env, {
      registration_opens_at: "2020-01-01T00:00:00Z",
      registration_closes_at: inDaysAt(90),
      tickets: [{ name: "T", non_member_price_cents: 0 }],
    });
    expect((await register(open.id, { ticket_id: open.tickets[0].id })).status).toBe(201);
  });

  it("draft or unknown event -> 404; cancelled -> 409; another event's ticket -> 404; inactive ticket -> 409", async () => {
    const e = await createEventVia(env, {
      tickets: [
        { name: "A", non_member_price_cents: 0 },
        { name: "B", non_member_price_cents: 0 },
      ],
    });
    const other = await createEventVia(env, { tickets: [{ name: "X", non_member_price_cents: 0 }] });
    expect((await register(e.id, { ticket_id: other.tickets[0].id })).status).toBe(404);
    await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[1].id, status: "cancelled" });
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${e.id}`, { body: { tickets: [{ id: e.tickets[0].id, name: "A", non_member_price_cents: 0 }] } });
    const inactive = await register(e.id, { ticket_id: e.tickets[1].id });
    expect(inactive.status).toBe(409);
    expect(inactive.body.code).toBe("TICKET_INACTIVE");
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${e.id}`, { body: { status: "draft" } });
    expect((await register(e.id, { ticket_id: e.tickets[0].id })).status).toBe(404);
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${e.id}`, { body: { status: "cancelled" } });
    expect((await register(e.id, { ticket_id: e.tickets[0].id })).body.code).toBe("EVENT_CANCELLED");
    expect((await register(crypto.randomUUID(), { ticket_id: e.tickets[0].id })).status).toBe(404);
    expect((await regsOf(e.id)).filter((r) => r.status !== "cancelled")).toHaveLength(0);
  });

  it("validates the body (422)", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "T", non_member_price_cents: 0 }] });
    const res = await register(e.id, { ticket_id: e.tickets[0].id, email: "not-an-email", first_name: "" });
    expect(res.status).toBe(422);
    expect(await regsOf(e.id)).toHaveLength(0);
  });

  it("capacity: 30 simultaneous registrations for 10 places -> exactly 10 accepted", async () => {
    const e = await createEventVia(env, { capacity: 10, tickets: [{ name: "T", non_member_price_cents: 0 }] });
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => register(e.id, { ticket_id: e.tickets[0].id, email: `p${i}@example.org` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(20);
    expect(refused.every((r) => r.status === 409 && r.body.code === "EVENT_FULL")).toBe(true);
    expect(await holding(e.id)).toBe(10);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/events/${e.id}`)).body.registered_count).toBe(10);
  });

  it("capacity counts pending registrations but not cancelled ones", async () => {
    const e = await createEventVia(env, { capacity: 2, tickets: [{ name: "T", non_member_price_cents: 500 }] });
    await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[0].id, status: "cancelled" });
    await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[0].id, status: "pending" });
    expect((await register(e.id, { ticket_id: e.tickets[0].id })).status).toBe(201);
    expect((await register(e.id, { ticket_id: e.tickets[0].id })).body.code).toBe("EVENT_FULL");
  });

  it("quantity_max: 20 simultaneous registrations for a ticket of 5 -> exactly 5; the other ticket still open", async () => {
    const e = await createEventVia(env, {
      tickets: [
        { name: "Rare", non_member_price_cents: 0, quantity_max: 5 },
        { name: "Open", non_member_price_cents: 0 },
      ],
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => register(e.id, { ticket_id: e.tickets[0].id })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409 && r.body.code === "TICKET_SOLD_OUT")).toHaveLength(15);
    expect(await holding(e.id)).toBe(5);
    expect((await register(e.id, { ticket_id: e.tickets[1].id })).status).toBe(201);
  });
});

describe("promo codes at registration", () => {
  it("percent and amount discounts; a discount to zero confirms; the redemption is recorded", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "T", non_member_price_cents: 2000 }] });
    await promo({ code: "PCT25", discount_value: 25, scope: "event" });
    await promo({ code: "AMT500", discount_type: "amount", discount_value: 500, event_id: e.id });
    await promo({ code: "FREE100", discount_value: 100, event_id: e.id });
    const pct = await register(e.id, { ticket_id: e.tickets[0].id, promo_code: "pct25" });
    expect(pct.body).toMatchObject({ amount_cents: 1500, discount_cents: 500, status: "pending" });
    expect((await register(e.id, { ticket_id: e.tickets[0].id, promo_code: "AMT500" })).body.amount_cents).toBe(1500);
    const free = await register(e.id, { ticket_id: e.tickets[0].id, promo_code: "FREE100" });
    expect(free.body).toMatchObject({ amount_cents: 0, status: "confirmed" });
    const [code] = await env.db.read
      .select()
      .from(promoCodes)
      .where(and(eq(promoCodes.club_id, env.clubId), eq(promoCodes.code_key, "PCT25")));
    expect(code.used_count).toBe(1);
    const [redemption] = await env.db.read.select().from(promoRedemptions).where(eq(promoRedemptions.promo_code_id, code.id));
    expect(redemption).toMatchObject({ registration_id: pct.body.id, discount_cents: 500 });
  });

  it("an amount larger than the price takes the price off, no more: 0 to pay, confirmed", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "T", non_member_price_cents: 2000 }] });
    await promo({ code: "BIG5000", discount_type: "amount", discount_value: 5000, event_id: e.id });
    const res = await register(e.id, { ticket_id: e.tickets[0].id, promo_code: "BIG5000" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount_cents: 0, discount_cents: 2000, status: "confirmed" });
    const [row] = await regsOf(e.id);
    expect(row).toMatchObject({ amount_cents: 0, discount_cents: 2000, status: "confirmed" });
    const [redemption] = await env.db.read.select().from(promoRedemptions).where(eq(promoRedemptions.registration_id, row.id));
    expect(redemption.discount_cents).toBe(2000);
  });

  it("max_uses under concurrency, validity dates, scope and event are honoured (409), and nothing is written", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "T", non_member_price_cents: 1000 }] });
    const other = await createEventVia(env);
    await promo({ code: "TWICE", scope: "event", max_uses: 2 });
    await promo({ code: "LATER", scope: "event", valid_from: inDaysAt(30) });
    await promo({ code: "OVER1", scope: "event", valid_until: "2020-01-01T00:00:00Z" });
    await promo({ code: "MEMBONLY" });
    await promo({ code: "ELSEWHERE", event_id: other.id });
    await promo({ code: "INACTIVE", scope: "event", is_active: false });
    await promo({ code: "EURO", discount_type: "amount", discount_value: 100, currency: "EUR", scope: "event" });
    const twice = await Promise.all(Array.from({ length: 5 }, () => register(e.id, { ticket_id: e.tickets[0].id, promo_code: "TWICE" })));
    expect(twice.filter((r) => r.status === 201)).toHaveLength(2);
    expect(twice.filter((r) => r.body.code === "PROMO_CODE_EXHAUSTED")).toHaveLength(3);
    const expectations: [string, string][] = [
      ["LATER", "PROMO_CODE_NOT_VALID_NOW"],
      ["OVER1", "PROMO_CODE_NOT_VALID_NOW"],
      ["MEMBONLY", "PROMO_CODE_NOT_APPLICABLE"],
      ["ELSEWHERE", "PROMO_CODE_NOT_APPLICABLE"],
      ["EURO", "PROMO_CODE_NOT_APPLICABLE"],
      ["INACTIVE", "PROMO_CODE_UNKNOWN"],
      ["NOSUCHCODE", "PROMO_CODE_UNKNOWN"],
    ];
    for (const [code, expected] of expectations) {
      const res = await register(e.id, { ticket_id: e.tickets[0].id, promo_code: code });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe(expected);
    }
    expect(await holding(e.id)).toBe(2);
    const [twiceRow] = await env.db.read
      .select()
      .from(promoCodes)
      .where(and(eq(promoCodes.club_id, env.clubId), eq(promoCodes.code_key, "TWICE")));
    expect(twiceRow.used_count).toBe(2);
    expect(await env.db.read.select().from(promoRedemptions).where(eq(promoRedemptions.promo_code_id, twiceRow.id))).toHaveLength(2);
  });
});

describe("GET /api/public/registrations/:qr_token/ics", () => {
  it("answers a text/calendar file and notes ics_at; unknown token -> 404", async () => {
    const starts = inDaysAt(60, "18:00:00");
    const day = starts.slice(0, 10).replaceAll("-", "");
    const e = await createEventVia(env, {
      title: "Fête, été; 2030",
      location_name: "Salle communale",
      starts_at: starts,
      ends_at: inDaysAt(60, "22:00:00"),
      tickets: [{ name: "T", non_member_price_cents: 0 }],
    });
    const reg = await register(e.id, { ticket_id: e.tickets[0].id });
    const res = await env.call("GET", `/api/public/registrations/${reg.body.qr_token}/ics`, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/calendar");
    expect(res.text).toContain("BEGIN:VCALENDAR\r\n");
    expect(res.text).toContain(`DTSTART:${day}T180000Z`);
    expect(res.text).toContain(`DTEND:${day}T220000Z`);
    expect(res.text).toContain("SUMMARY:Fête\\, été\\; 2030");
    expect(res.text).toContain(`URL:http://localhost/e/${clubSlug}/`);
    const [row] = await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.id, reg.body.id));
    expect(row.ics_at).toBeString();
    expect((await env.call("GET", "/api/public/registrations/unknownunknownunknown/ics", { key: null })).status).toBe(404);
  });
});

describe("public rate limit", () => {
  it("limits each client address (429 with Retry-After), not others", async () => {
    const fresh = await setup();
    try {
      const slug = (await fresh.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, fresh.clubId)))[0].slug;
      const get = (ip: string) => fresh.app.handle(new Request(`http://localhost/api/public/clubs/${slug}/events`), ip);
      for (let i = 0; i < 60; i++) expect((await get("203.0.113.7")).status).toBe(200);
      const limited = await get("203.0.113.7");
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await get("203.0.113.8")).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  it("registering, a write that mails, is limited to 20 a minute per address, apart from reading the events", async () => {
    const fresh = await setup();
    try {
      const slug = (await fresh.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, fresh.clubId)))[0].slug;
      const register = () =>
        fresh.app.handle(
          new Request(`http://localhost/api/public/events/${crypto.randomUUID()}/registrations`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ ...person, ticket_id: crypto.randomUUID() }),
          }),
          "203.0.113.9",
        );
      for (let i = 0; i < 20; i++) expect((await register()).status).not.toBe(429);
      expect((await register()).status).toBe(429);
      expect((await fresh.app.handle(new Request(`http://localhost/api/public/clubs/${slug}/events`), "203.0.113.9")).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
