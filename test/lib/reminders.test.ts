// The reminder scheduler (DESIGN.md section 14) with a frozen clock: `runReminders` and the CLI's
// --date take the day, the job queue's `now` the hour. Each reminder at each configured day and
// only once, none for suspended, pending or subscription members, the expiry notice after the
// grace period, the event reminder the day before; the mails through a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { and, eq } from "drizzle-orm";
import { clubs, jobs, members, remindersSent } from "../../db/schema";
import { runDueJobs } from "../../lib/jobs";
import { sha256Hex } from "../../lib/ids";
import { addDays } from "../../lib/members/internal";
import { REMINDERS_RUN, remindersSchedule, runReminders } from "../../lib/reminders";
import { main } from "../../scripts/cli";
import { JOB_KINDS } from "../../server/jobs";
import { insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";
import { header, parts, bodyOf, startSmtp, type TestSmtp, textOf } from "../smtp";

const END = "2031-03-15";
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

const run = (today: string, clubId = env.clubId) => runReminders(env.db, { baseUrl: "http://localhost", today, clubId });
const setClub = async (body: Record<string, unknown>, clubId = env.clubId) => {
  if (Object.keys(body).length) await env.db.tx((t) => t.update(clubs).set(body).where(eq(clubs.id, clubId)));
};
/** Runs the queued mail jobs and hands back what the SMTP server received meanwhile. */
async function deliver() {
  const before = smtp.inbox.length;
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config });
  return smtp.inbox.slice(before);
}

/** A fresh club (its own members and settings) for one test. */
async function freshClub(settings: Record<string, unknown> = {}) {
  const club = await env.otherClub();
  await setClub(settings, club.club_id);
  return club.club_id;
}

describe("club settings", () => {
  it("show the defaults: reminders 30 and 7 days before, no grace period, an expiry notice", async () => {
    const res = await env.call("GET", "/api/auth/me");
    expect(res.body.club).toMatchObject({ renewal_reminder_days: [30, 7], grace_period_days: 0, expiry_notice: true });
  });

  it("are written with page:edit, sorted and once each, and refused out of range", async () => {
    const path = `/api/clubs/${env.clubId}`;
    const ok = await env.call("PUT", path, { body: { renewal_reminder_days: [7, 60, 7, 1], grace_period_days: 10, expiry_notice: false } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ renewal_reminder_days: [60, 7, 1], grace_period_days: 10, expiry_notice: false });
    for (const bad of [
      { renewal_reminder_days: [1, 2, 3, 4, 5, 6] },
      { renewal_reminder_days: [0] },
      { renewal_reminder_days: [366] },
      { grace_period_days: -1 },
    ]) {
      const res = await env.call("PUT", path, { body: bad });
      expect(res.status).toBe(422);
    }
    const pageView = await env.makeKey({ page: "view" });
    expect((await env.call("PUT", path, { key: pageView, body: { grace_period_days: 3 } })).status).toBe(403);
    const [club] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expect({ days: club.renewal_reminder_days, grace: club.grace_period_days }).toEqual({ days: [60, 7, 1], grace: 10 });
    await setClub({ renewal_reminder_days: [30, 7], grace_period_days: 0, expiry_notice: true });
  });
});

