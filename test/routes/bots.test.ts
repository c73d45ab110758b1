// Bots must not fill an event (issue 18, item 2): one registration per mailbox by default
// (`max_per_email`), unpaid places released after the club's hold (a job, run here with its
// clock frozen), and the public form's proof of work and honeypot. Ends with the issue's bot: 100
// registrations from one address pair with distinct emails, no challenge solved, fill nothing.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { eventRegistrations, formChallengesUsed, jobs } from "../../db/schema";
import { issueChallenge, leadingZeroBits, solveChallenge } from "../../lib/forms";
import { runDueJobs } from "../../lib/jobs";
import { REGISTRATION_JOBS } from "../../lib/registrations/expiry";
import { createEventVia, registrationRow } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";

let ip = 0;
/** A public registration from an address of its own (the public routes are rate-limited per address). */
async function register(env: TestEnv, eventId: string, body: Record<string, unknown>, address = `10.7.${(++ip >> 8) & 255}.${ip & 255}`) {
  const res = await env.app.handle(
    new Request(`http://localhost/api/public/events/${eventId}/registrations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ first_name: "Ana", last_name: "Silva", ...body }),
    }),
    address,
  );
  return { status: res.status, body: (await res.json()) as any };
}
const regsOf = (env: TestEnv, eventId: string) => env.db.read.select().from(eventRegistrations).where(eq(eventRegistrations.event_id, eventId));

describe("max_per_email", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(() => env.close());

  it("a second registration by the same mailbox is a 409 EMAIL_ALREADY_REGISTERED in the club's language, whatever its spelling; nothing stored", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
    const ticket_id = e.tickets[0].id;
    expect(e.max_per_email).toBe(1);
    expect((await register(env, e.id, { ticket_id, email: "Ana.Silva@example.org" })).status).toBe(201);
    for (const email of ["ana.silva@example.org", "ANA.SILVA@EXAMPLE.ORG", "ana.silva+again@example.org"]) {
      const again = await register(env, e.id, { ticket_id, email });
      expect({ email, status: again.status, code: again.body.code }).toEqual({ email, status: 409, code: "EMAIL_ALREADY_REGISTERED" });
      expect(again.body.detail).toContain("adresse e-mail");
    }
    // Gmail ignores dots: j.doe and jdoe are one inbox there, two elsewhere.
    expect((await register(env, e.id, { ticket_id, email: "jdoe@gmail.com" })).status).toBe(201);
    expect((await register(env, e.id, { ticket_id, email: "J.Doe+x@googlemail.com" })).body.code).toBe("EMAIL_ALREADY_REGISTERED");
    expect((await register(env, e.id, { ticket_id, email: "j.doe@example.org" })).status).toBe(201);
    expect((await register(env, e.id, { ticket_id, email: "jdoe@example.org" })).status).toBe(201);
    expect(await regsOf(env, e.id)).toHaveLength(4);
  });

  it("max_per_email 3 takes three registrations of one mailbox and refuses the fourth; a cancelled one frees its turn", async () => {
    const e = await createEventVia(env, { max_per_email: 3, tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
    const ticket_id = e.tickets[0].id;
    const ids: string[] = [];
    for (const first_name of ["Ana", "Bea", "Carl"]) {
      const res = await register(env, e.id, { ticket_id, first_name, email: "family@example.org" });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    expect((await register(env, e.id, { ticket_id, first_name: "Dan", email: "family@example.org" })).body.code).toBe("EMAIL_ALREADY_REGISTERED");
    const cancel = await env.call("POST", `/api/clubs/${env.clubId}/events/${e.id}/registrations/${ids[0]}/actions/cancel`, { body: {} });
    expect(cancel.status).toBe(200);
    expect((await register(env, e.id, { ticket_id, first_name: "Dan", email: "family@example.org" })).status).toBe(201);
  });

  it("max_per_email is 1..100 on create and update, and shown in the detail", async () => {
    const base = { title: "X", starts_at: "2031-01-01T10:00:00Z" };
    for (const bad of [0, 101, 1.5])
      expect((await env.call("POST", `/api/clubs/${env.clubId}/events`, { body: { ...base, max_per_email: bad } })).status).toBe(422);
    const e = await createEventVia(env, { max_per_email: 100 });
    expect(e.max_per_email).toBe(100);
    const patched = await env.call("PATCH", `/api/clubs/${env.clubId}/events/${e.id}`, { body: { max_per_email: 2 } });
    expect(patched.body.max_per_email).toBe(2);
    expect((await env.call("GET", `/api/clubs/${env.clubId}/events/${e.id}`)).body.max_per_email).toBe(2);
    expect((await env.call("PATCH", `/api/clubs/${env.clubId}/events/${e.id}`, { body: { max_per_email: 0 } })).status).toBe(422);
  });

  it("20 registrations of one mailbox at once: exactly max_per_email pass", async () => {
    const e = await createEventVia(env, { max_per_email: 2, tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => register(env, e.id, { ticket_id: e.tickets[0].id, email: i % 2 ? "race@example.org" : "RACE+x@example.org" })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(2);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === "EMAIL_ALREADY_REGISTERED")).toBe(true);
    expect(await regsOf(env, e.id)).toHaveLength(2);
  });

  it("an admin's add is not limited, but counts against the public route", async () => {
    const e = await createEventVia(env, { tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
    const add = () =>
      env.call("POST", `/api/clubs/${env.clubId}/events/${e.id}/registrations`, {
        body: { ticket_id: e.tickets[0].id, first_name: "Eva", last_name: "Roy", email: "eva@example.org" },
      });
    expect((await add()).status).toBe(201);
    expect((await add()).status).toBe(201);
    expect((await register(env, e.id, { ticket_id: e.tickets[0].id, email: "Eva@example.org" })).body.code).toBe("EMAIL_ALREADY_REGISTERED");
  });
});

describe("unpaid registrations do not hold places for ever", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await setup();
  });
  afterAll(() => env.close());
  const HOUR = 3_600_000;
  const expiries = (env: TestEnv, id: string) =>
    env.db.read
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, "registration.expire"), eq(jobs.status, "pending")))
      .then((rows) => rows.filter((j) => j.payload.registration_id === id));
  const mailsTo = async (env: TestEnv, to: string) =>
    (await env.db.read.select().from(jobs).where(eq(jobs.kind, "mail"))).filter((j) => (j.payload as { message: { to: string } }).message.to === to);

  it("pending_hold_hours is a finances:edit club setting, 48 by default, 1..720", async () => {
    const club = `/api/clubs/${env.clubId}`;
    expect((await env.call("GET", "/api/auth/me")).body.club.pending_hold_hours).toBe(48);
    const pageOnly = await env.makeKey({ page: "edit" });
    expect((await env.call("PUT", club, { key: pageOnly, body: { pending_hold_hours: 12 } })).status).toBe(403);
    for (const bad of [0, 721]) expect((await env.call("PUT", club, { body: { pending_hold_hours: bad } })).status).toBe(422);
    const ok = await env.call("PUT", club, { body: { pending_hold_hours: 24 } });
    expect(ok.body.pending_hold_hours).toBe(24);
  });

  it("with the job clock frozen: still held an hour before; past the hold cancelled, the registrant mailed, the waiting list moved up (and its own hold starts then)", async () => {
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { pending_hold_hours: 24 } });
    const e = await createEventVia(env, { capacity: 1, waitlist_enabled: true, tickets: [{ name: "Guest", non_member_price_cents: 1500 }] });
    const ticket_id = e.tickets[0].id;
    const ana = await register(env, e.id, { ticket_id, email: "ana@example.org" });
    expect(ana.body.status).toBe("pending");
    const created = Date.parse(ana.body.created_at);
    expect(Date.parse(ana.body.hold_expires_at) - created).toBe(24 * HOUR);
    const bea = await register(env, e.id, { ticket_id, first_name: "Bea", email: "bea@example.org" });
    expect(bea.body).toMatchObject({ status: "waitlisted", hold_expires_at: null });
    expect(await expiries(env, ana.body.id)).toHaveLength(1);

    const run = (at: number) => runDueJobs(env.db, { kinds: REGISTRATION_JOBS, config: env.config, now: new Date(at) });
    await run(created + 23 * HOUR);
    expect((await registrationRow(env, ana.body.id)).status).toBe("pending");

    const at = created + 24 * HOUR + 60_000;
    expect(await run(at)).toBe(1);
    expect(await registrationRow(env, ana.body.id)).toMatchObject({ status: "cancelled", cancel_reason: "hold_expired" });
    const promoted = await registrationRow(env, bea.body.id);
    expect(promoted).toMatchObject({ status: "pending", hold_expires_at: new Date(at + 24 * HOUR).toISOString() });
    expect(await mailsTo(env, "ana@example.org")).toHaveLength(1);
    expect((await mailsTo(env, "ana@example.org"))[0].payload.message).toMatchObject({ subject: expect.stringContaining("faute de paiement") });
    expect(await mailsTo(env, "bea@example.org")).toHaveLength(1);
    const beaExpiry = await expiries(env, bea.body.id);
    expect(beaExpiry.map((j) => j.run_after)).toEqual([new Date(at + 24 * HOUR).toISOString()]);
    const detail = await env.call("GET", `/api/clubs/${env.clubId}/events/${e.id}`);
    expect(detail.body).toMatchObject({ registered_count: 1, waitlisted_count: 0 });
  });

  it("paid in time: the job finds it confirmed and does nothing; a free registration holds nothing", async () => {
    const e = await createEventVia(env, {
      capacity: 5,
      tickets: [
        { name: "Guest", non_member_price_cents: 1500 },
        { name: "Free", non_member_price_cents: 0 },
      ],
    });
    const reg = await register(env, e.id, { ticket_id: e.tickets[0].id, email: "paid@example.org" });
    const confirm = await env.call("POST", `/api/clubs/${env.clubId}/events/${e.id}/registrations/${reg.body.id}/actions/confirm`, { body: {} });
    expect(confirm.status).toBe(200);
    await runDueJobs(env.db, { kinds: REGISTRATION_JOBS, config: env.config, now: new Date(Date.now() + 1000 * HOUR) });
    expect((await registrationRow(env, reg.body.id)).status).toBe("confirmed");
    // The payment's receipt, and no cancellation.
    const subjects = (await mailsTo(env, "paid@example.org")).map((j) => (j.payload as { message: { subject: string } }).message.subject);
    expect(subjects).toEqual([expect.stringContaining("Reçu")]);
    const free = await register(env, e.id, { ticket_id: e.tickets[1].id, email: "free@example.org" });
    expect(free.body).toMatchObject({ status: "confirmed", hold_expires_at: null });
    expect(await expiries(env, free.body.id)).toHaveLength(0);
  });
});

describe("the public form's proof of work and honeypot", () => {
  let env: TestEnv;
  let eventId: string;
  let ticket_id: string;
  let n = 0;
  beforeAll(async () => {
    env = await setup({ PUBLIC_FORM_POW_BITS: "8" });
    const e = await createEventVia(env, { tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
    eventId = e.id;
    ticket_id = e.tickets[0].id;
  });
  afterAll(() => env.close());
  const challenge = async () => (await env.call("GET", "/api/public/challenge", { key: null })).body;
  const person = () => ({ ticket_id, email: `p${++n}@example.org` });
  const solved = async () => {
    const c = await challenge();
    return { challenge: c.challenge, nonce: solveChallenge(c.challenge, c.bits) };
  };

  it("GET /api/public/challenge: a signed challenge asking the server's bits, valid ten minutes", async () => {
    const c = await challenge();
    expect(c).toMatchObject({ bits: 8, algorithm: "sha256" });
    expect(Date.parse(c.expires_at) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(c.challenge).not.toBe((await challenge()).challenge);
  });

  it("missing, unsolved or altered: 403 with its code, and nothing stored", async () => {
    const c = await challenge();
    let wrong = 0;
    const digest = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest();
    while (digest(c.challenge + wrong)[0] === 0) wrong++;
    const cases: [Record<string, unknown>, string][] = [
      [{}, "CHALLENGE_REQUIRED"],
      [{ challenge: c.challenge }, "CHALLENGE_REQUIRED"],
      [{ challenge: c.challenge, nonce: String(wrong) }, "CHALLENGE_INVALID"],
      [{ challenge: c.challenge.replace(".8.", ".0."), nonce: "0" }, "CHALLENGE_INVALID"],
      [{ challenge: `${c.challenge.slice(0, -2)}AA`, nonce: solveChallenge(c.challenge, 8) }, "CHALLENGE_INVALID"],
      [{ challenge: "garbage", nonce: "1" }, "CHALLENGE_INVALID"],
    ];
    for (const [proof, code] of cases) {
      const res = await register(env, eventId, { ...person(), ...proof });
      expect({ proof, status: res.status, code: res.body.code }).toEqual({ proof, status: 403, code });
    }
    expect(await regsOf(env, eventId)).toHaveLength(0);
  });

  it("a challenge asking less than the server wants, or expired, is refused", async () => {
    const easy = await issueChallenge(env.db, 4);
    expect((await register(env, eventId, { ...person(), challenge: easy.challenge, nonce: solveChallenge(easy.challenge, 4) })).body.code).toBe(
      "CHALLENGE_INVALID",
    );
    const old = await issueChallenge(env.db, 8, new Date(Date.now() - 11 * 60_000));
    const res = await register(env, eventId, { ...person(), challenge: old.challenge, nonce: solveChallenge(old.challenge, 8) });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: "CHALLENGE_EXPIRED" });
  });

  it("a solved challenge is accepted once; a registration refused for another reason does not use it up", async () => {
    const proof = await solved();
    const full = await createEventVia(env, { capacity: 0, tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
    expect((await register(env, full.id, { ticket_id: full.tickets[0].id, email: "x@example.org", ...proof })).body.code).toBe("EVENT_FULL");
    expect(await env.db.read.select().from(formChallengesUsed)).toHaveLength(0);
    expect((await register(env, eventId, { ...person(), ...proof })).status).toBe(201);
    const again = await register(env, eventId, { ...person(), ...proof });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 403, code: "CHALLENGE_USED" });
  });

  it("the README's browser solver (WebCrypto) finds nonces the server accepts, at the default 16 bits too", async () => {
    const readme = readFileSync(join(import.meta.dir, "..", "..", "README.md"), "utf8");
    const source = /```js\n(\/\/ Finds the nonce[\s\S]*?)```/.exec(readme)?.[1];
    expect(source).toBeDefined();
    const solve = new Function(`${source}; return solveChallenge;`)() as (c: { challenge: string; bits: number }) => Promise<string>;
    const c = await challenge();
    expect((await register(env, eventId, { ...person(), challenge: c.challenge, nonce: await solve(c) })).status).toBe(201);
    const strict = await setup({ PUBLIC_FORM_POW_BITS: "16" });
    try {
      const e = await createEventVia(strict, { tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
      const c16 = (await strict.call("GET", "/api/public/challenge", { key: null })).body;
      expect(c16.bits).toBe(16);
      const res = await register(strict, e.id, { ticket_id: e.tickets[0].id, email: "strict@example.org", challenge: c16.challenge, nonce: await solve(c16) });
      expect(res.status).toBe(201);
    } finally {
      await strict.close();
    }
  });

  it("the honeypot: a filled `website` is a 403 HONEYPOT_FILLED, even with the challenge off; empty is fine", async () => {
    expect((await register(env, eventId, { ...person(), ...(await solved()), website: "http://spam.example" })).body.code).toBe("HONEYPOT_FILLED");
    expect((await register(env, eventId, { ...person(), ...(await solved()), website: "" })).status).toBe(201);
    const off = await setup();
    try {
      const e = await createEventVia(off, { tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
      expect((await off.call("GET", "/api/public/challenge", { key: null })).body.bits).toBe(0);
      expect((await register(off, e.id, { ticket_id: e.tickets[0].id, email: "a@example.org", website: "x" })).body.code).toBe("HONEYPOT_FILLED");
      expect((await register(off, e.id, { ticket_id: e.tickets[0].id, email: "a@example.org" })).status).toBe(201);
    } finally {
      await off.close();
    }
  });
});

describe("the issue's bot", () => {
  it("100 registrations from one address pair with distinct emails, no challenge solved, against a free 100-place event: nothing filled", async () => {
    const env = await setup({ PUBLIC_FORM_POW_BITS: String((await import("../../lib/config")).FORM_PROOF_BITS) });
    try {
      const e = await createEventVia(env, { capacity: 100, tickets: [{ name: "Libre", non_member_price_cents: 0 }] });
      const pair = ["203.0.113.7", "2001:db8::7"];
      const stale = await env.call("GET", "/api/public/challenge", { key: null });
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) {
        // What a script does without the work: no proof, or a challenge with a guessed nonce.
        // (A guess that happens to solve it is skipped: the run must not depend on luck.)
        let guess = i;
        while (leadingZeroBits(new Bun.CryptoHasher("sha256").update(stale.body.challenge + guess).digest()) >= stale.body.bits) guess += 1000;
        const proof = i % 2 ? {} : { challenge: stale.body.challenge, nonce: String(guess) };
        statuses.push((await register(env, e.id, { ticket_id: e.tickets[0].id, email: `bot${i}@example.org`, ...proof }, pair[i % 2])).status);
      }
      // The challenge refuses the first 20 of each address (403); the rate of 20 a minute per address holds back the rest (429).
      expect(statuses.slice(0, 40).every((s) => s === 403)).toBe(true);
      expect(statuses.slice(40).every((s) => s === 429)).toBe(true);
      expect(await regsOf(env, e.id)).toHaveLength(0);
      const detail = await env.call("GET", `/api/clubs/${env.clubId}/events/${e.id}`);
      expect(detail.body.registered_count).toBe(0);
    } finally {
      await env.close();
    }
  });
});
