// Webhooks (DESIGN.md section 15) end to end: endpoints made through the API, events from the
// actions that cause them, delivered by the job queue (its clock frozen where time matters) to a
// local receiver (Bun.serve) that verifies each signature with the `standardwebhooks` package.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { openDb } from "../../db";
import { jobs, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { DELIVERY_LOG_KEEP_DAYS, deliveriesFinishedBefore, pauseAfter, purgeDeliveryLog } from "../../lib/webhooks/deliver";
import { emitter, FANOUT_BATCH, fanOut, fanOutIn, WEBHOOK_DELIVERY, WEBHOOK_FANOUT } from "../../lib/webhooks/emit";
import { claimJobs, PURGE_SLICE, purgeSlice, RECORDED, runDueJobs } from "../../lib/jobs";
import { onPostgres } from "../databases";
import { sqlitePlan } from "../plans";
import { checkWebhookUrl } from "../../lib/webhooks/guard";
import { JOB_KINDS } from "../../server/jobs";
import { setup, type TestEnv } from "../helpers";
import { startSmtp, type TestSmtp } from "../smtp";
import { refusalOf } from "../refusal";

type Received = { path: string; headers: Record<string, string>; body: string };
const received: Received[] = [];
/** What the receiver answers per path: a status (200 by default) or a Response. */
const answers: Record<string, number | (() => Response | Promise<Response>)> = {};

let receiver: ReturnType<typeof Bun.serve>;
let smtp: TestSmtp;
let env: TestEnv;
let strict: TestEnv;
let base = "";

beforeAll(async () => {
  receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      received.push({ path: url.pathname, headers: Object.fromEntries(req.headers), body: await req.text() });
      const answer = answers[url.pathname] ?? 200;
      return typeof answer === "function" ? answer() : new Response(answer === 200 ? "ok" : "x".repeat(3000), { status: answer });
    },
  });
  base = `http://127.0.0.1:${receiver.port}`;
  smtp = await startSmtp();
  env = await setup({ WEBHOOK_ALLOW_PRIVATE: "true", SMTP_URL: smtp.url });
  strict = await setup();
});
afterAll(async () => {
  await env.close();
  await strict.close();
  receiver.stop(true);
  await smtp.close();
});

const club = (path = "") => `/api/clubs/${env.clubId}${path}`;
const at = (path: string) => received.filter((r) => r.path === path);

/** Runs every job due at `now` (the job clock), again until none is left due. Returns how many ran. */
async function drain(now = new Date(), config = env.config): Promise<number> {
  let total = 0;
  for (;;) {
    const ran = await runDueJobs(env.db, { kinds: JOB_KINDS, config, now });
    if (!ran) return total;
    total += ran;
  }
}

/** A new endpoint at `path` of the receiver; the answer carries its secret. */
async function hook(path: string, events: string[] = ["*"]) {
  const res = await env.call("POST", club("/webhooks"), { body: { url: `${base}${path}`, events, description: path } });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string; url: string };
}