describe("renewal reminders", () => {
  it("go out on each configured day, once each", async () => {
    const clubId = await freshClub();
    await seedMember(env, { membership_end: END }, clubId);
    const days: [string, number][] = [
      [addDays(END, -31), 0],
      [addDays(END, -30), 1],
      [addDays(END, -30), 0],
      [addDays(END, -29), 0],
      [addDays(END, -8), 0],
      [addDays(END, -7), 1],
      [addDays(END, -7), 0],
      [addDays(END, -1), 0],
      [END, 0],
    ];
    const got = [];
    for (const [day] of days) got.push((await run(day, clubId)).by_kind.renewal);
    expect(got).toEqual(days.map(([, n]) => n));
  });

  it("catch a missed day up once, while the end is still ahead", async () => {
    const clubId = await freshClub();
    await seedMember(env, { membership_end: END }, clubId);
    // Nothing ran 30 or 7 days before: one reminder, not two, and none after.
    expect((await run(addDays(END, -5), clubId)).by_kind.renewal).toBe(1);
    expect((await run(addDays(END, -4), clubId)).by_kind.renewal).toBe(0);
    expect((await run(END, clubId)).by_kind.renewal).toBe(0);
    // Ended: no renewal reminder any more.
    const late = await freshClub();
    await seedMember(env, { membership_end: END }, late);
    expect((await run(addDays(END, 1), late)).by_kind.renewal).toBe(0);
  });

  it("start again for the next period once the member renews", async () => {
    const clubId = await freshClub();
    const m = await seedMember(env, { membership_end: END }, clubId);
    expect((await run(addDays(END, -7), clubId)).by_kind.renewal).toBe(1);
    const next = addDays(END, 365);
    await env.db.tx((t) => t.update(members).set({ membership_end: next }).where(eq(members.id, m.id)));
    expect((await run(addDays(next, -30), clubId)).by_kind.renewal).toBe(1);
    expect((await run(addDays(next, -7), clubId)).by_kind.renewal).toBe(1);
  });

  it("skip suspended, pending and subscription members, but not a subscription turned off", async () => {
    const clubId = await freshClub();
    await seedMember(env, { membership_end: END, payment_status: "suspended" }, clubId);
    await seedMember(env, { membership_end: END, payment_status: "pending" }, clubId);
    await seedMember(env, { membership_end: END, payment_mode: "subscription" }, clubId);
    const optedOut = await seedMember(env, { membership_end: END, payment_mode: "subscription", renewal_opt_out_at: "2031-01-01T00:00:00.000Z" }, clubId);
    expect(await run(addDays(END, -7), clubId)).toEqual({ sent: 1, by_kind: { renewal: 1, expiry: 0, event: 0 } });
    const rows = await env.db.read.select().from(remindersSent).where(eq(remindersSent.club_id, clubId));
    expect(new Set(rows.map((r) => r.subject_id))).toEqual(new Set([optedOut.id]));
  });

  it("follow the club's days: none when it has none", async () => {
    const clubId = await freshClub({ renewal_reminder_days: [] });
    await seedMember(env, { membership_end: END }, clubId);
    expect((await run(addDays(END, -7), clubId)).sent).toBe(0);
    await setClub({ renewal_reminder_days: [3] }, clubId);
    expect((await run(addDays(END, -7), clubId)).sent).toBe(0);
    expect((await run(addDays(END, -3), clubId)).sent).toBe(1);
  });
});

describe("expiry notice", () => {
  it("goes out on the first expired day, once", async () => {
    const clubId = await freshClub({ renewal_reminder_days: [] });
    await seedMember(env, { membership_end: END }, clubId);
    await seedMember(env, { membership_end: END, payment_status: "suspended" }, clubId);
    expect((await run(END, clubId)).by_kind.expiry).toBe(0);
    expect((await run(addDays(END, 1), clubId)).by_kind.expiry).toBe(1);
    expect((await run(addDays(END, 1), clubId)).by_kind.expiry).toBe(0);
    expect((await run(addDays(END, 2), clubId)).by_kind.expiry).toBe(0);
  });

  it("waits for the end of the grace period, and is caught up a few days only", async () => {
    const clubId = await freshClub({ renewal_reminder_days: [], grace_period_days: 3 });
    await seedMember(env, { membership_end: END }, clubId);
    for (const d of [1, 2, 3]) expect((await run(addDays(END, d), clubId)).by_kind.expiry).toBe(0);
    expect((await run(addDays(END, 4), clubId)).by_kind.expiry).toBe(1);
    const late = await freshClub({ renewal_reminder_days: [] });
    await seedMember(env, { membership_end: END }, late);
    expect((await run(addDays(END, 30), late)).by_kind.expiry).toBe(0);
  });

  it("is not sent when the club turned it off", async () => {
    const clubId = await freshClub({ renewal_reminder_days: [], expiry_notice: false });
    await seedMember(env, { membership_end: END }, clubId);
    expect((await run(addDays(END, 1), clubId)).sent).toBe(0);
  });
});

