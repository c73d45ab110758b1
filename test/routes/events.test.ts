// GET/POST /api/clubs/:club_id/events, GET/PATCH .../events/:event_id, GET .../registrations
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { events, eventTickets } from "../../db/schema";
import { authCases } from "../auth-cases";
import { createEventVia, insertPayment, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const base = () => `/api/clubs/${env.clubId}/events`;
const storedEvent = async (id: string) => (await env.db.read.select().from(events).where(eq(events.id, id)))[0];
const storedTickets = async (id: string) => env.db.read.select().from(eventTickets).where(eq(eventTickets.event_id, id));
const countEvents = async () => (await env.db.read.select().from(events)).length;
const patch = (id: string, body: unknown) => env.call("PATCH", `${base()}/${id}`, { body });

describe("events: auth", () => {
  const someId = "0190f2c4-0000-7000-8000-000000000000";
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/events`, scope: "events:view" });
  authCases(() => env, {
    method: "POST",
    path: (e) => `/api/clubs/${e.clubId}/events`,
    body: { title: "X", starts_at: "2030-01-01T00:00:00Z" },
    scope: "events:edit",
  });
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/events/${someId}`, scope: "events:view" });
  authCases(() => env, { method: "PATCH", path: (e) => `/api/clubs/${e.clubId}/events/${someId}`, body: { title: "X" }, scope: "events:edit" });
  authCases(() => env, { method: "GET", path: (e) => `/api/clubs/${e.clubId}/events/${someId}/registrations`, scope: "events:view" });
});