let n = 0;
async function addMember(end = "2030-12-31") {
  n++;
  const res = await env.call("POST", club("/members/manual"), {
    body: { first_name: "Ana", last_name: `Test${n}`, email: `ana${n}-${Date.now()}@test.org`, membership_end: end },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const deliveries = async (id: string) => (await env.call("GET", club(`/webhooks/${id}/deliveries`))).body.items;
/** The club's events not yet fanned out to their deliveries. */
const pendingEvents = () =>
  env.db.read
    .select()
    .from(jobs)
    .where(and(eq(jobs.club_id, env.clubId), eq(jobs.kind, WEBHOOK_FANOUT), eq(jobs.status, "pending")));

/** Verifies a received message with the secret, as a receiver would (throws when it does not verify). */
const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers) as { type: string; timestamp: string; data: Record<string, any> };

describe("webhook endpoints", () => {
  it("creates an endpoint with a secret shown once, lists it without the secret, changes and deletes it", async () => {
    const created = await hook("/crud", ["member.created", "member.created"]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({ events: ["member.created"], enabled: true, disabled_reason: null, description: "/crud" });
    const list = await env.call("GET", club("/webhooks"));
    expect(list.status).toBe(200);
    const listed = list.body.items.find((w: { id: string }) => w.id === created.id);
    expect(listed.secret).toBeUndefined();
    expect(list.text).not.toContain(created.secret);
    const patched = await env.call("PATCH", club(`/webhooks/${created.id}`), { body: { events: ["*", "event.created"], enabled: false } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ["*"], enabled: false, disabled_reason: "manual" });
    const again = await env.call("PATCH", club(`/webhooks/${created.id}`), { body: { enabled: true } });
    expect(again.body).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
    expect((await env.call("DELETE", club(`/webhooks/${created.id}`))).status).toBe(204);
    expect((await env.call("DELETE", club(`/webhooks/${created.id}`))).status).toBe(404);
  });

  it("refuses an unknown event type and a malformed URL (422)", async () => {
    const bad = await env.call("POST", club("/webhooks"), { body: { url: `${base}/x`, events: ["member.exploded"] } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["body", "events", 0]);
    const url = await env.call("POST", club("/webhooks"), { body: { url: "not a url", events: ["*"] } });
    expect(url.status).toBe(422);
  });
});

describe("events, each from its action", () => {
  it("sends every type to a `*` endpoint, in order, signed, with data as the API shows it", async () => {
    const all = await hook("/all");
    const member = await addMember();
    const { wallet_urls: _, ...memberItem } = member;
    const m = (path: string) => club(`/members/${member.id}${path}`);
    expect((await env.call("PATCH", m(""), { body: { last_name: "Durand" } })).status).toBe(200);
    expect((await env.call("POST", m("/actions/suspend"), { body: {} })).status).toBe(200);
    expect((await env.call("POST", m("/actions/reactivate"), { body: {} })).status).toBe(200);
    const paid = await env.call("POST", m("/actions/mark-paid"), { body: { amount_cents: 5000 } });
    expect(paid.status).toBe(200);
    const event = await env.call("POST", club("/events"), {
      body: { title: "Fête", starts_at: "2030-06-20T18:00:00Z", tickets: [{ name: "Entrée", non_member_price_cents: 0, member_price_cents: 0 }] },
    });
    expect(event.status).toBe(201);
    const e = (path: string) => club(`/events/${event.body.id}${path}`);
    const updated = await env.call("PATCH", e(""), { body: { title: "Fête d'été" } });
    expect(updated.status).toBe(200);
    const reg = await env.call("POST", `/api/public/events/${event.body.id}/registrations`, {
      key: null,
      body: { ticket_id: event.body.tickets[0].id, first_name: "Léa", last_name: "Rochat", email: "lea@test.org" },
    });
    expect(reg.status).toBe(201);
    const scan = await env.call("POST", e("/checkin"), { body: { code: reg.body.qr_token } });
    expect(scan.body.verdict).toBe("valid");
    // A scan repeated is no new check-in.
    expect((await env.call("POST", e("/checkin"), { body: { code: reg.body.qr_token } })).body.verdict).toBe("already");
    const cancelled = await env.call("PATCH", e(""), { body: { status: "cancelled" } });
    expect(cancelled.status).toBe(200);
    await drain();
    expect((await env.call("DELETE", m(""))).status).toBe(204);
    await drain();

    const messages = at("/all").map((r) => verify(all.secret, r));
    expect(messages.map((x) => x.type)).toEqual([
      "member.created",
      "member.updated",
      "member.updated",
      "member.status_changed",
      "member.updated",
      "member.status_changed",
      "payment.recorded",
      "member.updated",
      "event.created",
      "event.updated",
      "registration.created",
      "checkin.created",
      "event.cancelled",
      "member.deleted",
    ]);
    const of = (type: string) => messages.filter((x) => x.type === type);
    // The member as the API shows it, but for the page's token, which only the create answer carries (the row keeps its hash).
    expect(of("member.created")[0].data).toEqual({ ...memberItem, manage_token: null });
    expect(memberItem.manage_token).toHaveLength(32);
    expect(of("member.updated")[0].data.last_name).toBe("Durand");
    expect(of("member.status_changed").map((x) => [x.data.previous_status, x.data.status])).toEqual([
      ["active", "suspended"],
      ["suspended", "active"],
    ]);
    expect(of("payment.recorded")[0].data).toMatchObject({ member_id: member.id, amount_cents: 5000, kind: "membership", method: "bank_transfer" });
    expect(of("member.updated")[3].data).toEqual(paid.body);
    expect(of("event.created")[0].data).toEqual(event.body);
    expect(of("event.updated")[0].data).toEqual(updated.body);
    expect(of("event.cancelled")[0].data).toEqual(cancelled.body);
    expect(of("registration.created")[0].data).toMatchObject({ id: reg.body.id, event_id: event.body.id, status: "confirmed", email: "lea@test.org" });
    expect(of("checkin.created")[0].data).toMatchObject({ event_id: event.body.id, verdict: "valid", registration: { id: reg.body.id } });
    expect(of("member.deleted")[0].data).toMatchObject({ id: member.id });
    // Standard Webhooks: a message id, the same in the header and the log; the timestamp in seconds.
    const first = at("/all")[0];
    expect(first.headers["webhook-id"]).toMatch(/^msg_/);
    expect(Math.abs(Number(first.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    // The erasure blanked the member's data in the log of what was sent before it.
    const log = await deliveries(all.id);
    const createdLog = log.find((d: { type: string }) => d.type === "member.created");
    expect(createdLog.payload.data).toEqual({ erased: true });
    expect(JSON.stringify(log)).not.toContain(member.email);
  });

  it("an admin's registration: created, confirmed with its payment, cancelled with a refund (a negative payment)", async () => {
    const regs = await hook("/registrations", ["registration.created", "registration.confirmed", "registration.cancelled", "payment.recorded"]);
    const event = await env.call("POST", club("/events"), {
      body: { title: "Concert", starts_at: "2030-07-01T18:00:00Z", tickets: [{ name: "Place", non_member_price_cents: 2000, member_price_cents: 1500 }] },
    });
    const e = (path: string) => club(`/events/${event.body.id}/registrations${path}`);
    const added = await env.call("POST", e(""), {
      body: { ticket_id: event.body.tickets[0].id, first_name: "Ana", last_name: "Silva", email: "ana@test.org" },
    });
    expect(added.body.status).toBe("pending");
    const confirmed = await env.call("POST", e(`/${added.body.id}/actions/confirm`), { body: {} });
    expect(confirmed.status).toBe(200);
    const cancelled = await env.call("POST", e(`/${added.body.id}/actions/cancel`), { body: { refund_cents: 2000, reason: "ill" } });
    expect(cancelled.status).toBe(200);
    await drain();
    const messages = at("/registrations").map((r) => verify(regs.secret, r));
    expect(messages.map((x) => x.type)).toEqual([
      "registration.created",
      "payment.recorded",
      "registration.confirmed",
      "payment.recorded",
      "registration.cancelled",
    ]);
    expect(messages[0].data).toEqual({ event_id: event.body.id, ...added.body });
    expect(messages[2].data).toEqual({ event_id: event.body.id, ...confirmed.body });
    expect(messages[4].data).toEqual({ event_id: event.body.id, ...cancelled.body });
    expect([messages[1].data.amount_cents, messages[3].data.amount_cents]).toEqual([2000, -2000]);
    expect(messages[3].data).toMatchObject({ registration_id: added.body.id, kind: "event" });
  });

  it("a place freed moves the waiting list up (registration.confirmed); an unpaid hold that runs out is registration.cancelled", async () => {
    const regs = await hook("/moves", ["registration.confirmed", "registration.cancelled"]);
    const register = (eventId: string, ticketId: string, email: string) =>
      env.call("POST", `/api/public/events/${eventId}/registrations`, {
        key: null,
        body: { ticket_id: ticketId, first_name: "Ana", last_name: "Silva", email },
      });
    const free = await env.call("POST", club("/events"), {
      body: {
        title: "Atelier",
        starts_at: "2030-08-01T18:00:00Z",
        status: "published",
        capacity: 1,
        waitlist_enabled: true,
        tickets: [{ name: "Place", non_member_price_cents: 0, member_price_cents: 0 }],
      },
    });
    const first = await register(free.body.id, free.body.tickets[0].id, "first@test.org");
    const second = await register(free.body.id, free.body.tickets[0].id, "second@test.org");
    expect([first.body.status, second.body.status]).toEqual(["confirmed", "waitlisted"]);
    await env.call("POST", club(`/events/${free.body.id}/registrations/${first.body.id}/actions/cancel`), { body: {} });
    const paid = await env.call("POST", club("/events"), {
      body: {
        title: "Dîner",
        starts_at: "2030-08-02T18:00:00Z",
        status: "published",
        tickets: [{ name: "Repas", non_member_price_cents: 3000, member_price_cents: 3000 }],
      },
    });
    const unpaid = await register(paid.body.id, paid.body.tickets[0].id, "late@test.org");
    expect(unpaid.body.status).toBe("pending");
    // The club's hold is 48 h: two days and an hour on, the hold's job runs.
    await drain(new Date(Date.now() + 49 * 3_600_000));
    const messages = at("/moves").map((r) => verify(regs.secret, r));
    expect(messages.map((x) => [x.type, x.data.id, x.data.status])).toEqual([
      ["registration.cancelled", first.body.id, "cancelled"],
      ["registration.confirmed", second.body.id, "confirmed"],
      ["registration.cancelled", unpaid.body.id, "cancelled"],
    ]);
  });

  it("sends an endpoint only the types it asked for", async () => {
    const only = await hook("/only-created", ["member.created"]);
    const member = await addMember();
    await env.call("POST", club(`/members/${member.id}/actions/suspend`), { body: {} });
    await drain();
    expect(at("/only-created").map((r) => verify(only.secret, r).type)).toEqual(["member.created"]);
  });

  it("creates members from an import with one event each", async () => {
    const imp = await hook("/import", ["member.created"]);
    const csv = `first_name,last_name,email,membership_end\nNoah,Keller,noah-${Date.now()}@test.org,2030-12-31\nChiara,Rossi,chiara-${Date.now()}@test.org,2030-12-31\n`;
    const res = await env.call("POST", club("/members/import"), { rawBody: csv, headers: { "content-type": "text/csv" } });
    expect(res.body.created).toBe(2);
    await drain();
    expect(at("/import").map((r) => verify(imp.secret, r).data.last_name)).toEqual(["Keller", "Rossi"]);
  });

  it("keeps an endpoint's deliveries in the order of their events", async () => {
    const ordered = await hook("/ordered", ["member.created"]);
    const made = [];
    for (let i = 0; i < 6; i++) made.push((await addMember()).id);
    await drain();
    expect(at("/ordered").map((r) => verify(ordered.secret, r).data.id)).toEqual(made);
  });

  it("writes no delivery when the change is refused (same transaction)", async () => {
    const refused = await hook("/refused", ["member.created"]);
    const dup = await addMember();
    const again = await env.call("POST", club("/members/manual"), {
      body: { first_name: "A", last_name: "B", email: dup.email, membership_end: "2030-12-31" },
    });
    expect(again.status).toBe(409);
    expect(await deliveries(refused.id)).toHaveLength(1);
  });

  it("queues one delivery and one job per endpoint, each job naming its own delivery, for any number of endpoints", async () => {
    // 6 endpoints: written in pieces of 4 and 2 rows (lib/webhooks/emit), the last of them across a piece's edge.
    const many = [];
    for (let i = 0; i < 6; i++) many.push(await hook(`/many-${i}`, ["member.created"]));
    const member = await addMember();
    // The change wrote one row for its event, naming the endpoints; the worker fans it out.
    const [event] = await pendingEvents();
    expect(event.payload.endpoints).toEqual(expect.arrayContaining(many.map((e) => e.id)));
    await fanOut(env.db, env.clubId);
    const rows = await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.type, "member.created"));
    const mine = many.map((e) => rows.filter((d) => d.endpoint_id === e.id));
    expect(mine.map((d) => d.length)).toEqual([1, 1, 1, 1, 1, 1]);
    const queued = mine.map((d) => d[0]);
    expect(new Set(queued.map((d) => d.msg_id)).size).toBe(1);
    expect(new Set(queued.map((d) => d.job_id)).size).toBe(6);
    for (const d of queued) {
      const [job] = await env.db.read
        .select()
        .from(jobs)
        .where(eq(jobs.id, d.job_id as string));
      expect(job).toMatchObject({
        kind: "webhook_delivery",
        status: "pending",
        club_id: env.clubId,
        payload: { delivery_id: d.id, endpoint_id: d.endpoint_id },
      });
    }
    await drain();
    const sent = many.map((e, i) => at(`/many-${i}`).map((r) => verify(e.secret, r)));
    expect(sent.map((s) => s.map((x) => [x.type, x.data.id]))).toEqual(many.map(() => [["member.created", member.id]]));
    for (const e of many) expect((await env.call("PATCH", club(`/webhooks/${e.id}`), { body: { enabled: false } })).status).toBe(200);
  });
});

describe("an event fanned out to its deliveries off the request", () => {
  it("a read of the log right after the change lists the event's delivery as pending, before the worker came to it", async () => {
    await drain();
    const a = await hook("/fan-read", ["member.created"]);
    const member = await addMember();
    expect(await pendingEvents()).toHaveLength(1);
    expect(await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, a.id))).toHaveLength(0);
    const listed = await deliveries(a.id);
    expect(listed.map((d: { type: string; status: string; payload: { data: { id: string } } }) => [d.type, d.status, d.payload.data.id])).toEqual([
      ["member.created", "pending", member.id],
    ]);
    expect(await pendingEvents()).toHaveLength(0);
    await drain();
    expect(at("/fan-read").map((r) => verify(a.secret, r).data.id)).toEqual([member.id]);
    expect((await deliveries(a.id))[0].status).toBe("succeeded");
    expect((await env.call("PATCH", club(`/webhooks/${a.id}`), { body: { enabled: false } })).status).toBe(200);
  });

  it("each event is fanned out once, in batches, by two processes at once: one delivery and one job per endpoint and event", async () => {
    await drain();
    const a = await hook("/fan-twice-a", ["member.updated"]);
    const b = await hook("/fan-twice-b", ["member.updated"]);
    const count = FANOUT_BATCH + 30;
    for (let i = 0; i < count; i += 10)
      await env.db.tx(async (t) => {
        const out = await emitter(env.db, t, env.clubId);
        for (let j = i; j < Math.min(count, i + 10); j++) await out.emit("member.updated", () => ({ n: j }));
      });
    expect(await pendingEvents()).toHaveLength(count);
    const other = await openDb(env.config.databaseUrl);
    try {
      // SQLite: one writer at a time in one thread (a second connection's BEGIN would wait on the first), so one after the other.
      const taken = onPostgres
        ? await Promise.all([fanOut(env.db, env.clubId), fanOut(other, env.clubId)])
        : [await fanOut(env.db, env.clubId), await fanOut(other, env.clubId)];
      expect(taken[0] + taken[1]).toBe(count);
    } finally {
      await other.close();
    }
    expect(await pendingEvents()).toHaveLength(0);
    for (const e of [a, b]) {
      const rows = await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, e.id));
      expect(rows).toHaveLength(count);
      expect(new Set(rows.map((d) => d.msg_id)).size).toBe(count);
      expect(new Set(rows.map((d) => JSON.parse(d.payload).data.n)).size).toBe(count);
      const sending = await env.db.read
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, "webhook_delivery"), eq(jobs.status, "pending")));
      expect(
        sending
          .filter((j) => j.payload.endpoint_id === e.id)
          .map((j) => j.id)
          .sort(),
      ).toEqual(rows.map((d) => d.job_id as string).sort());
    }
    await drain();
    expect(at("/fan-twice-a")).toHaveLength(count);
    expect(at("/fan-twice-b")).toHaveLength(count);
    for (const e of [a, b]) expect((await env.call("DELETE", club(`/webhooks/${e.id}`))).status).toBe(204);
  });

  it("a fan-out job's run takes a batch holding its own event and stops there: the later events have jobs of their own", async () => {
    await drain();
    const a = await hook("/fan-own", ["member.updated"]);
    await env.db.tx(async (t) => {
      const out = await emitter(env.db, t, env.clubId);
      for (let j = 0; j < FANOUT_BATCH + 20; j++) await out.emit("member.updated", () => ({ n: j }));
    });
    const events = await pendingEvents();
    const first = events.reduce((x, y) => (y.run_after < x.run_after ? y : x));
    await JOB_KINDS[WEBHOOK_FANOUT].run(env.db, first, { config: env.config, now: new Date() });
    expect(await pendingEvents()).toHaveLength(20);
    await drain();
    expect(await pendingEvents()).toHaveLength(0);
    expect(at("/fan-own")).toHaveLength(FANOUT_BATCH + 20);
    expect((await env.call("DELETE", club(`/webhooks/${a.id}`))).status).toBe(204);
  });

  it("a fan-out cut short is undone whole, and the event of a process that died holding it is fanned out by another once its lease lapses", async () => {
    await drain();
    const a = await hook("/fan-cut", ["member.created"]);
    const member = await addMember();
    // Cut after its deliveries were written, before its commit: nothing of it is left.
    expect(
      await refusalOf(
        env.db.tx(async (t) => {
          expect(await fanOutIn(env.db, t, env.clubId)).toHaveLength(1);
          throw new Error("process killed");
        }),
      ),
    ).toMatchObject({ message: expect.stringContaining("process killed") });
    const [event] = await pendingEvents();
    expect(event).toBeDefined();
    expect(await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, a.id))).toHaveLength(0);
    // Claimed by a process that then died: left alone while its lease holds, taken after.
    const now = new Date();
    expect((await claimJobs(env.db, [event], now, "dead-process")).map((j) => j.id)).toEqual([event.id]);
    await drain(new Date(now.getTime() + 1000));
    expect(await pendingEvents()).toHaveLength(1);
    expect(at("/fan-cut")).toHaveLength(0);
    await drain(new Date(now.getTime() + 31_000));
    expect(await pendingEvents()).toHaveLength(0);
    expect(at("/fan-cut").map((r) => verify(a.secret, r).data.id)).toEqual([member.id]);
    expect(await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, a.id))).toHaveLength(1);
    expect((await env.call("PATCH", club(`/webhooks/${a.id}`), { body: { enabled: false } })).status).toBe(200);
  });

  it("goes to the endpoints subscribed at the event's time: one deleted since gets nothing, one disabled since a delivery failed unsent", async () => {
    await drain();
    const gone = await hook("/fan-gone", ["member.created"]);
    const off = await hook("/fan-off", ["member.created"]);
    const on = await hook("/fan-on", ["member.created"]);
    const member = await addMember();
    expect((await env.call("DELETE", club(`/webhooks/${gone.id}`))).status).toBe(204);
    expect((await env.call("PATCH", club(`/webhooks/${off.id}`), { body: { enabled: false } })).status).toBe(200);
    // Subscribed after the event: not one of its endpoints.
    const late = await hook("/fan-late", ["member.created"]);
    await drain();
    expect(at("/fan-gone")).toHaveLength(0);
    expect(at("/fan-off")).toHaveLength(0);
    expect(at("/fan-late")).toHaveLength(0);
    expect(at("/fan-on").map((r) => verify(on.secret, r).data.id)).toEqual([member.id]);
    expect((await deliveries(off.id)).map((d: { status: string; attempts: unknown[] }) => [d.status, d.attempts.length])).toEqual([["failed", 0]]);
    expect(await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, gone.id))).toHaveLength(0);
    for (const e of [on, late]) expect((await env.call("PATCH", club(`/webhooks/${e.id}`), { body: { enabled: false } })).status).toBe(200);
  });

  it("erasing a member whose event is not fanned out yet: its delivery still goes, as erased, and no job keeps the address", async () => {
    await drain();
    const a = await hook("/fan-erased", ["member.created"]);
    const member = await addMember();
    expect(JSON.stringify((await pendingEvents())[0].payload)).toContain(member.email);
    expect((await env.call("DELETE", club(`/members/${member.id}`))).status).toBe(204);
    const mentioning = (await env.db.read.select().from(jobs).where(eq(jobs.club_id, env.clubId))).filter((j) =>
      JSON.stringify(j.payload).includes(member.email),
    );
    expect(mentioning).toHaveLength(0);
    await drain();
    expect(at("/fan-erased").map((r) => verify(a.secret, r))).toMatchObject([{ type: "member.created", data: { erased: true } }]);
    expect((await env.call("PATCH", club(`/webhooks/${a.id}`), { body: { enabled: false } })).status).toBe(200);
  });
});

