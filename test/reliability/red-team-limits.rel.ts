// The red team's limits (issue 32), each reproduced as the red team did it, through the real app:
// one club's hanging webhook endpoints no longer delay another club's deliveries; OAuth client
// registrations are bounded (sizes, a cap, a purge of clients never used); a stranger cannot lock
// the owner out of the sign-in; /c/<serial> is rate-limited like /m/; the member's page token is
// not kept in clear; the OAuth leftovers (a narrower refresh scope, user-info in a redirect URI,
// repeated authorize parameters, redirect_uri at the token endpoint) are refused or honoured.
import { afterAll, beforeAll, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { openDb } from "../../db";
import { members, oauthClients, webhookDeliveries } from "../../db/schema";
import { initClub } from "../../lib/auth/init";
import { sha256Hex } from "../../lib/ids";
import { runDueJobs, startJobWorker } from "../../lib/jobs";
import { newMemberRow } from "../../lib/members";
import { REGISTRATIONS_PER_ADDRESS_PER_HOUR, registerClient } from "../../lib/oauth/clients";
import { JOB_KINDS, RECURRING } from "../../server/jobs";
import { dropDatabase, freshDatabaseUrl } from "../databases";
import { setup, type TestEnv } from "../helpers";
import { adminBrowser, challengeOf, formPost } from "../mcp/oauth-flow";
import { startServer } from "./server-process";

let env: TestEnv;
beforeAll(async () => {
  env = await setup({ WEBHOOK_ALLOW_PRIVATE: "true", RATE_LIMIT_PER_MINUTE: "100000000" });
});
afterAll(() => env.close());

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await Bun.sleep(20);
  }
  return check();
}

it("one club's twelve hanging webhook endpoints do not delay another club's delivery (JOB_CONCURRENCY 8)", async () => {
  expect(env.config.jobConcurrency).toBe(8);
  // Club A's receiver takes each request and never answers (until the test lets go); club B's answers at once.
  const hanging: (() => void)[] = [];
  const arrivedB: number[] = [];
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 60,
    fetch(req) {
      if (new URL(req.url).pathname.startsWith("/b")) {
        arrivedB.push(Date.now());
        return new Response("ok");
      }
      return new Promise<Response>((resolve) => hanging.push(() => resolve(new Response("late"))));
    },
  });
  const base = `http://127.0.0.1:${receiver.port}`;
  const clubB = await env.otherClub();
  const hook = async (clubId: string, key: string, path: string) =>
    expect((await env.call("POST", `/api/clubs/${clubId}/webhooks`, { key, body: { url: `${base}${path}`, events: ["member.created"] } })).status).toBe(201);
  for (let i = 0; i < 12; i++) await hook(env.clubId, env.key, `/a${i}`);
  await hook(clubB.club_id, clubB.api_key, "/b");
  const addMember = (clubId: string, key: string, email: string) =>
    env.call("POST", `/api/clubs/${clubId}/members/manual`, { key, body: { first_name: "Ana", last_name: "Hook", email, membership_end: "2030-12-31" } });

  const worker = startJobWorker(env.db, env.config, JOB_KINDS, 200);
  try {
    expect((await addMember(env.clubId, env.key, "a@test.org")).status).toBe(201);
    // Club A's deliveries are out and hanging: the slots they may hold are taken.
    expect(await waitFor(() => hanging.length >= 2, 5_000)).toBe(true);
    await Bun.sleep(300);
    const sent = Date.now();
    expect((await addMember(clubB.club_id, clubB.api_key, "b@test.org")).status).toBe(201);
    await waitFor(() => arrivedB.length > 0, 5_000);
    expect(arrivedB).toHaveLength(1);
    // Before the cap per club, B's delivery waited for A's 15 s timeout.
    expect(arrivedB[0] - sent).toBeLessThan(3_000);
    // A quarter of the slots for A's endpoints, not all eight.
    expect(hanging.length).toBe(2);
    const deliveriesOf = (clubId: string) => env.db.read.select().from(webhookDeliveries).where(eq(webhookDeliveries.club_id, clubId));
    expect(await waitFor(async () => (await deliveriesOf(clubB.club_id))[0]?.status === "succeeded", 2_000)).toBe(true);
    expect((await deliveriesOf(env.clubId)).filter((d) => d.status === "pending")).toHaveLength(12);
  } finally {
    for (const answer of hanging.splice(0)) answer();
    // The deliveries still queued go out now that A answers; stop waits for those in hand.
    await worker.stop();
    receiver.stop(true);
  }
});

// ---- OAuth client registrations ---------------------------------------------------------------

