// The waiting list (DESIGN.md section 12) and the mails of an event's life, received by a real
// SMTP server through the job worker's run: a full event with `waitlist_enabled` takes
// `waitlisted` registrations, a cancellation moves the oldest one of its ticket up (pending when
// it has a price, confirmed when free) and mails them, cancelling the event mails every
// confirmed and pending registrant; all in the club's language.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { clubs, jobs } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { JOB_KINDS } from "../../server/jobs";
import { createEventVia, registerPublic, statusesOf } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { header, startSmtp, type TestSmtp, textOf } from "../smtp";

let env: TestEnv;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  env = await setup({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await env.close();
  await smtp.close();
});
// Each test reads only its own mails: whatever an earlier one queued goes out first.
beforeEach(async () => {
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
  smtp.inbox.length = 0;
});

let ip = 0;
const register = (eventId: string, ticketId: string, first: string) =>
  registerPublic(env, eventId, { ticket_id: ticketId, first_name: first, email: `${first.toLowerCase()}@example.org` }, `10.3.${ip >> 8}.${ip++ & 255}`);
const detail = async (eventId: string) => (await env.call("GET", `/api/clubs/${env.clubId}/events/${eventId}`)).body;
const cancel = (eventId: string, regId: string) =>
  env.call("POST", `/api/clubs/${env.clubId}/events/${eventId}/registrations/${regId}/actions/cancel`, { body: {} });
const setLocale = (locale: string) => env.db.tx((t) => t.update(clubs).set({ locale }).where(eq(clubs.id, env.clubId)));
/** Runs the queued jobs (the server's worker does this every second) and answers the mails received. */
async function deliver() {
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
  return smtp.inbox;
}

/** A waiting-list event of `capacity` places with one free ticket and one at 12.00. */
async function waitlistEvent(capacity = 1, extra: Record<string, unknown> = {}) {
  const event = await createEventVia(env, {
    capacity,
    waitlist_enabled: true,
    tickets: [
      { name: "Free", non_member_price_cents: 0 },
      { name: "Paid", non_member_price_cents: 1200 },
    ],
    ...extra,
  });
  return { event, free: event.tickets[0].id as string, paid: event.tickets[1].id as string };
}