describe("delivery", () => {
  it("retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (job clock frozen), then gives up; the log keeps each attempt", async () => {
    answers["/down"] = 500;
    const down = await hook("/down", ["member.created"]);
    await addMember();
    let t = Date.now() + 1000;
    await drain(new Date(t));
    for (const delay of [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]) {
      const [pending] = await deliveries(down.id);
      expect(pending.status).toBe("pending");
      expect(Date.parse(pending.next_attempt_at)).toBe(t + delay);
      // Not a second earlier.
      const before = at("/down").length;
      await drain(new Date(t + delay - 1000));
      expect(at("/down")).toHaveLength(before);
      t += delay;
      await drain(new Date(t));
      expect(at("/down")).toHaveLength(before + 1);
    }
    const [done] = await deliveries(down.id);
    expect(done).toMatchObject({ status: "failed", attempt_count: 8, next_attempt_at: null, last_status_code: 500 });
    expect(done.attempts).toHaveLength(8);
    expect(done.attempts[0].status_code).toBe(500);
    expect(done.attempts[0].response_body).toHaveLength(1024);
    expect(done.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
    await drain(new Date(t + 86_400_000));
    expect(at("/down")).toHaveLength(8);
    // Every attempt carried the same message id.
    expect(new Set(at("/down").map((r) => r.headers["webhook-id"])).size).toBe(1);
    // 27 h of failures is not yet 3 days: the endpoint stays enabled.
    const [endpoint] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, down.id));
    expect(endpoint.enabled).toBe(true);
    expect(endpoint.failing_since).not.toBeNull();
  });

  it("a 410 disables the endpoint at once: no retry, no new delivery, the contact is mailed", async () => {
    answers["/gone"] = 410;
    const gone = await hook("/gone", ["member.created"]);
    await addMember();
    await drain();
    const [d] = await deliveries(gone.id);
    expect(d).toMatchObject({ status: "failed", attempt_count: 1, last_status_code: 410 });
    const list = (await env.call("GET", club("/webhooks"))).body.items;
    expect(list.find((w: { id: string }) => w.id === gone.id)).toMatchObject({ enabled: false, disabled_reason: "gone" });
    await addMember();
    await drain(new Date(Date.now() + 3_600_000));
    expect(at("/gone")).toHaveLength(1);
    expect(await deliveries(gone.id)).toHaveLength(1);
    expect(smtp.inbox.some((m) => m.raw.includes(`${base}/gone`))).toBe(true);
    // Test and retry are refused while disabled.
    expect((await env.call("POST", club(`/webhooks/${gone.id}/test`))).body.code).toBe("WEBHOOK_DISABLED");
  });

  it("disables an endpoint failing for 3 days and mails the club's contact in its language", async () => {
    expect((await env.call("PUT", club(), { body: { contact_email: "board@test.org", locale: "en" } })).status).toBe(200);
    answers["/dead"] = 503;
    const dead = await hook("/dead", ["member.created"]);
    const t0 = Date.now() + 1000;
    await addMember();
    await drain(new Date(t0));
    await addMember();
    await drain(new Date(t0 + 3 * 86_400_000 - 60_000));
    let [endpoint] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, dead.id));
    expect(endpoint.enabled).toBe(true);
    await addMember();
    await drain(new Date(t0 + 3 * 86_400_000));
    [endpoint] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, dead.id));
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: "failing" });
    const mail = smtp.inbox.find((m) => m.raw.includes(`${base}/dead`));
    expect(mail?.to).toEqual(["board@test.org"]);
    expect(mail?.raw).toContain("has been disabled");
    expect(mail?.raw).toContain("3 days");
    await env.call("PUT", club(), { body: { locale: "fr" } });
  });

  it("does not follow a redirect: a 3xx is a failure", async () => {
    answers["/moved"] = () => new Response(null, { status: 302, headers: { location: "/moved-here" } });
    const moved = await hook("/moved", ["member.created"]);
    await addMember();
    await drain();
    const [d] = await deliveries(moved.id);
    expect(d).toMatchObject({ status: "pending", last_status_code: 302 });
    expect(at("/moved-here")).toHaveLength(0);
  });

  it("an endpoint that times out twice in a row is paused: its deliveries wait without an attempt, for 1 min, then 2, 4 ... 1 h at most; an answer ends it", async () => {
    expect([0, 1, 2, 3, 4, 8, 20].map(pauseAfter)).toEqual([0, 0, 60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
    // The receiver answers after 1 s; deliveries here wait 0.1 s (the 15 s of DESIGN.md, shortened for the test).
    answers["/hangs"] = () => Bun.sleep(1_000).then(() => new Response("late"));
    const config = { ...env.config, webhooks: { ...env.config.webhooks, deliveryTimeoutMs: 100 } };
    const slow = await hook("/hangs", ["member.created"]);
    for (let i = 0; i < 3; i++) await addMember();
    const t0 = Date.now() + 1000;
    await drain(new Date(t0), config);
    // Two attempts went unanswered; the third delivery waits for the pause's end, no attempt counted.
    expect(at("/hangs")).toHaveLength(2);
    const pausedUntil = new Date(t0 + 60_000).toISOString();
    const [endpoint] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, slow.id));
    expect(endpoint).toMatchObject({ timeouts: 2, paused_until: pausedUntil, enabled: true });
    const [third, second, first] = await deliveries(slow.id);
    expect(first).toMatchObject({ status: "pending", attempt_count: 1 });
    expect(first.attempts[0].error).toBe("no answer within 0.1 s");
    expect(second).toMatchObject({ status: "pending", attempt_count: 1 });
    expect(third).toMatchObject({ status: "pending", attempt_count: 0, next_attempt_at: pausedUntil });
    const [job] = await env.db.read
      .select()
      .from(jobs)
      .where(eq(jobs.id, (await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, third.id)))[0].job_id as string));
    expect(job).toMatchObject({ status: "pending", attempts: 0, run_after: pausedUntil });
    expect(job.outcome).toContain("paused");
    // The API shows the pause.
    const listed = (await env.call("GET", club("/webhooks"))).body.items.find((w: { id: string }) => w.id === slow.id);
    expect(listed.paused_until).toBe(pausedUntil);
    // The first delivery's retry (due after 5 s) waits too: nothing is sent during the pause.
    await drain(new Date(t0 + 30_000), config);
    expect(at("/hangs")).toHaveLength(2);
    expect((await deliveries(slow.id)).map((d: { attempt_count: number }) => d.attempt_count)).toEqual([0, 1, 1]);
    // Still hanging at the pause's end: one probe, then paused twice as long.
    await drain(new Date(t0 + 61_000), config);
    expect(at("/hangs")).toHaveLength(3);
    const [again] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, slow.id));
    expect(again).toMatchObject({ timeouts: 3, paused_until: new Date(t0 + 61_000 + 120_000).toISOString() });
    // It answers again: every delivery goes (the probe's own after its 5 min retry), and the endpoint is no longer paused.
    answers["/hangs"] = 200;
    await drain(new Date(t0 + 61_000 + 300_000), config);
    expect((await deliveries(slow.id)).map((d: { status: string }) => d.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const [healed] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, slow.id));
    expect(healed).toMatchObject({ timeouts: 0, failing_since: null });
    expect((await env.call("GET", club("/webhooks"))).body.items.find((w: { id: string }) => w.id === slow.id).paused_until).toBeNull();
    await env.call("DELETE", club(`/webhooks/${slow.id}`));
  });

  it("deliveries to one endpoint timing out at once (several processes) each count: none of the endpoint's counts is lost", async () => {
    answers["/hangs-together"] = () => Bun.sleep(1_000).then(() => new Response("late"));
    const together = await hook("/hangs-together", ["member.created"]);
    for (let i = 0; i < 4; i++) await addMember();
    await fanOut(env.db, env.clubId);
    const rows = await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, together.id));
    const pending = await env.db.read
      .select()
      .from(jobs)
      .where(
        inArray(
          jobs.id,
          rows.map((d) => d.job_id as string),
        ),
      );
    expect(pending).toHaveLength(4);
    // Each job as its own process's worker runs it, all at once (0.1 s to answer): their records
    // meet on the endpoint's row, each reading the counts the one before wrote.
    const config = { ...env.config, webhooks: { ...env.config.webhooks, deliveryTimeoutMs: 100 } };
    await Promise.all(pending.map((job) => JOB_KINDS[WEBHOOK_DELIVERY].run(env.db, job, { config, now: new Date() })));
    expect(at("/hangs-together")).toHaveLength(4);
    const [endpoint] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, together.id));
    expect(endpoint.timeouts).toBe(4);
    await env.call("DELETE", club(`/webhooks/${together.id}`));
  });

  it("an answer announcing a short length whose body stalls counts as a time-out; its status is kept, a long answer's first 1,024 bytes", async () => {
    // A far end that sends its headers at once, announcing 5 bytes, then 2 of them and nothing more
    // (Bun.serve drops the length of a streamed answer: a socket of our own).
    const stalling = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: { data: (socket) => void socket.write("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nok") },
    });
    // Deliveries here wait 0.1 s.
    const config = { ...env.config, webhooks: { ...env.config.webhooks, deliveryTimeoutMs: 100 } };
    const res = await env.call("POST", club("/webhooks"), { body: { url: `http://127.0.0.1:${stalling.port}/stalls`, events: ["member.created"] } });
    expect(res.status).toBe(201);
    const stalls = res.body as { id: string };
    answers["/long"] = () => new Response("y".repeat(1500), { status: 201 });
    const long = await hook("/long", ["member.created"]);
    await addMember();
    await drain(new Date(), config);
    stalling.stop(true);
    const [stalled] = await deliveries(stalls.id);
    expect(stalled).toMatchObject({ status: "succeeded", last_status_code: 200 });
    const [endpoint] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, stalls.id));
    expect(endpoint.timeouts).toBe(1);
    const [kept] = await deliveries(long.id);
    expect(kept.attempts[0]).toMatchObject({ status_code: 201, response_body: "y".repeat(1024) });
    await env.call("DELETE", club(`/webhooks/${stalls.id}`));
    await env.call("DELETE", club(`/webhooks/${long.id}`));
  });

  it("an admin's retry or test goes out at once to a paused endpoint (they may have fixed it)", async () => {
    answers["/paused"] = 200;
    const paused = await hook("/paused", ["member.created"]);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await env.db.tx((t) => t.update(webhookEndpoints).set({ timeouts: 5, paused_until: until }).where(eq(webhookEndpoints.id, paused.id)));
    await addMember();
    await drain();
    expect(at("/paused")).toHaveLength(0);
    const [waiting] = await deliveries(paused.id);
    expect(waiting).toMatchObject({ status: "pending", attempt_count: 0, next_attempt_at: until });
    expect((await env.call("POST", club(`/webhooks/${paused.id}/deliveries/${waiting.id}/retry`))).status).toBe(202);
    await drain();
    expect(at("/paused")).toHaveLength(1);
    const [endpoint] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, paused.id));
    expect(endpoint).toMatchObject({ timeouts: 0, paused_until: null });
    await env.call("DELETE", club(`/webhooks/${paused.id}`));
  });

  it("retries a delivery by hand, with a new schedule; the old job stands down", async () => {
    answers["/flaky"] = 500;
    const flaky = await hook("/flaky", ["member.created"]);
    await addMember();
    await drain();
    const [failed] = await deliveries(flaky.id);
    expect(failed.status).toBe("pending");
    answers["/flaky"] = 200;
    const retried = await env.call("POST", club(`/webhooks/${flaky.id}/deliveries/${failed.id}/retry`));
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: failed.id, status: "pending" });
    await drain();
    const [ok] = await deliveries(flaky.id);
    expect(ok).toMatchObject({ status: "succeeded", attempt_count: 2, last_status_code: 200 });
    await drain(new Date(Date.now() + 60_000));
    expect(at("/flaky")).toHaveLength(2);
    const unknown = await env.call("POST", club(`/webhooks/${flaky.id}/deliveries/${crypto.randomUUID()}/retry`));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("WEBHOOK_DELIVERY_NOT_FOUND");
  });

  it("`test` sends a webhook.test event whatever types the endpoint asked for", async () => {
    const quiet = await hook("/quiet", ["event.cancelled"]);
    const res = await env.call("POST", club(`/webhooks/${quiet.id}/test`));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ type: "webhook.test", status: "pending" });
    await drain();
    const [msg] = at("/quiet").map((r) => verify(quiet.secret, r));
    expect(msg).toMatchObject({ type: "webhook.test", data: { webhook_id: quiet.id } });
  });

  it("a deleted endpoint's pending deliveries are not sent", async () => {
    const gone = await hook("/deleted", ["member.created"]);
    await addMember();
    await env.call("DELETE", club(`/webhooks/${gone.id}`));
    await drain();
    expect(at("/deleted")).toHaveLength(0);
  });

  it("a delivery's job read as due but done meanwhile (another process, its lease lapsed) sends nothing and writes nothing", async () => {
    const late = await hook("/done-meanwhile", ["member.created"]);
    await addMember();
    await fanOut(env.db, env.clubId);
    const [delivery] = await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, late.id));
    const [job] = await env.db.read
      .select()
      .from(jobs)
      .where(eq(jobs.id, delivery.job_id as string));
    // The other process's record, as its handler wrote it, after this one had read the job as due.
    await env.db.tx((t) => t.update(jobs).set({ status: "done", outcome: "HTTP 200 elsewhere" }).where(eq(jobs.id, job.id)));
    // Its handler as the worker runs it (runJob reads no status first for this kind), with the job
    // as read before (pending): the delivery itself still reads pending, so only the job's own
    // status tells that it is done. RECORDED: runJob writes nothing either.
    expect(await JOB_KINDS[WEBHOOK_DELIVERY].run(env.db, job, { config: env.config, now: new Date() })).toBe(RECORDED);
    expect(at("/done-meanwhile")).toHaveLength(0);
    const [after] = await env.db.read.select().from(jobs).where(eq(jobs.id, job.id));
    expect(after).toMatchObject({ status: "done", outcome: "HTTP 200 elsewhere" });
    expect(await env.db.read.select().from(webhookAttempts).where(eq(webhookAttempts.delivery_id, delivery.id))).toHaveLength(0);
    await env.call("DELETE", club(`/webhooks/${late.id}`));
  });

  it("the log keeps a month: the daily purge deletes deliveries finished before (their attempts too), a slice at a time, never a pending one", async () => {
    const kept = await hook("/purged", ["member.created"]);
    answers["/purge-failing"] = 500;
    const failing = await hook("/purge-failing", ["member.created"]);
    for (let i = 0; i < 3; i++) await addMember();
    const now = new Date();
    await drain(now);
    const done = await deliveries(kept.id);
    expect(done.map((d: { status: string }) => d.status)).toEqual(["succeeded", "succeeded", "succeeded"]);
    expect((await deliveries(failing.id)).map((d: { status: string }) => d.status)).toEqual(["pending", "pending", "pending"]);
    const attempts = async () =>
      (
        await env.db.read
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.delivery_id,
              done.map((d: { id: string }) => d.id),
            ),
          )
      ).length;
    expect(await attempts()).toBe(3);
    expect(await purgeDeliveryLog(env.db, new Date(now.getTime() + (DELIVERY_LOG_KEEP_DAYS - 1) * 86_400_000))).toBe(0);
    // Slices of two: the three go in two transactions (and other tests' finished deliveries with them).
    expect(await purgeDeliveryLog(env.db, new Date(now.getTime() + (DELIVERY_LOG_KEEP_DAYS + 1) * 86_400_000), 2)).toBeGreaterThanOrEqual(3);
    expect(await deliveries(kept.id)).toHaveLength(0);
    expect(await attempts()).toBe(0);
    expect((await deliveries(failing.id)).map((d: { status: string }) => d.status)).toEqual(["pending", "pending", "pending"]);
    await env.call("DELETE", club(`/webhooks/${failing.id}`));
  });

  it.skipIf(onPostgres)("on SQLite, the purge finds the finished deliveries through their index, not by reading the whole log", () => {
    const slice = purgeSlice(env.db.read, webhookDeliveries, webhookDeliveries.id, deliveriesFinishedBefore(new Date().toISOString()), PURGE_SLICE);
    expect(sqlitePlan(env.db, slice)).toEqual(["SEARCH webhook_deliveries USING INDEX webhook_deliveries_finished_idx (finished_at<?)"]);
  });
});

