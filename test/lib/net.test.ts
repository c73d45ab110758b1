// The net of SPEC rule 6 (gross - provider fees - platform commission), one function for the
// stats breakdown and every event's net_cents.
import { afterAll, beforeAll, expect, it } from "bun:test";
import { netCents } from "../../lib/stats/net";
import { createEventVia, insertPayment, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

it("netCents is gross minus fees minus commission", () => {
  expect(netCents({ gross: 10000, fees: 320, commission: 200 })).toBe(9480);
  expect(netCents({ gross: 0, fees: 0, commission: 0 })).toBe(0);
});

it("an event's net_cents and the stats' event net agree (the club's only payments are this event's)", async () => {
  const e = await createEventVia(env, { tickets: [{ name: "T", non_member_price_cents: 3000 }] });
  const paidAt = new Date().toISOString();
  for (const [fee, commission] of [
    [100, 60],
    [0, 0],
    [90, 45],
  ]) {
    const reg = await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[0].id, amount: 3000 });
    await insertPayment(env, { kind: "event", amount: 3000, fee, commission, registrationId: reg.id, paidAt });
  }
  const event = (await env.call("GET", `/api/clubs/${env.clubId}/events/${e.id}`)).body;
  const stats = (await env.call("GET", `/api/clubs/${env.clubId}/stats`)).body.revenue.all_time;
  expect(event.revenue_cents).toBe(9000);
  expect(event.net_cents).toBe(netCents({ gross: 9000, fees: 190, commission: 105 }));
  expect(stats.net_cents).toBe(event.net_cents);
});