describe("POST /api/clubs/:club_id/events", () => {
  it("creates a published event with its tickets, the SPEC defaults, the club's currency and a slug from the title", async () => {
    const res = await env.call("POST", base(), {
      body: {
        title: "Assemblée générale 2030",
        starts_at: "2030-03-01T19:00:00+01:00",
        tickets: [{ name: "Standard", member_price_cents: 1000, non_member_price_cents: 2000, quantity_max: 50 }, { name: "Gratuit" }],
      },
    });
    expect(res.status).toBe(201);
    const e = res.body;
    expect(e.status).toBe("published");
    expect(e.slug).toBe("assemblee-generale-2030");
    expect(e.starts_at).toBe("2030-03-01T18:00:00.000Z");
    expect(e.currency).toBe("CHF");
    expect(e.listed).toBe(true);
    expect(e.access).toBe("public");
    expect(e.attendees_min).toBe(3);
    expect(e.show_attendees).toBe(true);
    expect(e.reminder_enabled).toBe(true);
    expect(e.story_text_size).toBe("m");
    expect(e.custom_fields_schema).toEqual([]);
    expect(e.registered_count).toBe(0);
    expect(e.revenue_cents).toBe(0);
    expect(e.public_url).toMatch(/^http:\/\/localhost\/e\/club-de-test\/assemblee-generale-2030$/);
    expect(e.tickets).toHaveLength(2);
    expect(e.tickets[0]).toMatchObject({
      name: "Standard",
      member_price_cents: 1000,
      non_member_price_cents: 2000,
      quantity_max: 50,
      is_active: true,
      registered_count: 0,
    });
    expect(e.tickets[1]).toMatchObject({ name: "Gratuit", member_price_cents: 0, non_member_price_cents: null, tier_prices: null });
    const row = await storedEvent(e.id);
    expect(row.club_id).toBe(env.clubId);
    expect(row.status).toBe("published");
    expect(await storedTickets(e.id)).toHaveLength(2);
  });

  it("keeps slugs unique in the club", async () => {
    const a = await createEventVia(env, { title: "Pique-nique" });
    const b = await createEventVia(env, { title: "Pique-nique" });
    expect(a.slug).toBe("pique-nique");
    expect(b.slug).toBe("pique-nique-2");
  });

  it("a title with no letter or digit gets the slug `event`; a title spelling `club` keeps it, whatever its letters", async () => {
    expect((await createEventVia(env, { title: "!!!" })).slug).toBe("event");
    expect((await createEventVia(env, { title: "???" })).slug).toBe("event-2");
    expect((await createEventVia(env, { title: "Çlub" })).slug).toBe("club");
    expect((await createEventVia(env, { title: "Club" })).slug).toBe("club-2");
  });

  it("event slugs are free within the club: another club's event does not take one", async () => {
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/events`, {
      key: other.api_key,
      body: { title: "Rallye", starts_at: "2030-01-01T00:00:00Z" },
    });
    expect(theirs.body.slug).toBe("rallye");
    expect((await createEventVia(env, { title: "Rallye" })).slug).toBe("rallye");
  });

  it("requires title and starts_at (422), and creates nothing", async () => {
    const before = await countEvents();
    const res = await env.call("POST", base(), { body: { description: "x" } });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join("."));
    expect(locs).toContain("body.title");
    expect(locs).toContain("body.starts_at");
    expect(await countEvents()).toBe(before);
  });

  it("bounds attendees_min to 1..1000", async () => {
    for (const bad of [0, 1001]) {
      const res = await env.call("POST", base(), { body: { title: "A", starts_at: "2030-01-01T10:00:00Z", attendees_min: bad } });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(["body", "attendees_min"]);
    }
    expect((await createEventVia(env, { attendees_min: 1 })).attendees_min).toBe(1);
    expect((await createEventVia(env, { attendees_min: 1000 })).attendees_min).toBe(1000);
    expect((await createEventVia(env, { attendees_min: null })).attendees_min).toBe(3);
  });

  it("refuses ends_at not after starts_at (422) and creates nothing", async () => {
    const before = await countEvents();
    for (const ends_at of ["2030-01-01T10:00:00Z", "2030-01-01T09:00:00Z"]) {
      const res = await env.call("POST", base(), { body: { title: "A", starts_at: "2030-01-01T10:00:00Z", ends_at } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("VALIDATION_FAILED");
      expect(res.body.detail[0].loc).toEqual(["body", "ends_at"]);
    }
    expect(await countEvents()).toBe(before);
  });

  it("refuses a malformed date-time and an unknown access value (422)", async () => {
    expect((await env.call("POST", base(), { body: { title: "A", starts_at: "tomorrow" } })).status).toBe(422);
    expect((await env.call("POST", base(), { body: { title: "A", starts_at: "2030-01-01T10:00:00Z", access: "vip" } })).status).toBe(422);
  });
});

describe("GET /api/clubs/:club_id/events and /events/:event_id", () => {
  it("lists the club's events only, with figures computed from registrations and payments", async () => {
    const e = await createEventVia(env, { title: "Figures", tickets: [{ name: "T", non_member_price_cents: 2500 }] });
    const ticket = e.tickets[0].id;
    const r1 = await insertRegistration(env, { eventId: e.id, ticketId: ticket, amount: 2500, checkedInAt: new Date().toISOString() });
    await insertRegistration(env, { eventId: e.id, ticketId: ticket, status: "pending", amount: 2500 });
    await insertRegistration(env, { eventId: e.id, ticketId: ticket, status: "cancelled" });
    await insertPayment(env, { kind: "event", amount: 2500, fee: 100, commission: 50, registrationId: r1.id, paidAt: new Date().toISOString() });
    const other = await env.otherClub();
    await env.call("POST", `/api/clubs/${other.club_id}/events`, { key: other.api_key, body: { title: "Elsewhere", starts_at: "2030-01-01T00:00:00Z" } });

    const list = await env.call("GET", base());
    expect(list.status).toBe(200);
    expect(list.body.some((x: { title: string }) => x.title === "Elsewhere")).toBe(false);
    const item = list.body.find((x: { id: string }) => x.id === e.id);
    expect(item).toMatchObject({ registered_count: 2, checked_in_count: 1, revenue_cents: 2500, net_cents: 2350, currency: "CHF" });
    expect("tickets" in item).toBe(false);

    const one = await env.call("GET", `${base()}/${e.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ registered_count: 2, checked_in_count: 1, revenue_cents: 2500, net_cents: 2350 });
    expect(one.body.tickets[0].registered_count).toBe(2);
  });

  it("answers 404 for another club's event id, and for an unknown one", async () => {
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/events`, {
      key: other.api_key,
      body: { title: "Theirs", starts_at: "2030-01-01T00:00:00Z" },
    });
    expect(theirs.status).toBe(201);
    for (const [method, suffix, body] of [
      ["GET", "", undefined],
      ["PATCH", "", { title: "Mine now" }],
      ["GET", "/registrations", undefined],
      ["POST", "/checkin", { code: "X" }],
    ] as const) {
      const res = await env.call(method, `${base()}/${theirs.body.id}${suffix}`, { body });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("EVENT_NOT_FOUND");
    }
    expect((await storedEvent(theirs.body.id)).title).toBe("Theirs");
    expect((await env.call("GET", `${base()}/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await env.call("GET", `${base()}/not-a-uuid`)).status).toBe(422);
  });
});

