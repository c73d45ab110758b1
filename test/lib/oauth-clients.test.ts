// OAuth clients (lib/oauth/clients): client ID metadata documents fetched through the SSRF guard,
// validated and cached; redirect URIs https or loopback. The document's host is faked through the
// fetch and resolver the guard takes, so nothing leaves the machine.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { findClient, redirectUriAllowed, redirectUriMatches } from "../../lib/oauth/clients";
import { OAuthRefused } from "../../lib/errors";
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
});
