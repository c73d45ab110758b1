// The places-held rule of DESIGN.md section 8, written once (lib/events/internal.ts): what the
// registrations hold, and what that leaves of an event and of a ticket.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { availability, placesHeld } from "../../lib/events/internal";
import { createEventVia, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("placesHeld", () => {
  it("counts confirmed and pending registrations per event and per ticket, never cancelled ones", async () => {
    const one = await createEventVia(env, { tickets: [{ name: "A" }, { name: "B" }] });
    const two = await createEventVia(env, { tickets: [{ name: "C" }] });
    const empty = await createEventVia(env);
    const [a, b] = one.tickets.map((t: { id: string }) => t.id);
    for (const status of ["confirmed", "pending", "cancelled"]) await insertRegistration(env, { eventId: one.id, ticketId: a, status });
    await insertRegistration(env, { eventId: one.id, ticketId: b, status: "cancelled" });
    await insertRegistration(env, { eventId: two.id, ticketId: two.tickets[0].id });
    const held = await placesHeld(env.db.read, [one.id, two.id, empty.id]);
    expect(held.get(one.id)?.total).toBe(2);
    expect(Object.fromEntries(held.get(one.id)!.byTicket)).toEqual({ [a]: 2 });
    expect(held.get(two.id)?.total).toBe(1);
    expect(held.get(empty.id)).toEqual({ total: 0, byTicket: new Map() });
    expect((await placesHeld(env.db.read, [])).size).toBe(0);
  });
});

describe("availability", () => {
  const held = (total: number, byTicket: Record<string, number> = {}) => ({ total, byTicket: new Map(Object.entries(byTicket)) });

  it("no capacity: places_left null, never full", () => {
    expect(availability({ capacity: null }, held(500))).toEqual({ places_left: null, full: false, ticket_sold_out: false, sold_out: false });
  });

  it("capacity reached: full, and every ticket sold out; places_left never below 0", () => {
    expect(availability({ capacity: 3 }, held(3), { id: "t", quantity_max: null })).toEqual({
      places_left: 0,
      full: true,
      ticket_sold_out: false,
      sold_out: true,
    });
    expect(availability({ capacity: 3 }, held(5)).places_left).toBe(0);
  });

  it("a ticket at its quantity_max is sold out, the event not full", () => {
    const left = availability({ capacity: 10 }, held(2, { t: 2 }), { id: "t", quantity_max: 2 });
    expect(left).toEqual({ places_left: 8, full: false, ticket_sold_out: true, sold_out: true });
    expect(availability({ capacity: 10 }, held(2, { t: 2 }), { id: "u", quantity_max: 2 }).sold_out).toBe(false);
  });
});
