// Races (issue 6, item 3): many requests for the same thing at the same moment, through the real
// app. 20 codes x 50 simultaneous check-ins give exactly one `valid` per code; 100 simultaneous
// public registrations for 10 places give exactly 10; simultaneous extends, suspends and
// reactivations of one member leave a history that tells one consistent story.
import { afterAll, beforeAll, expect, it } from "bun:test";
import { asc, eq, sql } from "drizzle-orm";
import { checkIns, eventRegistrations, memberHistory } from "../../db/schema";
import { getMemberRow } from "../../lib/members/internal";
import { createEventVia, inDays, insertRegistration, postAs } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import type { Schema } from "./schema-values";

let env: TestEnv;
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "100000000" });
});
afterAll(() => env.close());

const post = (path: string, body: unknown, opts: { key?: string | null; ip?: string } = {}) => postAs<Schema>(env, path, body, opts);
const createEvent = async (body: Record<string, unknown>) => (await createEventVia(env, body)) as { id: string; tickets: { id: string }[] };

it("20 codes x 50 simultaneous check-ins: exactly one valid per code, the others already", async () => {
  const event = await createEvent({ tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }] });
  const regs = await Promise.all(Array.from({ length: 20 }, () => insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id })));
  const scans = regs.flatMap((r) => Array.from({ length: 50 }, () => r.qr_token));
  const answers = await Promise.all(scans.map((code) => post(`/api/clubs/${env.clubId}/events/${event.id}/checkin`, { code })));
  expect(answers.every((a) => a.status === 200)).toBe(true);
  for (const r of regs) {
    const verdicts = answers.filter((_, i) => scans[i] === r.qr_token).map((a) => a.body.verdict);
    expect(verdicts.filter((v) => v === "valid").length).toBe(1);
    expect(verdicts.filter((v) => v === "already").length).toBe(49);
  }
  const stored = await env.db.read.select().from(checkIns).where(eq(checkIns.event_id, event.id));
  expect(stored.length).toBe(1000);
  expect(stored.filter((c) => c.verdict === "valid").length).toBe(20);
  const checked = await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id));
  expect(checked.every((r) => r.checked_in_at !== null)).toBe(true);
}, 120_000);

it("100 simultaneous public registrations for 10 places: exactly 10 accepted, 90 told the event is full", async () => {
  const event = await createEvent({ capacity: 10, tickets: [{ name: "Entrée", member_price_cents: 0, non_member_price_cents: 0 }] });
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      post(
        `/api/public/events/${event.id}/registrations`,
        { ticket_id: event.tickets[0].id, first_name: "Runner", last_name: `N${i}`, email: `runner${i}@example.org` },
        { key: null, ip: `10.20.${i}.1` },
      ),
    ),
  );
  expect(answers.filter((a) => a.status === 201).length).toBe(10);
  expect(answers.filter((a) => a.status === 409 && a.body.code === "EVENT_FULL").length).toBe(90);
  const [{ n }] = await env.db.read.select({ n: sql<number>`count(*)` }).from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id));
  expect(n).toBe(10);
}, 120_000);

it("simultaneous extends, suspends and reactivations of one member: the history tells one consistent story", async () => {
  const created = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
    body: { first_name: "Race", last_name: "Condition", email: "race@example.org", membership_end: inDays(100) },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  const base = `/api/clubs/${env.clubId}/members/${id}/actions`;
  const calls = Array.from({ length: 60 }, (_, i) => (["extend", "suspend", "reactivate"] as const)[i % 3]);
  const answers = await Promise.all(calls.map((action) => post(`${base}/${action}`, action === "extend" ? { extend_months: 1 } : { reason: "race" })));
  // Every answer is a success or the documented refusal of a transition the state did not allow.
  for (const [i, a] of answers.entries()) {
    if (calls[i] === "extend") expect(a.status).toBe(200);
    else expect([200, 409]).toContain(a.status);
  }
  const history = await env.db.read.select().from(memberHistory).where(eq(memberHistory.member_id, id)).orderBy(asc(memberHistory.id));
  expect(history[0].action).toBe("manual_create");
  const transitions = history.slice(1);
  expect(transitions.length).toBe(answers.filter((a) => a.status === 200).length);
  expect(transitions.filter((h) => h.action === "extend").length).toBe(20);
  let status = history[0].to_status;
  let end = history[0].to_end;
  for (const h of transitions) {
    expect([h.from_status, h.from_end]).toEqual([status, end]);
    if (h.action === "suspend") expect(h.from_status).not.toBe("suspended");
    if (h.action === "reactivate") expect(h.from_status).toBe("suspended");
    status = h.to_status;
    end = h.to_end;
  }
  const member = await getMemberRow(env.db.read, env.clubId, id);
  expect([member.payment_status, member.membership_end]).toEqual([status as string, end as string]);
  // Each answer shows the state its own transition produced, not a later one of a concurrent request.
  const produced = new Set(transitions.map((h) => `${h.action} ${h.to_status} ${h.to_end}`));
  for (const [i, a] of answers.entries()) {
    if (a.status !== 200) continue;
    const action = calls[i];
    expect({ action, shown: produced.has(`${action} ${a.body.payment_status} ${a.body.membership_end}`) }).toEqual({ action, shown: true });
  }
}, 120_000);
