// DELETE /api/clubs/:club_id/events/:event_id (DESIGN.md section 12): only an event nobody
// registered to goes; one with registrations (any status) is a 409 and stays whole.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { events, eventTickets, promoCodes } from "../../db/schema";
import { authCases } from "../auth-cases";
import { createEventVia, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const NO_ID = "0190a0a0-0000-7000-8000-000000000000";
const del = (id: string, key?: string) => env.call("DELETE", `/api/clubs/${env.clubId}/events/${id}`, { key });
const eventRow = async (id: string) => (await env.db.read.select().from(events).where(eq(events.id, id)))[0];
const ticketsOf = (id: string) => env.db.read.select().from(eventTickets).where(eq(eventTickets.event_id, id));

describe("DELETE /api/clubs/:club_id/events/:event_id", () => {
  authCases(() => env, { method: "DELETE", path: (e) => `/api/clubs/${e.clubId}/events/${NO_ID}`, scope: "events:edit" });

  it("an event nobody registered to: 204 with no body; it, its tickets and its own promo codes are gone", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "A" }, { name: "B" }] });
    const promo = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: { code: "GONE10", discount_type: "percent", discount_value: 10, event_id: event.id },
    });
    const everywhere = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: { code: "STAYS10", discount_type: "percent", discount_value: 10, scope: "event" },
    });
    const scan = await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/checkin`, { body: { code: "NOBODY" } });
    expect(scan.body.verdict).toBe("not_registered");
    const res = await del(event.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await eventRow(event.id)).toBeUndefined();
    expect(await ticketsOf(event.id)).toEqual([]);
    expect(await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, promo.body.id))).toEqual([]);
    expect(await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, everywhere.body.id))).toHaveLength(1);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/events/${event.id}`)).status).toBe(404);
    expect((await del(event.id)).status).toBe(404);
  });

  it("an event with a registration, even a cancelled one -> 409 EVENT_HAS_REGISTRATIONS, nothing removed", async () => {
    const event = await createEventVia(env, { tickets: [{ name: "A" }] });
    await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, status: "cancelled" });
    const res = await del(event.id);
    expect([res.status, res.body.code]).toEqual([409, "EVENT_HAS_REGISTRATIONS"]);
    expect(res.body.detail).toContain("annulez-le");
    expect(await eventRow(event.id)).toBeDefined();
    expect(await ticketsOf(event.id)).toHaveLength(1);
  });

  it("an events:view key -> 403 and another club's event -> 404; both stay", async () => {
    const event = await createEventVia(env);
    const view = await del(event.id, await env.makeKey({ events: "view" }));
    expect([view.status, view.body.code]).toEqual([403, "SCOPE_MISSING"]);
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/events`, {
      key: other.api_key,
      body: { title: "Theirs", starts_at: "2031-01-01T18:00:00Z" },
    });
    const res = await del(theirs.body.id);
    expect([res.status, res.body.code]).toEqual([404, "EVENT_NOT_FOUND"]);
    expect(await eventRow(event.id)).toBeDefined();
    expect(await eventRow(theirs.body.id)).toBeDefined();
  });
});
