// The red team's money findings (issue 32), against the real server (`bun app/main.ts`) on a
// file database, checked in the database afterwards.
//
// 1. A retried Idempotency-Key after a crash must not pay twice. Every keyed write the red team
//    named (mark-paid, confirm with its payment, a refund, a bank statement import, a member
//    import, a create, and an MCP tool call with its `idempotency_key`) is sent once; the server
//    stops each where its audit row would be written (test/reliability/pause-before-audit.preload.ts:
//    the write has committed, the answer has not left) and is killed with SIGKILL; started again,
//    it gets each request again with the same key. Each is answered as the first (replayed), and
//    the database holds each write once: one payment, one renewal, one `payment.recorded` delivery.
//    Then the member the create made is erased: the create's key, retried, must not bring them back.
// 2. The proof of work cannot be skipped: a challenge fetched from GET /api/public/challenge, sent
//    to a club's HTML form (join, event) without its nonce three seconds later, is refused and
//    nothing is stored; the page's own challenge still passes without script once that old.
// 3. A signed Stripe event in another currency or for another amount than was asked is not
//    applied: a member renewing a 50 CHF membership by card, whose Checkout Stripe reports paid
//    with 1 JPY (test/stripe-fake.ts signs it as Stripe does), keeps their end date; the payment
//    is recorded as one to check, listed for the treasurer and in the member's history.
import { Database } from "bun:sqlite";
import { afterAll, expect, it } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JOB_LEASE_MS } from "../../lib/jobs";
import { creditorReference } from "../../lib/payments/reference";
import { fakeStripe } from "../stripe-fake";
import { type ServerProcess, startServer } from "./server-process";

