// The rules that read, then write on what they read, each from many transactions at the same
// moment (DESIGN.md section 19: "no rule may rest on transactions running one at a time"). On
// PostgreSQL the requests below run in as many transactions side by side (the pool's 16
// connections); each rule holds by a constraint, a row lock (db/locks.ts) or a conditional write.
// On SQLite a write transaction holds the file's write lock from its first statement (BEGIN
// IMMEDIATE), in one process or several (test/reliability/races.rel.ts runs several).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { checkIns, eventRegistrations, promoCodes, promoRedemptions } from "../../db/schema";
import { createEventVia, insertRegistration, postAs } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000000" });
});
afterAll(() => env.close());

const post = (path: string, body: unknown, opts: { key?: string | null; ip?: string } = {}) => postAs(env, path, body, opts);
const createEvent = async (body: Record<string, unknown>) => (await createEventVia(env, body)) as { id: string; tickets: { id: string }[] };

const register = (eventId: string, ticketId: string, i: number, extra: Record<string, unknown> = {}) =>
  post(
    `/api/public/events/${eventId}/registrations`,
    { ticket_id: ticketId, first_name: "Runner", last_name: `N${i}`, email: `runner${i}@example.org`, ...extra },
    { key: null, ip: `10.30.${i % 250}.${1 + Math.floor(i / 250)}` },
  );

async function countWhere(eventId: string, status?: string): Promise<number> {
  const [{ n }] = await env.db.read
    .select({ n: sql<number>`count(*)` })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, eventId), status ? eq(eventRegistrations.status, status) : undefined));
  return Number(n);
}

describe(`invariants under concurrency (${process.env.DATABASE_URL?.startsWith("postgres") ? "PostgreSQL" : "SQLite"})`, () => {
  it("a ticket's quantity_max: 40 simultaneous registrations for 7 tickets give exactly 7", async () => {
    const event = await createEvent({ tickets: [{ name: "Rare", member_price_cents: 0, non_member_price_cents: 0, quantity_max: 7 }] });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => register(event.id, event.tickets[0].id, i)));
    expect(answers.filter((a) => a.status === 201).length).toBe(7);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.code)).toEqual(Array(33).fill("TICKET_SOLD_OUT"));
    expect(await countWhere(event.id)).toBe(7);
  }, 60_000);

  it("max_per_email: 20 simultaneous registrations of one mailbox (its case varied) give max_per_email", async () => {
    const event = await createEvent({ max_per_email: 2, tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }] });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        register(event.id, event.tickets[0].id, i, { email: i % 2 ? "Same.Person@Example.org" : "same.person@example.org" }),
      ),
    );
    expect(answers.filter((a) => a.status === 201).length).toBe(2);
    expect(answers.filter((a) => a.status === 409 && a.body.code === "EMAIL_ALREADY_REGISTERED").length).toBe(18);
    expect(await countWhere(event.id)).toBe(2);
  }, 60_000);

  it("promo max_uses: 30 simultaneous registrations with a code of 5 uses: 5 discounted, used_count 5, 5 redemptions", async () => {
    const event = await createEvent({ tickets: [{ name: "Entrée", member_price_cents: 1000, non_member_price_cents: 1000 }] });
    const promo = await env.call("POST", `/api/clubs/${env.clubId}/promo-codes`, {
      body: { code: "FIVE50", discount_type: "percent", discount_value: 50, scope: "event", max_uses: 5 },
    });
    expect(promo.status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => register(event.id, event.tickets[0].id, i, { promo_code: "FIVE50" })));
    const accepted = answers.filter((a) => a.status === 201);
    expect(accepted.length).toBe(5);
    expect(accepted.every((a) => a.body.discount_cents === 500)).toBe(true);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === "PROMO_CODE_EXHAUSTED")).toBe(true);
    const [row] = await env.db.read.select().from(promoCodes).where(eq(promoCodes.id, promo.body.id));
    expect(row.used_count).toBe(5);
    expect(await env.db.read.select().from(promoRedemptions).where(eq(promoRedemptions.promo_code_id, promo.body.id))).toHaveLength(5);
    expect(await countWhere(event.id)).toBe(5);
  }, 60_000);

  it("the waiting list: 6 simultaneous cancellations of a full event of 6 move exactly 6 up, each once, oldest first", async () => {
    const event = await createEvent({
      capacity: 6,
      waitlist_enabled: true,
      tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }],
    });
    const first = [];
    for (let i = 0; i < 6; i++) first.push(await register(event.id, event.tickets[0].id, i));
    const waiting = [];
    for (let i = 6; i < 16; i++) waiting.push(await register(event.id, event.tickets[0].id, i));
    expect(first.every((a) => a.body.status === "confirmed")).toBe(true);
    expect(waiting.every((a) => a.body.status === "waitlisted")).toBe(true);
    const cancels = await Promise.all(first.map((a) => post(`/api/clubs/${env.clubId}/events/${event.id}/registrations/${a.body.id}/actions/cancel`, {})));
    expect(cancels.map((c) => c.status)).toEqual(Array(6).fill(200));
    expect(await countWhere(event.id, "confirmed")).toBe(6);
    expect(await countWhere(event.id, "waitlisted")).toBe(4);
    const rows = await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id));
    const promoted = new Set(rows.filter((r) => r.status === "confirmed").map((r) => r.id));
    expect(waiting.slice(0, 6).every((a) => promoted.has(a.body.id))).toBe(true);
  }, 60_000);

  it("check-in with one nonce sent 10 times at once: one scan stored, one answer for all", async () => {
    const event = await createEvent({ tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }] });
    const reg = await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(`/api/clubs/${env.clubId}/events/${event.id}/checkin`, { code: reg.qr_token, nonce: "door-1-scan-7" })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.verdict))).toEqual(new Set(["valid"]));
    expect(await env.db.read.select().from(checkIns).where(eq(checkIns.event_id, event.id))).toHaveLength(1);
  }, 60_000);
});
