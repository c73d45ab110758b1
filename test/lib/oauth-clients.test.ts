// OAuth clients (lib/oauth/clients): client ID metadata documents fetched through the SSRF guard,
// validated and cached; redirect URIs https or loopback. The document's host is faked through the
// fetch and resolver the guard takes, so nothing leaves the machine.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { oauthClients, oauthCodes, oauthGrants } from "../../db/schema";
import { newId } from "../../lib/ids";
import {
  CLIENT_LIMITS,
  findClient,
  OAUTH_CLIENTS_PURGE,
  oauthClientsPurge,
  purgeUnusedClients,
  REGISTRATIONS_PER_ADDRESS_PER_HOUR,
  REGISTRATIONS_PER_HOUR,
  redirectUriAllowed,
  redirectUriMatches,
  registerClient,
} from "../../lib/oauth/clients";
import { OAuthRefused, RateLimited } from "../../lib/errors";
import { JOB_KINDS, RECURRING } from "../../server/jobs";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const URL_ID = "https://assistant.example/oauth/client.json";
const DOC = { client_id: URL_ID, client_name: "Hosted assistant", redirect_uris: ["https://assistant.example/callback"], token_endpoint_auth_method: "none" };
const publicHost = async () => ["93.184.216.34"];
const settings = { allowPrivate: false };