describe("secret rotation", () => {
  it("signs with both secrets for 24 h, then with the new one only", async () => {
    const rot = await hook("/rotate", ["member.created"]);
    const res = await env.call("POST", club(`/webhooks/${rot.id}/rotate-secret`));
    expect(res.status).toBe(200);
    const fresh = res.body.secret as string;
    expect(fresh).not.toBe(rot.secret);
    expect(Date.parse(res.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    await addMember();
    await drain();
    const [during] = at("/rotate");
    expect(during.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verify(rot.secret, during).type).toBe("member.created");
    expect(verify(fresh, during).type).toBe("member.created");
    await addMember();
    await drain(new Date(Date.now() + 25 * 3_600_000));
    const after = at("/rotate")[1];
    expect(after.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(verify(fresh, after).type).toBe("member.created");
    expect(() => verify(rot.secret, after)).toThrow();
  });
});

describe("SSRF guard", () => {
  const refusedAlways = [
    "http://169.254.169.254/latest/meta-data",
    "http://[fe80::1]/",
    "http://[::ffff:169.254.169.254]/",
    "ftp://example.org/",
    "file:///etc/passwd",
  ];
  const refusedWithoutSetting = [
    "http://127.0.0.1:9/",
    "http://localhost:9/",
    "http://10.0.0.5/",
    "http://192.168.1.10/",
    "http://172.16.0.1/",
    "http://[::1]/",
    "http://[fd00::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://0.0.0.0/",
  ];

  it("refuses loopback, private, link-local, metadata and non-http URLs at creation (422 WEBHOOK_URL_NOT_ALLOWED)", async () => {
    for (const url of [...refusedAlways, ...refusedWithoutSetting]) {
      const res = await strict.call("POST", `/api/clubs/${strict.clubId}/webhooks`, { body: { url, events: ["*"] } });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 422, code: "WEBHOOK_URL_NOT_ALLOWED" });
      expect(res.body.detail[0].loc).toEqual(["body", "url"]);
    }
    const patch = await env.call("PATCH", club(`/webhooks/${(await hook("/ssrf-patch")).id}`), { body: { url: "http://169.254.169.254/" } });
    expect(patch.body.code).toBe("WEBHOOK_URL_NOT_ALLOWED");
    expect(await strict.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.club_id, strict.clubId))).toHaveLength(0);
  });

  it("names WEBHOOK_ALLOW_PRIVATE when only that setting keeps the address out, in the club's language; never for what it cannot allow", async () => {
    for (const url of refusedWithoutSetting) {
      const res = await strict.call("POST", `/api/clubs/${strict.clubId}/webhooks`, { body: { url, events: ["*"] } });
      expect({ url, code: res.body.code, type: res.body.detail[0].type }).toEqual({ url, code: "WEBHOOK_URL_NOT_ALLOWED", type: "webhook_url_private" });
      expect(res.body.detail[0].msg).toContain("WEBHOOK_ALLOW_PRIVATE=true");
    }
    for (const url of refusedAlways) {
      const res = await strict.call("POST", `/api/clubs/${strict.clubId}/webhooks`, { body: { url, events: ["*"] } });
      expect({ url, type: res.body.detail[0].type }).toEqual({ url, type: "webhook_url_not_allowed" });
      expect(res.body.detail[0].msg).not.toContain("WEBHOOK_ALLOW_PRIVATE");
    }
    const said: Record<string, string> = {};
    for (const locale of ["fr", "en", "de", "it"]) {
      await strict.call("PUT", `/api/clubs/${strict.clubId}`, { body: { locale } });
      const res = await strict.call("POST", `/api/clubs/${strict.clubId}/webhooks`, { body: { url: "http://127.0.0.1:9/hook", events: ["*"] } });
      said[locale] = res.body.detail[0].msg;
    }
    expect(said.fr).toStartWith("Cette adresse ne peut pas recevoir de webhooks : 127.0.0.1 is a private address. Les adresses locales et privées");
    expect(said.en).toStartWith("This address cannot receive webhooks: 127.0.0.1 is a private address. Loopback and private addresses");
    expect(said.de).toStartWith("Diese Adresse kann keine Webhooks empfangen: 127.0.0.1 is a private address. Lokale und private Adressen");
    expect(said.it).toStartWith("Questo indirizzo non può ricevere webhook: 127.0.0.1 is a private address. Gli indirizzi locali e privati");
    for (const msg of Object.values(said)) expect(msg).toContain("WEBHOOK_ALLOW_PRIVATE=true");
    await strict.call("PUT", `/api/clubs/${strict.clubId}`, { body: { locale: "fr" } });
  });

  it("WEBHOOK_ALLOW_PRIVATE lets loopback and private through, never link-local or metadata", async () => {
    for (const url of refusedWithoutSetting.slice(0, 4)) {
      const res = await env.call("POST", club("/webhooks"), { body: { url, events: ["event.cancelled"] } });
      expect({ url, status: res.status }).toEqual({ url, status: 201 });
      await env.call("DELETE", club(`/webhooks/${res.body.id}`));
    }
    for (const url of refusedAlways) {
      const res = await env.call("POST", club("/webhooks"), { body: { url, events: ["*"] } });
      expect({ url, code: res.body.code }).toEqual({ url, code: "WEBHOOK_URL_NOT_ALLOWED" });
    }
    expect((await checkWebhookUrl("http://[fd00:ec2::254]/", { allowPrivate: true })).ok).toBe(false);
    expect((await checkWebhookUrl("http://[64:ff9b::a9fe:a9fe]/", { allowPrivate: true })).ok).toBe(false);
    expect((await checkWebhookUrl("https://93.184.215.14/", { allowPrivate: false })).ok).toBe(true);
  });

  it("checks again at delivery: a name resolving to 127.0.0.1 without the setting fails the attempt, nothing is sent", async () => {
    const res = await env.call("POST", club("/webhooks"), { body: { url: `http://localhost:${receiver.port}/late`, events: ["member.created"] } });
    expect(res.status).toBe(201);
    await addMember();
    await drain(new Date(), { ...env.config, webhooks: { allowPrivate: false } });
    const [d] = await deliveries(res.body.id);
    expect(d.status).toBe("pending");
    expect(d.attempts[0]).toMatchObject({ status_code: null });
    expect(d.attempts[0].error).toContain("WEBHOOK_URL_NOT_ALLOWED");
    expect(d.attempts[0].error).toContain("127.0.0.1");
    expect(d.attempts[0].error).toContain("WEBHOOK_ALLOW_PRIVATE=true allows it");
    expect(at("/late")).toHaveLength(0);
  });
});

