// POST .../events/:event_id/registrations (an admin adds an attendee), .../actions/confirm (with
// the payment) and .../actions/cancel (with a refund): DESIGN.md section 12. Every refusal re-reads
// the database to show that nothing changed.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { eventRegistrations, promoCodes, promoRedemptions } from "../../db/schema";
import { authCases } from "../auth-cases";
import { createEventVia, insertMember, insertTier, registerPublic, registrationPayments, registrationRow } from "../events-fixtures";
import { paymentsOfRegistration } from "../../lib/registrations/admin";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";
import { sqlitePlan } from "../plans";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const NO_ID = "0190a0a0-0000-7000-8000-000000000000";
const regs = (eventId: string) => `/api/clubs/${env.clubId}/events/${eventId}/registrations`;
const action = (eventId: string, regId: string, verb: "confirm" | "cancel") => `${regs(eventId)}/${regId}/actions/${verb}`;

/** An event with a guest ticket (15.00, members free) and a members-only ticket. */
async function party(body: Record<string, unknown> = {}) {
  const event = await createEventVia(env, {
    tickets: [
      { name: "Guest", member_price_cents: 0, non_member_price_cents: 1500 },
      { name: "Members", member_price_cents: 500 },
    ],
    ...body,
  });
  return { event, guest: event.tickets[0].id as string, membersOnly: event.tickets[1].id as string };
}

async function countRegs(eventId: string) {
  return (await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, eventId))).length;
}

async function add(eventId: string, body: Record<string, unknown>, key?: string) {
  return env.call("POST", regs(eventId), { key, body: { first_name: "Luca", last_name: "Bernasconi", ...body } });
}

describe("POST /api/clubs/:club_id/events/:event_id/registrations", () => {
  authCases(() => env, {
    method: "POST",
    path: (e) => `/api/clubs/${e.clubId}/events/${NO_ID}/registrations`,
    body: { ticket_id: NO_ID, first_name: "A", last_name: "B" },
    scope: "events:edit",
  });

  it("adds a guest at the non-member price, pending, source admin: answered and stored", async () => {
    const { event, guest } = await party();
    const res = await add(event.id, { ticket_id: guest, email: "Luca@Example.org" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      ticket_name: "Guest",
      status: "pending",
      amount_cents: 1500,
      is_member: false,
      email: "luca@example.org",
      source: "admin",
    });
    const row = await registrationRow(env, res.body.id);
    expect(row).toMatchObject({ status: "pending", amount_cents: 1500, source: "admin", club_id: env.clubId, event_id: event.id });
    expect((await env.call("GET", `/api/clubs/${env.clubId}/events/${event.id}`)).body.registered_count).toBe(1);
  });

  it("a member pays their tier's price, with their email by default; free is confirmed", async () => {
    const tier = await insertTier(env);
    const event = await createEventVia(env, {
      tickets: [{ name: "Entry", member_price_cents: 800, tier_prices: { [tier.id]: 0 }, non_member_price_cents: 2000 }],
    });
    const member = await insertMember(env, { tierId: tier.id });
    const res = await add(event.id, { ticket_id: event.tickets[0].id, member_id: member.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "confirmed", amount_cents: 0, is_member: true, email: member.email });
    expect((await registrationRow(env, res.body.id)).member_id).toBe(member.id);
  });

  it("status confirmed on a paid ticket is confirmed without a payment", async () => {
    const { event, guest } = await party();
    const res = await add(event.id, { ticket_id: guest, status: "confirmed" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "confirmed", has_payment: false, amount_cents: 1500 });
    expect(await registrationPayments(env, res.body.id)).toEqual([]);
  });

  it("a full event (409 EVENT_FULL) and a sold-out ticket (409 TICKET_SOLD_OUT) store nothing", async () => {
    const full = await party({ capacity: 1 });
    expect((await add(full.event.id, { ticket_id: full.guest })).status).toBe(201);
    const refused = await add(full.event.id, { ticket_id: full.guest });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("EVENT_FULL");
    expect(await countRegs(full.event.id)).toBe(1);
    const sold = await createEventVia(env, { tickets: [{ name: "Few", non_member_price_cents: 0, quantity_max: 1 }] });
    expect((await add(sold.id, { ticket_id: sold.tickets[0].id })).status).toBe(201);
    const again = await add(sold.id, { ticket_id: sold.tickets[0].id });
    expect([again.status, again.body.code]).toEqual([409, "TICKET_SOLD_OUT"]);
    expect(await countRegs(sold.id)).toBe(1);
  });

  it("a members-only ticket for a non-member -> 403 TICKET_MEMBERS_ONLY (as on the public form); a cancelled event -> 409 EVENT_CANCELLED", async () => {
    const { event, membersOnly, guest } = await party();
    const res = await add(event.id, { ticket_id: membersOnly });
    expect([res.status, res.body.code]).toEqual([403, "TICKET_MEMBERS_ONLY"]);
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${event.id}`, { body: { status: "cancelled" } });
    const late = await add(event.id, { ticket_id: guest });
    expect([late.status, late.body.code]).toEqual([409, "EVENT_CANCELLED"]);
    expect(await countRegs(event.id)).toBe(0);
  });

  it("another club's event, ticket or member -> 404, nothing stored", async () => {
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/events`, {
      key: other.api_key,
      body: { title: "Theirs", starts_at: "2031-01-01T18:00:00Z", tickets: [{ name: "T", non_member_price_cents: 0 }] },
    });
    const theirMember = await insertMember(env, { clubId: other.club_id });
    const { event, guest } = await party();
    expect((await add(theirs.body.id, { ticket_id: theirs.body.tickets[0].id })).status).toBe(404);
    const wrongTicket = await add(event.id, { ticket_id: theirs.body.tickets[0].id });
    expect([wrongTicket.status, wrongTicket.body.code]).toEqual([404, "TICKET_NOT_FOUND"]);
    const wrongMember = await add(event.id, { ticket_id: guest, member_id: theirMember.id });
    expect([wrongMember.status, wrongMember.body.code]).toEqual([404, "MEMBER_NOT_FOUND"]);
    expect(await countRegs(event.id)).toBe(0);
    expect(await countRegs(theirs.body.id)).toBe(0);
  });

  it("an events:view key -> 403, nothing stored", async () => {
    const { event, guest } = await party();
    const res = await add(event.id, { ticket_id: guest }, await env.makeKey({ events: "view" }));
    expect([res.status, res.body.code]).toEqual([403, "SCOPE_MISSING"]);
    expect(await countRegs(event.id)).toBe(0);
  });
});

