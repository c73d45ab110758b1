// POST /api/clubs/:club_id/events/:event_id/checkin
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { checkIns, eventRegistrations } from "../../db/schema";
import { authCases } from "../auth-cases";
import { createEventVia, insertMember, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const checkin = (eventId: string, body: unknown, key?: string) => env.call("POST", `/api/clubs/${env.clubId}/events/${eventId}/checkin`, { body, key });
const scans = async (eventId: string) => env.db.read.select().from(checkIns).where(eq(checkIns.event_id, eventId));
const storedReg = async (id: string) => (await env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.id, id)))[0];

async function eventWithTicket() {
  const e = await createEventVia(env, { tickets: [{ name: "Entrée" }] });
  return { event: e, ticketId: e.tickets[0].id as string };
}

describe("POST /api/clubs/:club_id/events/:event_id/checkin", () => {
  authCases(() => env, {
    method: "POST",
    path: (e) => `/api/clubs/${e.clubId}/events/0190f2c4-0000-7000-8000-000000000000/checkin`,
    body: { code: "X" },
    scope: "access_control:edit",
  });

  it("valid: the first scan of a qr_token checks in, and the scan is stored with the key's prefix", async () => {
    const { event, ticketId } = await eventWithTicket();
    const reg = await insertRegistration(env, { eventId: event.id, ticketId });
    const res = await checkin(event.id, { code: reg.qr_token });
    expect(res.status).toBe(200);
    expect(res.body.verdict).toBe("valid");
    expect(res.body.checked_in_at).toBeString();
    expect(res.body.registration).toEqual({ id: reg.id, first_name: "Grace", last_name: "Hopper", ticket_name: "Entrée" });
    expect((await storedReg(reg.id)).checked_in_at).toBe(res.body.checked_in_at);
    const [scan] = await scans(event.id);
    expect(scan).toMatchObject({ verdict: "valid", code: reg.qr_token, registration_id: reg.id, admin_id: env.adminId, club_id: env.clubId });
    expect(scan.key_prefix).toStartWith("mk_live_");
  });

  it("already: a second scan answers the first checked_in_at and changes nothing", async () => {
    const { event, ticketId } = await eventWithTicket();
    const reg = await insertRegistration(env, { eventId: event.id, ticketId });
    const first = await checkin(event.id, { code: reg.qr_token });
    await Bun.sleep(5);
    const second = await checkin(event.id, { code: reg.qr_token });
    expect(second.body.verdict).toBe("already");
    expect(second.body.checked_in_at).toBe(first.body.checked_in_at);
    expect(second.body.registration.id).toBe(reg.id);
    expect((await storedReg(reg.id)).checked_in_at).toBe(first.body.checked_in_at);
    expect((await scans(event.id)).map((s) => s.verdict)).toEqual(["valid", "already"]);
  });

  it("not_registered: an unknown code, a cancelled or unpaid registration, another event's ticket — each stored", async () => {
    const { event, ticketId } = await eventWithTicket();
    const other = await eventWithTicket();
    const cancelled = await insertRegistration(env, { eventId: event.id, ticketId, status: "cancelled" });
    const pending = await insertRegistration(env, { eventId: event.id, ticketId, status: "pending" });
    const elsewhere = await insertRegistration(env, { eventId: other.event.id, ticketId: other.ticketId });
    for (const code of ["NOPE", cancelled.qr_token, pending.qr_token, elsewhere.qr_token]) {
      const res = await checkin(event.id, { code });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ verdict: "not_registered", checked_in_at: null, registration: null });
    }
    expect((await storedReg(elsewhere.id)).checked_in_at).toBeNull();
    const stored = await scans(event.id);
    expect(stored).toHaveLength(4);
    expect(stored.every((s) => s.verdict === "not_registered")).toBe(true);
  });

  it("accepts a registered member's card code (referral_code), any case; not a member of another event", async () => {
    const { event, ticketId } = await eventWithTicket();
    const member = await insertMember(env, { code: "KXQ7MEMB" });
    const reg = await insertRegistration(env, { eventId: event.id, ticketId, memberId: member.id });
    const unregistered = await insertMember(env, { code: "NOTHERE9" });
    expect((await checkin(event.id, { code: unregistered.referral_code })).body.verdict).toBe("not_registered");
    const res = await checkin(event.id, { code: "kxq7memb" });
    expect(res.body.verdict).toBe("valid");
    expect(res.body.registration.id).toBe(reg.id);
    expect((await checkin(event.id, { code: "KXQ7MEMB" })).body.verdict).toBe("already");
  });

  it("a member's card is found the one way verify finds it: pass serial number too, surrounding spaces ignored", async () => {
    const { event, ticketId } = await eventWithTicket();
    const member = await insertMember(env, { code: "SRL7CARD" });
    const reg = await insertRegistration(env, { eventId: event.id, ticketId, memberId: member.id });
    const verified = await env.call("GET", `/api/verify/${member.pass_serial_number}`);
    expect(verified.body.member.id).toBe(member.id);
    const res = await checkin(event.id, { code: member.pass_serial_number });
    expect(res.body.verdict).toBe("valid");
    expect(res.body.registration.id).toBe(reg.id);
    expect((await checkin(event.id, { code: "  srl7card " })).body.verdict).toBe("already");
    expect((await storedReg(reg.id)).checked_in_at).toBe(res.body.checked_in_at);
    expect((await scans(event.id)).map((s) => [s.verdict, s.registration_id])).toEqual([
      ["valid", reg.id],
      ["already", reg.id],
    ]);
  });

  it("a member registered several times: each scan checks in the first registration not yet checked in, then already on the first", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "Adulte" }, { name: "Enfant" }] });
    const member = await insertMember(env, { code: "FAM3467X" });
    const first = await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[0].id, memberId: member.id, first: "Ana" });
    await Bun.sleep(2);
    const unpaid = await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[1].id, memberId: member.id, first: "Rui", status: "pending" });
    await Bun.sleep(2);
    const second = await insertRegistration(env, { eventId: e.id, ticketId: e.tickets[1].id, memberId: member.id, first: "Leo" });
    const a = await checkin(e.id, { code: member.referral_code });
    expect(a.body).toMatchObject({ verdict: "valid", registration: { id: first.id, first_name: "Ana", ticket_name: "Adulte" } });
    const b = await checkin(e.id, { code: member.referral_code });
    expect(b.body).toMatchObject({ verdict: "valid", registration: { id: second.id, first_name: "Leo", ticket_name: "Enfant" } });
    const c = await checkin(e.id, { code: member.referral_code });
    expect(c.body).toMatchObject({ verdict: "already", checked_in_at: a.body.checked_in_at, registration: { id: first.id } });
    expect((await storedReg(first.id)).checked_in_at).toBe(a.body.checked_in_at);
    expect((await storedReg(second.id)).checked_in_at).toBe(b.body.checked_in_at);
    expect((await storedReg(unpaid.id)).checked_in_at).toBeNull();
    expect((await scans(e.id)).map((s) => [s.verdict, s.registration_id])).toEqual([
      ["valid", first.id],
      ["valid", second.id],
      ["already", first.id],
    ]);
  });

  it("a member code of another club is not_registered", async () => {
    const { event } = await eventWithTicket();
    const other = await env.otherClub();
    const stranger = await insertMember(env, { clubId: other.club_id, code: "STRANGE7" });
    expect((await checkin(event.id, { code: stranger.referral_code })).body.verdict).toBe("not_registered");
  });

  it("nonce: a retried scan gets the same answer, one check-in and one stored scan", async () => {
    const { event, ticketId } = await eventWithTicket();
    const reg = await insertRegistration(env, { eventId: event.id, ticketId });
    const first = await checkin(event.id, { code: reg.qr_token, nonce: "scan-1" });
    const retry = await checkin(event.id, { code: reg.qr_token, nonce: "scan-1" });
    expect(first.body.verdict).toBe("valid");
    expect(retry.body).toEqual(first.body);
    expect(await scans(event.id)).toHaveLength(1);
    const next = await checkin(event.id, { code: reg.qr_token, nonce: "scan-2" });
    expect(next.body.verdict).toBe("already");
    // Two phones sending one scan at once: both get the first one's answer (valid, not already).
    const other = await insertRegistration(env, { eventId: event.id, ticketId, first: "Ada" });
    const [a, b] = await Promise.all([
      checkin(event.id, { code: other.qr_token, nonce: "scan-3" }),
      checkin(event.id, { code: other.qr_token, nonce: "scan-3" }),
    ]);
    expect(a.body).toMatchObject({ verdict: "valid", registration: { id: other.id } });
    expect(b.body).toEqual(a.body);
    expect((await storedReg(other.id)).checked_in_at).toBe(a.body.checked_in_at);
    expect((await scans(event.id)).map((s) => [s.nonce, s.verdict]).sort()).toEqual([
      ["scan-1", "valid"],
      ["scan-2", "already"],
      ["scan-3", "valid"],
    ]);
  });

  it("50 simultaneous scans of one code give exactly one valid", async () => {
    const { event, ticketId } = await eventWithTicket();
    const reg = await insertRegistration(env, { eventId: event.id, ticketId });
    const results = await Promise.all(Array.from({ length: 50 }, () => checkin(event.id, { code: reg.qr_token })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const verdicts = results.map((r) => r.body.verdict);
    expect(verdicts.filter((v) => v === "valid")).toHaveLength(1);
    expect(verdicts.filter((v) => v === "already")).toHaveLength(49);
    const firstAt = results.find((r) => r.body.verdict === "valid")!.body.checked_in_at;
    expect(results.every((r) => r.body.checked_in_at === firstAt)).toBe(true);
    const stored = await scans(event.id);
    expect(stored).toHaveLength(50);
    expect(stored.filter((s) => s.verdict === "valid")).toHaveLength(1);
  });

  it("a cancelled event: 409 EVENT_CANCELLED for any code, nothing checked in, no scan stored; a retried nonce keeps its answer", async () => {
    const { event, ticketId } = await eventWithTicket();
    const reg = await insertRegistration(env, { eventId: event.id, ticketId });
    const before = await insertRegistration(env, { eventId: event.id, ticketId });
    const earlier = await checkin(event.id, { code: before.qr_token, nonce: "door-1" });
    expect(earlier.body.verdict).toBe("valid");
    expect((await env.call("PATCH", `/api/clubs/${env.clubId}/events/${event.id}`, { body: { status: "cancelled" } })).status).toBe(200);
    for (const code of [reg.qr_token, before.qr_token, "NOPE"]) {
      const res = await checkin(event.id, { code });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("EVENT_CANCELLED");
    }
    expect((await storedReg(reg.id)).checked_in_at).toBeNull();
    expect((await scans(event.id)).map((s) => s.nonce)).toEqual(["door-1"]);
    expect((await checkin(event.id, { code: before.qr_token, nonce: "door-1" })).body).toEqual(earlier.body);
  });

  it("refuses an empty code (422) and records nothing", async () => {
    const { event } = await eventWithTicket();
    expect((await checkin(event.id, { code: "" })).status).toBe(422);
    expect((await checkin(event.id, {})).status).toBe(422);
    expect(await scans(event.id)).toHaveLength(0);
  });
});