function serving(body: unknown, status = 200) {
  const calls: string[] = [];
  const fetch = (async (url: string | URL | Request) => {
    calls.push(String(url));
    return new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => (err instanceof OAuthRefused ? err : null),
  );

describe("client ID metadata documents", () => {
  test("fetched, validated and cached for an hour", async () => {
    const host = serving(DOC);
    const client = await findClient(env.db, URL_ID, settings, { fetch: host.fetch, resolve: publicHost });
    expect(client).toMatchObject({ client_id: URL_ID, kind: "metadata_document", client_name: "Hosted assistant" });
    await findClient(env.db, URL_ID, settings, { fetch: host.fetch, resolve: publicHost });
    expect(host.calls).toHaveLength(1);
    const later = new Date(Date.now() + 2 * 3600_000);
    await findClient(env.db, URL_ID, settings, { fetch: host.fetch, resolve: publicHost }, later);
    expect(host.calls).toHaveLength(2);
  });

  test("a host on a metadata or private address is refused before anything is fetched", async () => {
    for (const address of ["169.254.169.254", "10.0.0.7", "127.0.0.1"]) {
      const host = serving({ ...DOC, client_id: "https://inside.example/c.json" });
      const err = await refusal(findClient(env.db, "https://inside.example/c.json", settings, { fetch: host.fetch, resolve: async () => [address] }));
      expect(err?.error).toBe("invalid_client");
      expect(host.calls).toHaveLength(0);
    }
  });

  test("a document naming another client_id, lacking a name, holding a secret or not JSON is refused", async () => {
    const id = "https://bad.example/c.json";
    for (const body of [
      { ...DOC, client_id: "https://other.example/c.json" },
      { ...DOC, client_id: id, client_name: undefined },
      { ...DOC, client_id: id, client_secret: "s" },
      { ...DOC, client_id: id, redirect_uris: ["http://evil.example/cb"] },
      "<html>",
    ]) {
      const err = await refusal(findClient(env.db, id, settings, { fetch: serving(body).fetch, resolve: publicHost }));
      expect(err?.error).toBe("invalid_client");
    }
    const gone = await refusal(findClient(env.db, id, settings, { fetch: serving(DOC, 404).fetch, resolve: publicHost }));
    expect(gone?.description).toContain("404");
  });

  test("an unknown client_id that is no https URL with a path is unknown, never fetched", async () => {
    for (const id of ["nope", "http://assistant.example/c.json", "https://assistant.example/"]) {
      const host = serving(DOC);
      expect((await refusal(findClient(env.db, id, settings, { fetch: host.fetch, resolve: publicHost })))?.error).toBe("invalid_client");
      expect(host.calls).toHaveLength(0);
    }
  });
});

describe("redirect URIs", () => {
  test("https, or http on loopback with any port; nothing else", () => {
    expect(redirectUriAllowed("https://app.example/cb")).toBe(true);
    expect(redirectUriAllowed("http://127.0.0.1:6274/oauth/callback")).toBe(true);
    expect(redirectUriAllowed("http://localhost:6274/oauth/callback")).toBe(true);
    expect(redirectUriAllowed("http://[::1]/cb")).toBe(true);
    expect(redirectUriAllowed("http://app.example/cb")).toBe(false);
    expect(redirectUriAllowed("https://app.example/cb#frag")).toBe(false);
    expect(redirectUriAllowed("javascript:alert(1)")).toBe(false);
    expect(redirectUriMatches("http://127.0.0.1:9999/cb", ["http://127.0.0.1:1234/cb"])).toBe(true);
    expect(redirectUriMatches("http://127.0.0.1:9999/other", ["http://127.0.0.1:1234/cb"])).toBe(false);
    expect(redirectUriMatches("https://app.example:444/cb", ["https://app.example/cb"])).toBe(false);
  });

  test("a redirect URI with user-info never matches, as registration never accepts one", () => {
    expect(redirectUriAllowed("http://evil.example@127.0.0.1:5555/cb")).toBe(false);
    for (const given of ["http://evil.example@127.0.0.1:5555/cb", "http://user:pw@127.0.0.1/cb", "http://evil.example@localhost:1/cb"])
      expect(redirectUriMatches(given, ["http://127.0.0.1/cb", "http://localhost/cb"])).toBe(false);
  });
});

describe("registration bounds", () => {
  const ok = { client_name: "Bounded", redirect_uris: ["http://127.0.0.1/cb"] };
  const post = (body: unknown, ip: string) =>
    env.app.handle(
      new Request("http://localhost/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      ip,
    );

  test("a field too long or a list too long is invalid_client_metadata (400, RFC 7591 section 3.2.2) and stores nothing", async () => {
    const before = (await env.db.read.select().from(oauthClients)).length;
    const long = (n: number) => "x".repeat(n);
    for (const body of [
      { ...ok, client_name: long(CLIENT_LIMITS.name + 1) },
      { ...ok, client_name: long(2000) },
      { ...ok, client_uri: `https://app.example/${long(CLIENT_LIMITS.uri)}` },
      { ...ok, redirect_uris: [`https://app.example/${long(CLIENT_LIMITS.uri)}`] },
      { ...ok, redirect_uris: Array.from({ length: CLIENT_LIMITS.redirectUris + 1 }, (_, i) => `http://127.0.0.1/cb${i}`) },
      { ...ok, grant_types: Array.from({ length: 11 }, () => "authorization_code") },
      { ...ok, scope: long(CLIENT_LIMITS.scope + 1) },
    ]) {
      const res = await post(body, "198.51.100.40");
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_client_metadata");
    }
    expect(await env.db.read.select().from(oauthClients)).toHaveLength(before);
    // At the limits, it registers.
    const full = {
      client_name: long(CLIENT_LIMITS.name),
      redirect_uris: Array.from({ length: CLIENT_LIMITS.redirectUris }, (_, i) => `http://127.0.0.1/${i}`),
    };
    expect((await post(full, "198.51.100.40")).status).toBe(201);
  });

  test(`one address registers ${REGISTRATIONS_PER_ADDRESS_PER_HOUR} clients an hour, then 429 with Retry-After; invalid bodies do not count`, async () => {
    const own = await setup();
    try {
      for (let i = 0; i < 5; i++) await refusal(registerClient(own.db, { redirect_uris: ["http://evil.example/cb"] }, "198.51.100.41"));
      for (let i = 0; i < REGISTRATIONS_PER_ADDRESS_PER_HOUR; i++) await registerClient(own.db, ok, "198.51.100.41");
      const over = await registerClient(own.db, ok, "198.51.100.41").catch((err: unknown) => err);
      expect(over).toBeInstanceOf(RateLimited);
      expect((over as RateLimited).retryAfterSeconds).toBeGreaterThan(3500);
      // Over HTTP the same count answers the house 429 (not an OAuth refusal), as the route's own rate does.
      const res = await own.app.handle(
        new Request("http://localhost/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ok) }),
        "198.51.100.41",
      );
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(3500);
      expect(((await res.json()) as { code: string }).code).toBe("RATE_LIMITED");
      // Another address still registers.
      await registerClient(own.db, ok, "198.51.100.42");
      expect(await own.db.read.select().from(oauthClients)).toHaveLength(REGISTRATIONS_PER_ADDRESS_PER_HOUR + 1);
    } finally {
      await own.close();
    }
  });

  test(`the whole server registers ${REGISTRATIONS_PER_HOUR} clients an hour, from however many addresses`, async () => {
    const own = await setup();
    try {
      for (let i = 0; i < REGISTRATIONS_PER_HOUR; i++) await registerClient(own.db, ok, `2001:db8::${i.toString(16)}`);
      expect(await registerClient(own.db, ok, "2001:db8::ffff").catch((err: unknown) => err)).toBeInstanceOf(RateLimited);
      expect(await own.db.read.select().from(oauthClients)).toHaveLength(REGISTRATIONS_PER_HOUR);
    } finally {
      await own.close();
    }
  });
});

describe("the hourly sweep of clients never used", () => {
  test("deletes a client a day old that no admin allowed (no grant, no code), registered or a document's copy; keeps the others", async () => {
    const own = await setup();
    try {
      const now = new Date("2026-06-01T12:00:00Z");
      const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000).toISOString();
      const client = (client_id: string, created: number, kind = "registered") => ({
        client_id,
        kind,
        client_name: client_id,
        client_uri: null,
        redirect_uris: ["http://127.0.0.1/cb"],
        fetched_at: kind === "registered" ? null : hoursAgo(created),
        created_at: hoursAgo(created),
      });
      await own.db.tx(async (t) => {
        await t
          .insert(oauthClients)
          .values([
            client("abandoned", 25),
            client("https://doc.example/c.json", 30, "metadata_document"),
            client("fresh", 23),
            client("allowed", 100),
            client("waiting-code", 25),
          ]);
        await t.insert(oauthGrants).values({
          id: newId(),
          club_id: own.clubId,
          admin_id: own.adminId,
          client_id: "allowed",
          client_name: "allowed",
          scopes: { members: "view" },
          resource: "http://localhost/mcp",
          created_at: hoursAgo(99),
        });
        await t.insert(oauthCodes).values({
          id: newId(),
          code_hash: "h",
          club_id: own.clubId,
          admin_id: own.adminId,
          client_id: "waiting-code",
          client_name: "waiting-code",
          scopes: {},
          resource: "http://localhost/mcp",
          redirect_uri: "http://127.0.0.1/cb",
          code_challenge: "c",
          expires_at: hoursAgo(-1),
          created_at: hoursAgo(1),
        });
      });
      expect(await purgeUnusedClients(own.db, now)).toBe(2);
      const left = (await own.db.read.select({ id: oauthClients.client_id }).from(oauthClients)).map((c) => c.id).sort();
      expect(left).toEqual(["allowed", "fresh", "waiting-code"]);
      // It runs every hour, with the server's other recurring jobs.
      expect(RECURRING).toContain(oauthClientsPurge);
      expect(JOB_KINDS[OAUTH_CLIENTS_PURGE]).toBeDefined();
    } finally {
      await own.close();
    }
  });
});