describe("waiting list", () => {
  it("is off by default: a full event refuses (409 EVENT_FULL), the detail says waitlist_enabled false", async () => {
    const event = await createEventVia(env, { capacity: 1, tickets: [{ name: "Free", non_member_price_cents: 0 }] });
    expect(event).toMatchObject({ waitlist_enabled: false, waitlisted_count: 0 });
    expect((await register(event.id, event.tickets[0].id, "Ana")).status).toBe(201);
    const full = await register(event.id, event.tickets[0].id, "Bea");
    expect([full.status, full.body.code]).toEqual([409, "EVENT_FULL"]);
  });

  it("a full event takes a public registration as waitlisted (201): not counted, not valid at the door", async () => {
    const { event, free } = await waitlistEvent(1);
    expect((await register(event.id, free, "Ana")).body.status).toBe("confirmed");
    const late = await register(event.id, free, "Bea");
    expect(late.status).toBe(201);
    expect(late.body.status).toBe("waitlisted");
    expect(await detail(event.id)).toMatchObject({ registered_count: 1, waitlisted_count: 1, waitlist_enabled: true });
    const scan = await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/checkin`, { body: { code: late.body.qr_token } });
    expect(scan.body.verdict).toBe("not_registered");
    const list = await env.call("GET", `/api/clubs/${env.clubId}/events/${event.id}/registrations`);
    expect(list.body.map((r: { status: string }) => r.status)).toEqual(["confirmed", "waitlisted"]);
    const slug = (await env.call("GET", "/api/auth/me")).body.club.slug;
    const listed = (await env.call("GET", `/api/public/clubs/${slug}/events`, { key: null })).body.find((e: { id: string }) => e.id === event.id);
    expect(listed).toMatchObject({ waitlist_enabled: true, places_left: 0 });
  });

  it("a sold-out ticket takes waitlisted registrations too, while the event has room", async () => {
    const event = await createEventVia(env, { waitlist_enabled: true, tickets: [{ name: "Few", non_member_price_cents: 0, quantity_max: 1 }] });
    await register(event.id, event.tickets[0].id, "Ana");
    expect((await register(event.id, event.tickets[0].id, "Bea")).body.status).toBe("waitlisted");
  });

  it("a cancellation moves the oldest waitlisted registration up (free: confirmed) and mails them in the club's language", async () => {
    await setLocale("en");
    try {
      const { event, free } = await waitlistEvent(1);
      const ana = await register(event.id, free, "Ana");
      await register(event.id, free, "Bea");
      await register(event.id, free, "Cleo");
      expect((await cancel(event.id, ana.body.id)).status).toBe(200);
      expect(await statusesOf(env, event.id)).toEqual({ Ana: "cancelled", Bea: "confirmed", Cleo: "waitlisted" });
      expect(await detail(event.id)).toMatchObject({ registered_count: 1, waitlisted_count: 1 });
      const mails = await deliver();
      expect(mails.map((m) => m.to)).toEqual([["bea@example.org"]]);
      expect(header(mails[0].raw, "Subject")).toBe(`A place opened up: ${event.title} — Club de test`);
      expect(textOf(mails[0].raw)).toContain("Hello Bea,");
      expect(textOf(mails[0].raw)).toContain("is confirmed");
    } finally {
      await setLocale("fr");
    }
  });

  it("a paid ticket's waitlisted registration moves up as pending, mailed about the payment (German club)", async () => {
    await setLocale("de");
    try {
      const { event, paid } = await waitlistEvent(1);
      const ana = await register(event.id, paid, "Ana");
      expect(ana.body.status).toBe("pending");
      await register(event.id, paid, "Bea");
      await cancel(event.id, ana.body.id);
      expect(await statusesOf(env, event.id)).toEqual({ Ana: "cancelled", Bea: "pending" });
      const [mail] = await deliver();
      expect(header(mail.raw, "Subject")).toStartWith("Ein Platz ist frei geworden");
      expect(textOf(mail.raw)).toContain("12.00 CHF");
    } finally {
      await setLocale("fr");
    }
  });

  it("the freed ticket's queue comes first, even before an older registration of another ticket", async () => {
    const { event, free, paid } = await waitlistEvent(2);
    const ana = await register(event.id, free, "Ana");
    await register(event.id, paid, "Bea");
    await register(event.id, paid, "Cleo"); // waitlisted first, on the paid ticket
    await register(event.id, free, "Dan"); // waitlisted later, on the freed ticket
    await cancel(event.id, ana.body.id);
    expect(await statusesOf(env, event.id)).toEqual({ Ana: "cancelled", Bea: "pending", Cleo: "waitlisted", Dan: "confirmed" });
  });

  it("cancelling a waitlisted registration promotes nobody and mails nobody", async () => {
    const { event, free } = await waitlistEvent(1);
    await register(event.id, free, "Ana");
    const bea = await register(event.id, free, "Bea");
    await register(event.id, free, "Cleo");
    expect((await cancel(event.id, bea.body.id)).body.status).toBe("cancelled");
    expect(await statusesOf(env, event.id)).toEqual({ Ana: "confirmed", Bea: "cancelled", Cleo: "waitlisted" });
    expect(await deliver()).toEqual([]);
  });

  it("a larger capacity moves up as many as now fit, oldest first", async () => {
    const { event, free } = await waitlistEvent(1);
    for (const first of ["Ana", "Bea", "Cleo", "Dan"]) await register(event.id, free, first);
    const res = await env.call("PATCH", `/api/clubs/${env.clubId}/events/${event.id}`, { body: { capacity: 3 } });
    expect(res.body).toMatchObject({ registered_count: 3, waitlisted_count: 1 });
    expect(await statusesOf(env, event.id)).toEqual({ Ana: "confirmed", Bea: "confirmed", Cleo: "confirmed", Dan: "waitlisted" });
    expect((await deliver()).map((m) => m.to[0])).toEqual(["bea@example.org", "cleo@example.org"]);
  });
});

describe("PATCH status=cancelled", () => {
  it("mails every confirmed and pending registrant (not the cancelled or waitlisted ones) in the club's language, once the jobs run", async () => {
    await setLocale("it");
    try {
      const { event, free, paid } = await waitlistEvent(2);
      await register(event.id, free, "Ana");
      await register(event.id, paid, "Bea");
      await register(event.id, free, "Cleo"); // waitlisted
      const dan = await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/registrations`, {
        body: { ticket_id: free, first_name: "Dan", last_name: "Noemail" },
      });
      expect(dan.status).toBe(409); // full: the admin is refused too
      const res = await env.call("PATCH", `/api/clubs/${env.clubId}/events/${event.id}`, { body: { status: "cancelled" } });
      expect(res.status).toBe(200);
      // Queued in the same transaction as the change, sent by the worker afterwards.
      const queued = await env.db.read
        .select()
        .from(jobs)
        .where(and(eq(jobs.club_id, env.clubId), eq(jobs.kind, "mail"), eq(jobs.status, "pending")));
      expect(queued).toHaveLength(2);
      expect(smtp.inbox).toHaveLength(0);
      const mails = await deliver();
      expect(mails.map((m) => m.to[0]).sort()).toEqual(["ana@example.org", "bea@example.org"]);
      for (const mail of mails) {
        expect(header(mail.raw, "Subject")).toBe(`Annullato: ${event.title} — Club de test`);
        expect(textOf(mail.raw)).toContain("è annullato");
      }
      expect(await deliver()).toHaveLength(2); // nothing sent twice
    } finally {
      await setLocale("fr");
    }
  });

  it("a mail the SMTP server refuses stays queued and goes out on a later run", async () => {
    const { event, free } = await waitlistEvent(1);
    await register(event.id, free, "Ana");
    smtp.refuse = true;
    try {
      await env.call("PATCH", `/api/clubs/${env.clubId}/events/${event.id}`, { body: { status: "cancelled" } });
      expect(await deliver()).toEqual([]);
    } finally {
      smtp.refuse = false;
    }
    const [job] = await env.db.read
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "mail"), eq(jobs.status, "pending")));
    expect(job.attempts).toBe(1);
    expect(job.last_error).toContain("mailbox unavailable");
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(Date.now() + 60_000) });
    expect(smtp.inbox.map((m) => m.to[0])).toEqual(["ana@example.org"]);
  });

  it("a cancellation at a cancelled event promotes nobody", async () => {
    const { event, free } = await waitlistEvent(1);
    const ana = await register(event.id, free, "Ana");
    await register(event.id, free, "Bea");
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${event.id}`, { body: { status: "cancelled" } });
    expect((await cancel(event.id, ana.body.id)).status).toBe(200);
    expect(await statusesOf(env, event.id)).toEqual({ Ana: "cancelled", Bea: "waitlisted" });
  });
});