const dir = mkdtempSync(join(tmpdir(), "club-red-team-money-"));
const dbPath = join(dir, "club.db");
const pauseDir = join(dir, "paused");
mkdirSync(pauseDir);
const PRELOAD = join(import.meta.dir, "pause-before-audit.preload.ts");
/** Stripe's stand-in, in this process: the server opens Checkouts there, the test plays the payer and signs the events. */
const stripe = await fakeStripe();
const ENV = {
  ...stripe.env,
  RATE_LIMIT_PER_MINUTE: "1000000",
  OUTBOX_DIR: join(dir, "outbox"),
  WEBHOOK_ALLOW_PRIVATE: "true",
  PAUSE_DIR: pauseDir,
  LOG_LEVEL: "warn",
};
let server: ServerProcess | null = null;
/** The first start's key and club (only that start prints them). */
let owner: { key: string; clubId: string } | null = null;
/** The server, started with the preload (the tests of this file share it, whichever runs first). */
async function running(): Promise<ServerProcess> {
  server ??= await startServer(dbPath, ENV, { preload: PRELOAD });
  owner ??= { key: server.key as string, clubId: server.clubId as string };
  return server;
}
afterAll(async () => {
  await server?.kill9();
  stripe.stop();
  rmSync(dir, { recursive: true, force: true });
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const addMonths = (iso: string, months: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

function query<T>(sql: string, ...params: string[]): T[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.query(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const count = (sql: string, ...params: string[]) => (query<{ n: number }>(sql, ...params)[0] as { n: number }).n;
/** Waits (5 s at most) until the server's worker has fanned out every webhook event to its deliveries. */
/**
 * Until every event is fanned out. One the killed server's worker had claimed stays `running`
 * until its lease lapses (JOB_LEASE_MS), then the new server's worker takes it: counting only
 * `pending` ones read that as done (a CI run under load found no delivery yet).
 */
async function waitForFanOut(): Promise<void> {
  await until(
    "every event fanned out",
    () => count("SELECT count(*) AS n FROM jobs WHERE kind = 'webhook_fanout' AND status IN ('pending', 'running')") === 0,
    JOB_LEASE_MS + 30_000,
  );
}

/** A write as sent; `key`: its Idempotency-Key (the MCP call carries its own, as an argument). */
type Sent = { method: string; path: string; body: string; type?: string; key?: string };

function send(s: Sent, apiKey: string, requestId?: string) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${apiKey}`,
    "content-type": s.type ?? "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2025-06-18",
  };
  if (s.key) headers["idempotency-key"] = s.key;
  if (requestId) headers["x-request-id"] = requestId;
  return fetch(`${(server as ServerProcess).base}${s.path}`, { method: s.method, headers, body: s.body });
}

async function until(what: string, done: () => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

it("a keyed write killed between its commit and its answer, then retried with its key: done once, answered as the first", async () => {
  server = await running();
  const { key: apiKey, clubId } = owner as { key: string; clubId: string };
  const api = `/api/clubs/${clubId}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${(server as ServerProcess).base}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text);
  };

  // Arranged through the API: a tier, a webhook endpoint for payments, members, an event whose two
  // registrations are one pending (to confirm) and one confirmed and paid (to refund).
  const tier = await call("POST", `${api}/tiers`, { name: "Adult", price_cents: 5000, currency: "CHF", duration_months: 12 });
  await call("POST", `${api}/webhooks`, { url: "http://127.0.0.1:9/hook", events: ["payment.recorded"] });
  const member = (name: string) =>
    call("POST", `${api}/members/manual`, {
      first_name: name,
      last_name: "Money",
      email: `${name.toLowerCase()}@example.org`,
      membership_end: day(30),
      tier_id: tier.id,
    });
  const payer = await member("Paula");
  const viaMcp = await member("Marc");
  const viaBank = await member("Bruno");
  const event = await call("POST", `${api}/events`, {
    title: "Dinner",
    starts_at: `${day(20)}T18:00:00Z`,
    tickets: [{ name: "Seat", member_price_cents: 3000, non_member_price_cents: 3000 }],
  });
  const register = (first: string) =>
    call("POST", `${api}/events/${event.id}/registrations`, {
      ticket_id: event.tickets[0].id,
      first_name: first,
      last_name: "Guest",
      email: `${first}@example.org`,
    });
  const pending = await register("pia");
  const refunded = await register("rolf");
  const registrationPath = (id: string) => `${api}/events/${event.id}/registrations/${id}`;
  await call("POST", `${registrationPath(refunded.id)}/actions/confirm`, { amount_cents: 3000 });

  const writes: Record<string, Sent> = {
    markPaid: { method: "POST", path: `${api}/members/${payer.id}/actions/mark-paid`, body: JSON.stringify({ amount_cents: 5000 }), key: "pay-paula" },
    confirm: { method: "POST", path: `${registrationPath(pending.id)}/actions/confirm`, body: JSON.stringify({ amount_cents: 3000 }), key: "confirm-pia" },
    refund: { method: "POST", path: `${registrationPath(refunded.id)}/actions/cancel`, body: JSON.stringify({ refund_cents: 3000 }), key: "refund-rolf" },
    bankImport: {
      method: "POST",
      path: `${api}/payments/import`,
      type: "text/csv",
      body: `date,amount,currency,reference\n${day(0)},50.00,CHF,${creditorReference(viaBank.referral_code)}\n`,
      key: "statement-1",
    },
    memberImport: {
      method: "POST",
      path: `${api}/members/import`,
      type: "text/csv",
      body: `first name,last name,email,membership_end\nIda,Import,ida@example.org,${day(200)}\nIvo,Import,ivo@example.org,${day(200)}\n`,
      key: "import-1",
    },
    create: {
      method: "POST",
      path: `${api}/members/manual`,
      body: JSON.stringify({ first_name: "Cora", last_name: "Create", email: "cora@example.org", membership_end: day(100) }),
      key: "create-cora",
    },
    mcp: {
      method: "POST",
      path: "/mcp",
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "mark_member_paid", arguments: { member_id: viaMcp.id, amount_cents: 5000, idempotency_key: "mcp-pay-marc" } },
      }),
    },
  };

  // Each sent once; the server stops each where its audit row would be written, then dies.
  const first = Object.entries(writes).map(([name, s]) => send(s, apiKey, `pause-${name}`).catch(() => null));
  await until("every write to reach its answer", () => Object.keys(writes).every((name) => existsSync(join(pauseDir, `pause-${name}`))));
  await server.kill9();
  expect((await Promise.all(first)).every((res) => res === null)).toBe(true);

  server = await startServer(dbPath, ENV, { preload: PRELOAD });
  // biome-ignore lint/suspicious/noExplicitAny: answers of seven routes, read as JSON from the wire.
  const answers: Record<string, { status: number; replayed: string | null; body: any }> = {};
  for (const [name, s] of Object.entries(writes)) {
    const res = await send(s, apiKey);
    answers[name] = { status: res.status, replayed: res.headers.get("idempotent-replayed"), body: await res.json() };
  }
  // The MCP call's replay is marked in the tool's result.
  const statuses = Object.fromEntries(
    Object.entries(answers).map(([name, a]) => [name, [a.status, name === "mcp" ? a.body.result?._meta?.idempotent_replayed : a.replayed]]),
  );
  expect(statuses).toEqual({
    markPaid: [200, "true"],
    confirm: [200, "true"],
    refund: [200, "true"],
    bankImport: [200, "true"],
    memberImport: [200, "true"],
    create: [201, "true"],
    mcp: [200, true],
  });

  // Once each, in the database.
  const paymentsOf = (column: string, id: string) => query<{ amount_cents: number }>(`SELECT amount_cents FROM payments WHERE ${column} = ?`, id);
  const endOf = (id: string) => query<{ membership_end: string }>("SELECT membership_end FROM members WHERE id = ?", id)[0]?.membership_end;
  // The server's worker fans each event out to its deliveries just after its change: waited for.
  await waitForFanOut();
  const deliveriesFor = (memberId: string) =>
    count("SELECT count(*) AS n FROM webhook_deliveries WHERE type = 'payment.recorded' AND payload LIKE ?", `%${memberId}%`);
  for (const m of [payer, viaMcp, viaBank]) {
    expect([m.first_name, paymentsOf("member_id", m.id)]).toEqual([m.first_name, [{ amount_cents: 5000 }]]);
    expect([m.first_name, endOf(m.id)]).toEqual([m.first_name, addMonths(m.membership_end, 12)]);
    expect([m.first_name, deliveriesFor(m.id)]).toEqual([m.first_name, 1]);
    expect(count("SELECT count(*) AS n FROM member_history WHERE member_id = ? AND action = 'mark_paid'", m.id)).toBe(1);
  }
  expect(answers.markPaid.body.membership_end).toBe(addMonths(payer.membership_end, 12));
  expect(paymentsOf("registration_id", pending.id)).toEqual([{ amount_cents: 3000 }]);
  expect(paymentsOf("registration_id", refunded.id)).toEqual([{ amount_cents: 3000 }, { amount_cents: -3000 }]);
  expect(answers.bankImport.body.matched).toHaveLength(1);
  expect(answers.memberImport.body).toMatchObject({ created: 2, written: true });
  for (const email of ["ida@example.org", "ivo@example.org", "cora@example.org"])
    expect([email, count("SELECT count(*) AS n FROM members WHERE email = ?", email)]).toEqual([email, 1]);

  // 2. The member the create made is erased; the create's key, retried, brings nobody back, and
  //    its answer names nobody.
  const cora = answers.create.body;
  const erased = await fetch(`${server.base}${api}/members/${cora.id}`, { method: "DELETE", headers: { authorization: `Bearer ${apiKey}` } });
  expect(erased.status).toBe(204);
  const retried = await send(writes.create, apiKey);
  const text = await retried.text();
  expect([retried.status, JSON.parse(text).code]).toEqual([409, "IDEMPOTENCY_ANSWER_ERASED"]);
  expect(text).not.toContain("cora");
  expect(text).not.toContain("Cora");
  expect(count("SELECT count(*) AS n FROM members WHERE email = 'cora@example.org'")).toBe(0);
  const kept = query<{ body: Uint8Array | null }>("SELECT body FROM idempotency_keys WHERE key = 'create-cora'");
  expect(kept).toHaveLength(1);
  expect(new TextDecoder().decode(kept[0].body ?? new Uint8Array())).not.toContain("cora");
}, 120_000);