describe("POST .../registrations/:registration_id/actions/confirm", () => {
  authCases(() => env, {
    method: "POST",
    path: (e) => `/api/clubs/${e.clubId}/events/${NO_ID}/registrations/${NO_ID}/actions/confirm`,
    body: {},
    scope: "events:edit",
  });

  it("needs finances:edit too: events:edit alone or finances:edit alone -> 403, still pending, no payment", async () => {
    const { event, guest } = await party();
    const reg = (await add(event.id, { ticket_id: guest })).body;
    for (const scopes of [
      { events: "edit", finances: "view" },
      { finances: "edit", events: "view" },
    ] as const) {
      const res = await env.call("POST", action(event.id, reg.id, "confirm"), { key: await env.makeKey(scopes), body: {} });
      expect([res.status, res.body.code]).toEqual([403, "SCOPE_MISSING"]);
    }
    expect((await registrationRow(env, reg.id)).status).toBe("pending");
    expect(await registrationPayments(env, reg.id)).toEqual([]);
    const both = await env.call("POST", action(event.id, reg.id, "confirm"), { key: await env.makeKey({ events: "edit", finances: "edit" }), body: {} });
    expect(both.status).toBe(200);
  });

  it("pending -> confirmed and the payment recorded (default: its amount, bank transfer); the event's revenue counts it", async () => {
    const { event, guest } = await party();
    const reg = (await add(event.id, { ticket_id: guest })).body;
    const res = await env.call("POST", action(event.id, reg.id, "confirm"), { body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: reg.id, status: "confirmed", has_payment: true });
    expect((await registrationRow(env, reg.id)).status).toBe("confirmed");
    const [payment] = await registrationPayments(env, reg.id);
    expect(payment).toMatchObject({ kind: "event", amount_cents: 1500, method: "bank_transfer", source: "manual", club_id: env.clubId });
    expect((await env.call("GET", `/api/clubs/${env.clubId}/events/${event.id}`)).body.revenue_cents).toBe(1500);
  });

  it("takes the amount and method received", async () => {
    const { event, guest } = await party();
    const reg = (await add(event.id, { ticket_id: guest })).body;
    const res = await env.call("POST", action(event.id, reg.id, "confirm"), { body: { amount_cents: 1200, payment_method: "cash" } });
    expect(res.status).toBe(200);
    expect((await registrationPayments(env, reg.id)).map((p) => [p.amount_cents, p.method])).toEqual([[1200, "cash"]]);
  });

  it("a registration that is not pending -> 409 REGISTRATION_NOT_PENDING, no payment", async () => {
    const { event, guest } = await party();
    const reg = (await add(event.id, { ticket_id: guest, status: "confirmed" })).body;
    const res = await env.call("POST", action(event.id, reg.id, "confirm"), { body: {} });
    expect([res.status, res.body.code]).toEqual([409, "REGISTRATION_NOT_PENDING"]);
    expect(await registrationPayments(env, reg.id)).toEqual([]);
  });

  it("another club's registration, or one of another event -> 404, unchanged", async () => {
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/events`, {
      key: other.api_key,
      body: { title: "Theirs", starts_at: "2031-01-01T18:00:00Z", tickets: [{ name: "T", non_member_price_cents: 900 }] },
    });
    const theirReg = await env.call("POST", `/api/clubs/${other.club_id}/events/${theirs.body.id}/registrations`, {
      key: other.api_key,
      body: { ticket_id: theirs.body.tickets[0].id, first_name: "T", last_name: "H" },
    });
    const { event, guest } = await party();
    const second = await party();
    const ours = (await add(event.id, { ticket_id: guest })).body;
    expect((await env.call("POST", action(event.id, theirReg.body.id, "confirm"), { body: {} })).status).toBe(404);
    expect((await env.call("POST", action(theirs.body.id, theirReg.body.id, "confirm"), { body: {} })).status).toBe(404);
    const elsewhere = await env.call("POST", action(second.event.id, ours.id, "confirm"), { body: {} });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([404, "REGISTRATION_NOT_FOUND"]);
    expect((await registrationRow(env, theirReg.body.id)).status).toBe("pending");
    expect((await registrationRow(env, ours.id)).status).toBe("pending");
  });
});

describe("a registration's payments", () => {
  it.skipIf(onPostgres)("on SQLite, are found through their index, not among every payment of the club", () => {
    expect(sqlitePlan(env.db, paymentsOfRegistration(env.db.read, env.clubId, NO_ID))[0]).toBe(
      "SEARCH payments USING INDEX payments_registration_idx (registration_id=?)",
    );
  });
});

describe("POST .../registrations/:registration_id/actions/cancel", () => {
  authCases(() => env, {
    method: "POST",
    path: (e) => `/api/clubs/${e.clubId}/events/${NO_ID}/registrations/${NO_ID}/actions/cancel`,
    body: {},
    scope: "events:edit",
  });

  it("confirmed -> cancelled with its reason and time; the place is free again", async () => {
    const { event, guest } = await party({ capacity: 1 });
    const reg = (await add(event.id, { ticket_id: guest, status: "confirmed" })).body;
    const res = await env.call("POST", action(event.id, reg.id, "cancel"), { body: { reason: "Asked by the attendee" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "cancelled", cancel_reason: "Asked by the attendee" });
    const row = await registrationRow(env, reg.id);
    expect(row).toMatchObject({ status: "cancelled", cancel_reason: "Asked by the attendee" });
    expect(row.cancelled_at).toBe(res.body.cancelled_at);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/events/${event.id}`)).body.registered_count).toBe(0);
    expect((await add(event.id, { ticket_id: guest })).status).toBe(201);
  });

  it("already cancelled or checked in -> 409, unchanged", async () => {
    const { event, guest } = await party();
    const reg = (await add(event.id, { ticket_id: guest, status: "confirmed" })).body;
    expect((await env.call("POST", action(event.id, reg.id, "cancel"), { body: {} })).status).toBe(200);
    const twice = await env.call("POST", action(event.id, reg.id, "cancel"), { body: { reason: "again" } });
    expect([twice.status, twice.body.code]).toEqual([409, "REGISTRATION_ALREADY_CANCELLED"]);
    expect((await registrationRow(env, reg.id)).cancel_reason).toBeNull();

    const inside = (await add(event.id, { ticket_id: guest, status: "confirmed" })).body;
    const scan = await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/checkin`, { body: { code: inside.qr_token } });
    expect(scan.body.verdict).toBe("valid");
    const late = await env.call("POST", action(event.id, inside.id, "cancel"), { body: {} });
    expect([late.status, late.body.code]).toEqual([409, "REGISTRATION_CHECKED_IN"]);
    expect((await registrationRow(env, inside.id)).status).toBe("confirmed");
  });

  it("refund_cents without finances:edit -> 403: still confirmed, no payment row", async () => {
    const { event, guest } = await party();
    const reg = (await add(event.id, { ticket_id: guest })).body;
    await env.call("POST", action(event.id, reg.id, "confirm"), { body: {} });
    const key = await env.makeKey({ events: "edit", finances: "view" });
    const res = await env.call("POST", action(event.id, reg.id, "cancel"), { key, body: { refund_cents: 1500 } });
    expect([res.status, res.body.code]).toEqual([403, "SCOPE_MISSING"]);
    expect((await registrationRow(env, reg.id)).status).toBe("confirmed");
    expect(await registrationPayments(env, reg.id)).toHaveLength(1);
    // The same key cancels without a refund.
    expect((await env.call("POST", action(event.id, reg.id, "cancel"), { key, body: {} })).status).toBe(200);
  });

  it("a refund is a negative payment of at most what was paid; the event's revenue drops by it", async () => {
    const { event, guest } = await party();
    const reg = (await add(event.id, { ticket_id: guest })).body;
    await env.call("POST", action(event.id, reg.id, "confirm"), { body: { payment_method: "cash" } });
    const tooMuch = await env.call("POST", action(event.id, reg.id, "cancel"), { body: { refund_cents: 1501 } });
    expect([tooMuch.status, tooMuch.body.code]).toEqual([409, "REFUND_EXCEEDS_PAID"]);
    expect((await registrationRow(env, reg.id)).status).toBe("confirmed");
    const res = await env.call("POST", action(event.id, reg.id, "cancel"), { body: { refund_cents: 1000, reason: "Ill" } });
    expect(res.status).toBe(200);
    expect((await registrationPayments(env, reg.id)).map((p) => [p.amount_cents, p.method, p.kind])).toEqual([
      [1500, "cash", "event"],
      [-1000, "cash", "event"],
    ]);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/events/${event.id}`)).body.revenue_cents).toBe(500);
  });

  it("a refund of a registration nobody paid for -> 409, still pending", async () => {
    const { event, guest } = await party();
    const reg = (await add(event.id, { ticket_id: guest })).body;
    const res = await env.call("POST", action(event.id, reg.id, "cancel"), { body: { refund_cents: 1 } });
    expect([res.status, res.body.code]).toEqual([409, "REFUND_EXCEEDS_PAID"]);
    expect((await registrationRow(env, reg.id)).status).toBe("pending");
  });

  it("gives back the promo code's use", async () => {
    const { event, guest } = await party();
    const promo = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: { code: "HALFOFF", discount_type: "percent", discount_value: 50, event_id: event.id, max_uses: 1 },
    });
    const reg = await registerPublic(env, event.id, { ticket_id: guest, promo_code: "HALFOFF" }, "10.7.0.1");
    expect(reg.body.amount_cents).toBe(750);
    const used = async () => (await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, promo.body.id)))[0].used_count;
    expect(await used()).toBe(1);
    expect((await env.call("POST", action(event.id, reg.body.id, "cancel"), { body: {} })).status).toBe(200);
    expect(await used()).toBe(0);
    expect(await env.db.read.select().from(promoRedemptions).where(eq(promoRedemptions.registration_id, reg.body.id))).toEqual([]);
  });

  it("an events:view key -> 403, unchanged; another club's registration -> 404", async () => {
    const { event, guest } = await party();
    const reg = (await add(event.id, { ticket_id: guest })).body;
    const res = await env.call("POST", action(event.id, reg.id, "cancel"), { key: await env.makeKey({ events: "view", finances: "edit" }), body: {} });
    expect(res.status).toBe(403);
    expect((await registrationRow(env, reg.id)).status).toBe("pending");
    const other = await env.otherClub();
    const mine = await env.call("POST", action(event.id, reg.id, "cancel"), { key: other.api_key, body: {} });
    expect(mine.status).toBe(403);
    expect((await env.call("POST", action(event.id, NO_ID, "cancel"), { body: {} })).status).toBe(404);
  });
});