describe("PATCH /api/clubs/:club_id/events/:event_id", () => {
  it("changes only the fields sent; null clears optional fields and leaves required ones", async () => {
    const e = await createEventVia(env, { description: "d", location_name: "Salle" });
    const res = await patch(e.id, { title: "Nouveau titre", description: null, listed: null, title_x: "ignored" });
    expect(res.status).toBe(200);
    const row = await storedEvent(e.id);
    expect(row.title).toBe("Nouveau titre");
    expect(row.description).toBeNull();
    expect(row.listed).toBe(true);
    expect(row.location_name).toBe("Salle");
    expect(row.slug).toBe(e.slug);
  });

  it("bounds story_text to 300 characters and attendees_min to 1..1000", async () => {
    const e = await createEventVia(env);
    expect((await patch(e.id, { story_text: "x".repeat(301) })).status).toBe(422);
    expect((await patch(e.id, { attendees_min: 0 })).status).toBe(422);
    expect((await patch(e.id, { attendees_min: 1001 })).status).toBe(422);
    expect((await storedEvent(e.id)).story_text).toBeNull();
    const ok = await patch(e.id, { story_text: "x".repeat(300), attendees_min: 1000 });
    expect(ok.status).toBe(200);
    expect(ok.body.story_text).toHaveLength(300);
    expect((await storedEvent(e.id)).attendees_min).toBe(1000);
  });

  it("checks ends_at against the stored starts_at (422)", async () => {
    const e = await createEventVia(env, { starts_at: "2030-05-01T10:00:00Z" });
    const res = await patch(e.id, { ends_at: "2030-05-01T09:00:00Z" });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "ends_at"]);
    expect((await storedEvent(e.id)).ends_at).toBeNull();
    expect((await patch(e.id, { starts_at: "2030-04-30T10:00:00Z", ends_at: "2030-05-01T09:00:00Z" })).status).toBe(200);
  });

  it("slug: unique in the club (409), lower-case letters, digits and hyphens (422)", async () => {
    const a = await createEventVia(env, { title: "Slug A" });
    const b = await createEventVia(env, { title: "Slug B" });
    const taken = await patch(b.id, { slug: a.slug });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("EVENT_SLUG_TAKEN");
    expect((await patch(b.id, { slug: "Bad Slug" })).status).toBe(422);
    expect((await storedEvent(b.id)).slug).toBe("slug-b");
    const ok = await patch(b.id, { slug: "mon-evenement" });
    expect(ok.body.public_url).toEndWith("/mon-evenement");
  });

  it("status: published -> draft -> published -> cancelled; draft -> cancelled", async () => {
    const e = await createEventVia(env);
    expect((await patch(e.id, { status: "draft" })).body.status).toBe("draft");
    expect((await storedEvent(e.id)).status).toBe("draft");
    expect((await patch(e.id, { status: "published" })).body.status).toBe("published");
    expect((await patch(e.id, { status: "published" })).status).toBe(200);
    expect((await patch(e.id, { status: "cancelled" })).body.status).toBe("cancelled");
    expect((await storedEvent(e.id)).status).toBe("cancelled");
    const d = await createEventVia(env);
    await patch(d.id, { status: "draft" });
    expect((await patch(d.id, { status: "cancelled" })).body.status).toBe("cancelled");
  });

  it("a cancelled event refuses every change (409) and stays as it was", async () => {
    const e = await createEventVia(env, { title: "Annulé" });
    await patch(e.id, { status: "cancelled" });
    for (const body of [{ status: "published" }, { status: "draft" }, { title: "Renamed" }, { tickets: [{ name: "New" }] }]) {
      const res = await patch(e.id, body);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("EVENT_CANCELLED");
    }
    const row = await storedEvent(e.id);
    expect(row.status).toBe("cancelled");
    expect(row.title).toBe("Annulé");
    expect(await storedTickets(e.id)).toHaveLength(0);
  });

  it("refuses an unknown status value (422)", async () => {
    const e = await createEventVia(env);
    expect((await patch(e.id, { status: "archived" })).status).toBe(422);
  });

  it("reconciles tickets by id: changed, added, deleted, or deactivated when registered", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "A" }, { name: "B" }, { name: "C" }] });
    const [a, b, c] = e.tickets;
    await insertRegistration(env, { eventId: e.id, ticketId: c.id, status: "cancelled" });
    const tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Tier A2", price_cents: 100 } })).body;
    const res = await patch(e.id, {
      tickets: [
        { id: a.id, name: "A2", member_price_cents: 500, tier_prices: { [tier.id]: 1 } },
        { name: "D", non_member_price_cents: 900 },
      ],
    });
    expect(res.status).toBe(200);
    const stored = await storedTickets(e.id);
    const byName = Object.fromEntries(stored.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(["A2", "C", "D"]);
    expect(byName.A2.id).toBe(a.id);
    expect(byName.A2.member_price_cents).toBe(500);
    expect(byName.A2.tier_prices).toEqual({ [tier.id]: 1 });
    expect(byName.C.is_active).toBe(false);
    expect(byName.D.is_active).toBe(true);
    expect(stored.some((t) => t.id === b.id)).toBe(false);
    expect(res.body.tickets.find((t: { id: string }) => t.id === c.id).is_active).toBe(false);
    // Listing C again brings it back.
    const again = await patch(e.id, { tickets: [{ id: c.id, name: "C" }] });
    expect(again.body.tickets.map((t: { name: string; is_active: boolean }) => [t.name, t.is_active])).toEqual([["C", true]]);
  });

  it("refuses a ticket id that is not one of the event's (422), changing nothing", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "A" }] });
    const other = await createEventVia(env, { tickets: [{ name: "Other" }] });
    const res = await patch(e.id, { title: "Changed", tickets: [{ id: other.tickets[0].id, name: "Stolen" }] });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "tickets", 0, "id"]);
    expect((await storedTickets(other.id))[0].name).toBe("Other");
    expect((await storedEvent(e.id)).title).toBe("Soirée");
  });
});

describe("GET /api/clubs/:club_id/events/:event_id/registrations", () => {
  it("lists every registration of the event with its ticket name and payment flag", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "Entrée", non_member_price_cents: 1500 }] });
    const paid = await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[0].id, amount: 1500, first: "Paid" });
    await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[0].id, status: "pending", amount: 1500, first: "Pending" });
    await insertPayment(env, { kind: "event", amount: 1500, registrationId: paid.id, paidAt: new Date().toISOString() });
    const res = await env.call("GET", `${base()}/${e.id}/registrations`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toMatchObject({
      first_name: "Paid",
      ticket_name: "Entrée",
      status: "confirmed",
      has_payment: true,
      amount_cents: 1500,
      is_member: false,
      checked_in_at: null,
    });
    expect(res.body[1]).toMatchObject({ first_name: "Pending", status: "pending", has_payment: false });
    expect(res.body[0].qr_token).toBeString();
  });
});