it("a challenge from the API, sent to a club's HTML form without its work three seconds on, is refused; the page's own passes", async () => {
  const srv = await running();
  const { key, clubId } = owner as { key: string; clubId: string };
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const api = `${srv.base}/api/clubs/${clubId}`;
  const json = async (res: Promise<Response>) => (await res).json();
  const club = await json(fetch(api, { headers }));
  const tier = await json(fetch(`${api}/tiers`, { method: "POST", headers, body: JSON.stringify({ name: "Free", price_cents: 0 }) }));
  const event = await json(
    fetch(`${api}/events`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        title: "Open day",
        starts_at: `${day(30)}T10:00:00Z`,
        tickets: [{ name: "Entry", member_price_cents: 0, non_member_price_cents: 0 }],
      }),
    }),
  );
  const fromApi = async () => ((await json(fetch(`${srv.base}/api/public/challenge`))) as { challenge: string; bits: number }).challenge;
  const pageChallenge = async (path: string) => {
    const html = await (await fetch(`${srv.base}${path}`)).text();
    return (/name="challenge" value="([^"]+)"/.exec(html) as RegExpExecArray)[1];
  };
  const joinPath = `/join/${club.slug}`;
  const eventPath = new URL(event.public_url).pathname;
  const forms = {
    joinWithApiChallenge: { path: joinPath, challenge: await fromApi(), fields: { tier_id: tier.id, email: "bot.join@example.org" } },
    eventWithApiChallenge: { path: eventPath, challenge: await fromApi(), fields: { ticket_id: event.tickets[0].id, email: "bot.event@example.org" } },
    joinWithPageChallenge: { path: joinPath, challenge: await pageChallenge(joinPath), fields: { tier_id: tier.id, email: "person.join@example.org" } },
    eventWithPageChallenge: {
      path: eventPath,
      challenge: await pageChallenge(eventPath),
      fields: { ticket_id: event.tickets[0].id, email: "person.event@example.org" },
    },
  };
  // What a bot that skips the work does: it waits out the no-script delay, then sends no nonce.
  await Bun.sleep(3_200);
  const statuses: Record<string, number> = {};
  for (const [name, form] of Object.entries(forms)) {
    const body = new URLSearchParams({ first_name: "Otto", last_name: "Matic", nonce: "", website: "", challenge: form.challenge, ...form.fields });
    const res = await fetch(`${srv.base}${form.path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      redirect: "manual",
    });
    statuses[name] = res.status;
  }
  expect(statuses).toEqual({ joinWithApiChallenge: 403, eventWithApiChallenge: 403, joinWithPageChallenge: 201, eventWithPageChallenge: 201 });
  const stored = (email: string) =>
    count("SELECT count(*) AS n FROM members WHERE email = ?", email) + count("SELECT count(*) AS n FROM event_registrations WHERE email = ?", email);
  expect(["bot.join", "bot.event", "person.join", "person.event"].map((who) => [who, stored(`${who}@example.org`)])).toEqual([
    ["bot.join", 0],
    ["bot.event", 0],
    ["person.join", 1],
    ["person.event", 1],
  ]);
}, 60_000);

it("a renewal's Checkout reported paid with 1 JPY for a 50 CHF membership: nothing renewed, the payment recorded to check", async () => {
  const srv = await running();
  const { key, clubId } = owner as { key: string; clubId: string };
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const api = `${srv.base}/api/clubs/${clubId}`;
  const json = async (res: Promise<Response>) => {
    const answer = await res;
    if (answer.status >= 300) throw new Error(`${answer.url} answered ${answer.status}: ${await answer.text()}`);
    return answer.json();
  };
  await json(
    fetch(api, {
      method: "PUT",
      headers,
      body: JSON.stringify({ payout_iban: "CH9300762011623852957", payment_methods_enabled: ["stripe", "bank_transfer"] }),
    }),
  );
  const tier = await json(
    fetch(`${api}/tiers`, { method: "POST", headers, body: JSON.stringify({ name: "Yearly", price_cents: 5000, currency: "CHF", duration_months: 12 }) }),
  );
  const member = await json(
    fetch(`${api}/members/manual`, {
      method: "POST",
      headers,
      body: JSON.stringify({ first_name: "Yuki", last_name: "Yen", email: "yuki@example.org", membership_end: day(10), tier_id: tier.id }),
    }),
  );
  const renewal = await json(
    fetch(`${srv.base}/api/public/manage/${member.manage_token}/renew`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ payment_method: "stripe", subscription: false }),
    }),
  );
  // Stripe reports the Checkout paid, but with 1 JPY.
  const session = stripe.sessionOf(renewal.checkout_url);
  expect([session.amount_total, session.currency]).toEqual([5000, "chf"]);
  Object.assign(session, { amount_total: 1, currency: "jpy" });
  const event = stripe.pay(session.id);
  const payload = JSON.stringify(event);
  const hook = await fetch(`${srv.base}/api/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": await stripe.sign(payload) },
    body: payload,
  });
  expect(hook.status).toBe(200);

  expect(query<{ membership_end: string }>("SELECT membership_end FROM members WHERE id = ?", member.id)).toEqual([{ membership_end: day(10) }]);
  expect(count("SELECT count(*) AS n FROM payments WHERE member_id = ?", member.id)).toBe(0);
  await waitForFanOut();
  expect(count("SELECT count(*) AS n FROM webhook_deliveries WHERE type = 'payment.recorded' AND payload LIKE ?", `%${member.id}%`)).toBe(0);
  expect(query<{ outcome: string }>("SELECT outcome FROM stripe_events WHERE id = ?", event.id)).toEqual([{ outcome: "flagged: paid 1 JPY, asked 5000 CHF" }]);
  const flagged = await json(fetch(`${api}/payments/flagged`, { headers }));
  expect(flagged.items.find((f: { provider_event_id: string }) => f.provider_event_id === event.id)).toMatchObject({
    purpose: "membership",
    member_id: member.id,
    amount_cents: 1,
    currency: "JPY",
    expected_amount_cents: 5000,
    expected_currency: "CHF",
  });
  const history = await json(fetch(`${api}/members/${member.id}/history`, { headers }));
  expect(JSON.stringify(history)).toContain("payment_flagged");
}, 60_000);