describe("event reminders", () => {
  async function eventStarting(startsAt: string, extra: Record<string, unknown> = {}) {
    const res = await env.call("POST", `/api/clubs/${env.clubId}/events`, {
      body: { title: "Assemblée générale", starts_at: startsAt, location_name: "Salle communale", tickets: [{ name: "Entrée" }], ...extra },
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; tickets: { id: string }[] };
  }

  it("go to confirmed registrants the day before the start, once", async () => {
    const ev = await eventStarting("2031-06-20T18:00:00Z");
    const ticketId = ev.tickets[0].id;
    await insertRegistration(env, { eventId: ev.id, ticketId });
    await insertRegistration(env, { eventId: ev.id, ticketId, status: "pending" });
    await insertRegistration(env, { eventId: ev.id, ticketId, status: "cancelled" });
    expect((await run("2031-06-18")).by_kind.event).toBe(0);
    expect((await run("2031-06-19")).by_kind.event).toBe(1);
    expect((await run("2031-06-19")).by_kind.event).toBe(0);
    expect((await run("2031-06-20")).by_kind.event).toBe(0);
  });

  it("are not sent for an event with reminder_enabled false", async () => {
    const ev = await eventStarting("2031-07-20T18:00:00Z");
    await env.call("PATCH", `/api/clubs/${env.clubId}/events/${ev.id}`, { body: { reminder_enabled: false } });
    await insertRegistration(env, { eventId: ev.id, ticketId: ev.tickets[0].id });
    expect((await run("2031-07-19")).by_kind.event).toBe(0);
  });
});

describe("the mails", () => {
  it("go out in the club's language, with its name, colours and the renew link, as text and HTML", async () => {
    const fr = await freshClub({ renewal_reminder_days: [7], name: "Club Alpin", primary_color: "#0B5394" });
    const en = await freshClub({ renewal_reminder_days: [7], name: "Alpine Club", locale: "en", primary_color: "#38761D" });
    const a = await seedMember(env, { membership_end: END, first_name: "Léa", email: "lea@test.org" }, fr);
    const b = await seedMember(env, { membership_end: END, first_name: "Sam", email: "sam@test.org" }, en);
    await run(addDays(END, -7), fr);
    await run(addDays(END, -7), en);
    const mails = await deliver();
    const toLea = mails.find((m) => m.to.includes("lea@test.org"));
    const toSam = mails.find((m) => m.to.includes("sam@test.org"));
    expect(header(toLea?.raw ?? "", "Subject")).toBe("Votre adhésion se termine le 15 mars 2031 — Club Alpin");
    expect(textOf(toLea?.raw ?? "")).toContain("Bonjour Léa,");
    // A new page token for the mail: the row keeps its hash.
    const leaToken = /http:\/\/localhost\/m\/(\w{32})/.exec(textOf(toLea?.raw ?? ""))?.[1] as string;
    expect((await env.db.read.select().from(members).where(eq(members.id, a.id)))[0].manage_token).toBe(sha256Hex(leaToken));
    expect(header(toSam?.raw ?? "", "Subject")).toBe("Your membership ends on March 15, 2031 — Alpine Club");
    expect(textOf(toSam?.raw ?? "")).toContain("in 7 days");
    const html = bodyOf(parts(toSam?.raw ?? "").find((p) => /text\/html/i.test(p.headers)) ?? { headers: "", body: "" });
    expect(html).toContain("#38761D");
    const samToken = /http:\/\/localhost\/m\/(\w{32})/.exec(textOf(toSam?.raw ?? ""))?.[1] as string;
    expect((await env.db.read.select().from(members).where(eq(members.id, b.id)))[0].manage_token).toBe(sha256Hex(samToken));
    expect(html).toContain(`href="http://localhost/m/${samToken}"`);
    expect(html).toContain("Renew my membership");
  });
});

describe("the CLI and the schedule", () => {
  it("`reminders run --date D --json` answers {sent, by_kind}; a second run sends nothing", async () => {
    const clubId = await freshClub({ renewal_reminder_days: [10] });
    await seedMember(env, { membership_end: END }, clubId);
    const cli = async (args: string[]) => {
      const out: string[] = [];
      const code = await main(args, { out: (s) => out.push(s), err: () => {} }, { DATABASE_URL: env.config.databaseUrl, LOG_LEVEL: "silent" });
      return { code, json: JSON.parse(out.join("\n")) };
    };
    const first = await cli(["reminders", "run", "--date", addDays(END, -10), "--club", clubId, "--json"]);
    expect(first).toEqual({ code: 0, json: { sent: 1, by_kind: { renewal: 1, expiry: 0, event: 0 } } });
    const second = await cli(["reminders", "run", "--date", addDays(END, -10), "--club", clubId, "--json"]);
    expect(second.json).toEqual({ sent: 0, by_kind: { renewal: 0, expiry: 0, event: 0 } });
    expect((await cli(["reminders", "run", "--date", "2031-02-30", "--json"])).code).toBe(2);
  });

  it("keeps exactly one run scheduled: the run queues the next one an hour later", async () => {
    await remindersSchedule.ensure(env.db);
    await remindersSchedule.ensure(env.db);
    const pending = () =>
      env.db.read
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, REMINDERS_RUN), eq(jobs.status, "pending")));
    expect((await pending()).length).toBe(1);
    const now = new Date();
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now });
    const [next] = await pending();
    expect((await pending()).length).toBe(1);
    expect(Date.parse(next.run_after) - now.getTime()).toBe(3_600_000);
    const done = await env.db.read
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, REMINDERS_RUN), eq(jobs.status, "done")));
    expect(done.length).toBe(1);
  });

  it("sends many due at once at the mail pace: a slice a run, the next run once it has gone, each reminder once", async () => {
    // 25 renewals due the same day; at 60 mails a minute, a run queues 10 and the next comes 10 s later.
    const end = "2032-07-20";
    const clubId = await freshClub({ renewal_reminder_days: [10] });
    for (let i = 0; i < 25; i++) await seedMember(env, { membership_end: end, email: `paced${i}@example.org` }, clubId);
    const config = { ...env.config, mailRatePerMinute: 60 };
    const sentSoFar = async () => (await env.db.read.select().from(remindersSent).where(eq(remindersSent.club_id, clubId))).length;
    const nextRun = async () => {
      const [pending] = await env.db.read
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, REMINDERS_RUN), eq(jobs.status, "pending")));
      return Date.parse(pending.run_after);
    };
    await remindersSchedule.ensure(env.db);
    let now = new Date(`${addDays(end, -10)}T08:00:00Z`);
    const seen: number[] = [];
    for (let run = 0; run < 3; run++) {
      await runDueJobs(env.db, { kinds: JOB_KINDS, config, now });
      seen.push(await sentSoFar());
      const next = await nextRun();
      expect(next - now.getTime()).toBe(run < 2 ? 10_000 : 3_600_000);
      now = new Date(next);
    }
    expect(seen).toEqual([10, 20, 25]);
    // Every member got exactly one reminder.
    await runDueJobs(env.db, { kinds: JOB_KINDS, config, now });
    const mailed = smtp.inbox.flatMap((m) => m.to).filter((to) => /^paced\d+@example\.org$/.test(to));
    expect(new Set(mailed).size).toBe(25);
    expect(mailed.length).toBe(25);
    expect(await sentSoFar()).toBe(25);
  });
});