const register = (body: unknown, ip: string) =>
  env.app.handle(
    new Request("http://localhost/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    ip,
  );
const clientsNow = async () => (await env.db.read.select().from(oauthClients)).length;

it("OAuth registration: a 2,000-character name or address is invalid_client_metadata and stores nothing", async () => {
  const before = await clientsNow();
  for (const body of [
    { client_name: "n".repeat(2000), redirect_uris: ["http://127.0.0.1/cb"] },
    { client_name: "Long", redirect_uris: [`http://127.0.0.1/${"p".repeat(2000)}`] },
    { client_name: "Long", client_uri: `https://app.example/${"u".repeat(2000)}`, redirect_uris: ["http://127.0.0.1/cb"] },
    { client_name: "Many", redirect_uris: Array.from({ length: 20 }, (_, i) => `http://127.0.0.1/cb${i}`) },
  ]) {
    const res = await register(body, "203.0.113.20");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("invalid_client_metadata");
  }
  expect(await clientsNow()).toBe(before);
});

it("OAuth registration: one address registers a bounded number of clients an hour, then the house 429 with Retry-After", async () => {
  const ip = "203.0.113.21";
  // The route's own rate (10 a minute) is not what bounds the hour: the verb counts the address's registrations.
  for (let i = 0; i < REGISTRATIONS_PER_ADDRESS_PER_HOUR; i++)
    await registerClient(env.db, { client_name: `Bot ${i}`, redirect_uris: ["http://127.0.0.1/cb"] }, ip);
  const res = await register({ client_name: "One more", redirect_uris: ["http://127.0.0.1/cb"] }, ip);
  expect(res.status).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(60);
  expect(((await res.json()) as { code: string }).code).toBe("RATE_LIMITED");
  expect((await register({ client_name: "Elsewhere", redirect_uris: ["http://127.0.0.1/cb"] }, "203.0.113.22")).status).toBe(201);
});

it("OAuth registration: a client no admin ever allowed is swept by the server's hourly job a day later", async () => {
  const res = await register({ client_name: "Abandoned", redirect_uris: ["http://127.0.0.1/cb"] }, "203.0.113.23");
  const { client_id } = (await res.json()) as { client_id: string };
  const byId = async () => env.db.read.select().from(oauthClients).where(eq(oauthClients.client_id, client_id));
  for (const recurring of RECURRING) await recurring.ensure(env.db);
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(Date.now() + 3_600_000) });
  expect(await byId()).toHaveLength(1);
  // The sweep queued its next run an hour on: a day later, that run deletes it.
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(Date.now() + 26 * 3_600_000) });
  expect(await byId()).toHaveLength(0);
});

// ---- sign-in, /c/, the page token -------------------------------------------------------------

const login = (ip: string, email: string, password: string) =>
  env.app.handle(
    new Request("http://localhost/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    }),
    ip,
  );

it("a stranger's six wrong passwords from their address do not lock the admin out at another", async () => {
  const admin = await env.makeAdmin({ email: "treasurer@test.org" });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await login("198.51.100.66", admin.email, `guess-${i}`)).status);
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  expect((await login("192.0.2.55", admin.email, "admin-password")).status).toBe(200);
});

it("/c/<serial> is rate-limited per address as /m/<token> is: the 301st card request of a minute and the 21st page request are 429", async () => {
  const get = (path: string, ip: string) => env.app.handle(new Request(`http://localhost${path}`), ip);
  const statuses = new Map<number, number>();
  for (let i = 0; i < 301; i++) {
    const status = (await get(`/c/NoSuchSerial${i}`, "198.51.100.90")).status;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  expect(Object.fromEntries(statuses)).toEqual({ 404: 300, 429: 1 });
  const pages: number[] = [];
  for (let i = 0; i < 21; i++) pages.push((await get(`/m/NoSuchTokenNoSuchToken${i}`, "198.51.100.91")).status);
  expect(pages.slice(0, 20).every((s) => s === 404)).toBe(true);
  expect(pages[20]).toBe(429);
});

it("the member's page token is kept as a hash: shown once at creation, null on every read, and its link works", async () => {
  const created = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
    body: { first_name: "Noa", last_name: "Token", email: "noa@test.org", membership_end: "2030-12-31" },
  });
  expect(created.status).toBe(201);
  const token = created.body.manage_token as string;
  expect(token).toMatch(/^\w{32}$/);
  const [row] = await env.db.read.select().from(members).where(eq(members.id, created.body.id));
  expect(row.manage_token).toBe(sha256Hex(token));
  expect((await env.call("GET", `/api/clubs/${env.clubId}/members/${created.body.id}`)).body.manage_token).toBeNull();
  expect((await env.call("GET", `/api/clubs/${env.clubId}/members?q=noa`)).text).not.toContain(token);
  expect((await env.call("GET", `/m/${token}`, { key: null })).status).toBe(200);
  // The hash itself opens nothing.
  expect((await env.call("GET", `/m/${row.manage_token}`, { key: null })).status).toBe(404);
});