describe("access", () => {
  it("a view key reads but every write is 403 and changes nothing; a key without access_control reads nothing", async () => {
    const target = await hook("/scoped", ["member.created"]);
    const view = await env.makeKey({ access_control: "view" });
    const none = await env.makeKey({ members: "edit" });
    expect((await env.call("GET", club("/webhooks"), { key: view })).status).toBe(200);
    expect((await env.call("GET", club(`/webhooks/${target.id}/deliveries`), { key: view })).status).toBe(200);
    const writes: [string, string, unknown?][] = [
      ["POST", club("/webhooks"), { url: `${base}/x`, events: ["*"] }],
      ["PATCH", club(`/webhooks/${target.id}`), { enabled: false, url: `${base}/elsewhere` }],
      ["DELETE", club(`/webhooks/${target.id}`)],
      ["POST", club(`/webhooks/${target.id}/rotate-secret`)],
      ["POST", club(`/webhooks/${target.id}/test`)],
      ["POST", club(`/webhooks/${target.id}/deliveries/${crypto.randomUUID()}/retry`)],
    ];
    const before = await env.db.read.select().from(webhookEndpoints);
    for (const [method, path, body] of writes)
      expect({ method, path, status: (await env.call(method, path, { key: view, body })).status }).toEqual({ method, path, status: 403 });
    expect(await env.db.read.select().from(webhookEndpoints)).toEqual(before);
    expect(await deliveries(target.id)).toHaveLength(0);
    expect((await env.call("GET", club("/webhooks"), { key: none })).status).toBe(403);
  });

  it("another club's endpoint and deliveries are 404 here", async () => {
    const other = await env.otherClub();
    const theirs = await env.call("POST", `/api/clubs/${other.club_id}/webhooks`, { key: other.api_key, body: { url: `${base}/theirs`, events: ["*"] } });
    expect(theirs.status).toBe(201);
    const id = theirs.body.id;
    for (const [method, path] of [
      ["PATCH", `/webhooks/${id}`],
      ["DELETE", `/webhooks/${id}`],
      ["GET", `/webhooks/${id}/deliveries`],
      ["POST", `/webhooks/${id}/test`],
      ["POST", `/webhooks/${id}/rotate-secret`],
    ]) {
      const res = await env.call(method, club(path), { body: method === "PATCH" ? { enabled: false } : undefined });
      expect({ method, path, status: res.status, code: res.body.code }).toEqual({ method, path, status: 404, code: "WEBHOOK_NOT_FOUND" });
    }
    expect((await env.call("GET", club("/webhooks"))).text).not.toContain(id);
    // Their club's changes go to their endpoints only.
    const [row] = await env.db.read.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    expect(row.enabled).toBe(true);
    expect(await env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpoint_id, id))).toHaveLength(0);
  });
});

it("leaves no webhook job failing for want of a handler", async () => {
  const rows = await env.db.read.select().from(jobs);
  expect(rows.filter((j) => (j.last_error ?? "").includes("no handler"))).toEqual([]);
});