it("tokens an older version kept in clear are hashed when the server starts, and the links already mailed still work", async () => {
  const dir = mkdtempSync(join(tmpdir(), "club-rt-"));
  const url = await freshDatabaseUrl(dir);
  const clear = "OlderVersionClearToken0123456789";
  const db = await openDb(url);
  const club = await initClub(db, { clubName: "Old club", email: "old-owner@test.org" });
  const row = newMemberRow(club.club_id, {
    first_name: "Ola",
    last_name: "Before",
    email: "ola@test.org",
    membership_start: "2026-01-01",
    membership_end: "2030-12-31",
    payment_status: "paid",
  });
  await db.tx((t) => t.insert(members).values({ ...row, manage_token: clear }));
  await db.close();
  try {
    const server = await startServer(url);
    try {
      expect(server.out).toContain("Hashed 1 member page token(s)");
      expect((await fetch(`${server.base}/m/${clear}`)).status).toBe(200);
    } finally {
      await server.stop();
    }
    const after = await openDb(url);
    try {
      const [stored] = await after.read
        .select()
        .from(members)
        .where(eq(members.id, row.id as string));
      expect(stored.manage_token).toBe(sha256Hex(clear));
    } finally {
      await after.close();
    }
  } finally {
    await dropDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- OAuth leftovers --------------------------------------------------------------------------

const REDIRECT = "http://127.0.0.1:5555/cb";
const VERIFIER = "r".repeat(43);

async function oauthClient() {
  const res = await register({ client_name: "Red team", redirect_uris: [REDIRECT] }, `192.0.2.${100 + Math.floor(Math.random() * 100)}`);
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

function authorizePath(clientId: string, extra: [string, string][] = [], redirect: string | null = REDIRECT) {
  const q = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    code_challenge: challengeOf(VERIFIER),
    code_challenge_method: "S256",
    state: "s",
    scope: "members:edit events:view",
  });
  if (redirect) q.set("redirect_uri", redirect);
  for (const [k, v] of extra) q.append(k, v);
  return `/admin/oauth/authorize?${q}`;
}

it("authorize: a redirect URI with user-info is refused on the page, never redirected to", async () => {
  const clientId = await oauthClient();
  const admin = await adminBrowser(env);
  const page = await admin.request("GET", authorizePath(clientId, [], "http://evil.com@127.0.0.1:5555/cb"));
  expect(page.status).toBe(400);
  expect(page.headers.get("location")).toBeNull();
});

it("authorize: a parameter given twice is invalid_request; a second redirect_uri or client_id is refused on the page", async () => {
  const clientId = await oauthClient();
  const admin = await adminBrowser(env);
  const twice = await admin.request("GET", authorizePath(clientId, [["scope", "members:edit finances:edit"]]));
  expect(twice.status).toBe(303);
  const back = new URL(twice.headers.get("location") as string);
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
  expect(back.searchParams.get("error")).toBe("invalid_request");
  for (const extra of [["redirect_uri", "http://127.0.0.1:6666/cb"] as [string, string], ["client_id", clientId] as [string, string]]) {
    const page = await admin.request("GET", authorizePath(clientId, [extra]));
    expect(page.status).toBe(400);
    expect(page.headers.get("location")).toBeNull();
  }
});

it("token: the redirect_uri the authorization request named is required (RFC 6749 4.1.3); a narrower refresh scope is honoured (section 6)", async () => {
  const clientId = await oauthClient();
  const admin = await adminBrowser(env);
  const code = async () => {
    const { location } = await admin.consent(`http://localhost${authorizePath(clientId)}`, { decision: "allow", scopes: { members: "edit", events: "view" } });
    return location?.searchParams.get("code") as string;
  };
  const exchange = { grant_type: "authorization_code", client_id: clientId, code_verifier: VERIFIER };
  const without = await formPost(env, "/oauth/token", { ...exchange, code: await code() });
  expect([without.status, without.body.error]).toEqual([400, "invalid_request"]);
  const tokens = await formPost(env, "/oauth/token", { ...exchange, code: await code(), redirect_uri: REDIRECT });
  expect(tokens.status).toBe(200);
  expect(tokens.body.scope).toBe("members:edit events:view");
  const narrowed = await formPost(env, "/oauth/token", {
    grant_type: "refresh_token",
    client_id: clientId,
    refresh_token: tokens.body.refresh_token,
    scope: "members:view",
  });
  expect(narrowed.status).toBe(200);
  expect(narrowed.body.scope).toBe("members:view");
  // The narrowed token acts with members:view only (whoami says its scopes); the next refresh, asking nothing, has the grant's again.
  const scopesOf = async (token: string) => {
    const res = await env.call("POST", "/mcp", {
      key: token,
      headers: { accept: "application/json, text/event-stream" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } },
    });
    expect(res.status).toBe(200);
    return res.body.result.structuredContent.scopes;
  };
  expect(await scopesOf(narrowed.body.access_token)).toEqual({ members: "view" });
  const whole = await formPost(env, "/oauth/token", { grant_type: "refresh_token", client_id: clientId, refresh_token: narrowed.body.refresh_token });
  expect(await scopesOf(whole.body.access_token)).toEqual({ members: "edit", events: "view" });
});
