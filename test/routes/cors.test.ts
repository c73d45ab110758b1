// CORS: a club's website calls the public routes from a visitor's browser (any origin, no
// credentials); the routes that take a key answer only the origins of CORS_ORIGINS. Preflights
// never need a key.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { setup, type TestEnv } from "../helpers";
import { refusalOf } from "../refusal";

const SITE = "https://velo-club.example";

function preflight(env: TestEnv, path: string, method: string, origin = SITE, headers = "content-type") {
  return env.app.handle(
    new Request(`http://localhost${path}`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers },
    }),
  );
}

describe("CORS with CORS_ORIGINS unset", () => {
  let env: TestEnv;
  let slug: string;
  beforeAll(async () => {
    env = await setup();
    slug = (await env.call("GET", "/api/auth/me")).body.club.slug;
  });
  afterAll(() => env.close());

  it("a public route's preflight answers 204 for any origin, without credentials", async () => {
    const res = await preflight(env, `/api/public/events/${crypto.randomUUID()}/registrations`, "POST");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toContain("content-type");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("a public route's answer carries Access-Control-Allow-Origin: * and exposes the rate-limit headers", async () => {
    const res = await env.app.handle(new Request(`http://localhost/api/public/clubs/${slug}/events`, { headers: { origin: SITE } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("x-request-id");
  });

  it("a key route's preflight from any origin is refused (403, saying to list it), and its answers carry no CORS header", async () => {
    const res = await preflight(env, "/api/auth/me", "GET", SITE, "authorization");
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe("CORS_ORIGIN_NOT_ALLOWED");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const me = await env.call("GET", "/api/auth/me", { headers: { origin: SITE } });
    expect(me.status).toBe(200);
    expect(me.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("sign-in is not open to other sites' pages", async () => {
    const res = await preflight(env, "/api/auth/login", "POST");
    expect(res.status).toBe(403);
  });

  it("a public route's preflight for a method it does not take still answers as a public route (not 'add the origin')", async () => {
    const res = await preflight(env, `/api/public/clubs/${slug}/events`, "DELETE");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-methods")).toBe("GET, OPTIONS");
  });

  it("an unknown path's preflight is a 404", async () => {
    expect((await preflight(env, "/api/nowhere", "GET")).status).toBe(404);
  });
});

describe("CORS with CORS_ORIGINS listing the club's tool", () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await setup({ CORS_ORIGINS: `${SITE}, https://sheets.example` });
  });
  afterAll(() => env.close());

  it("a listed origin's preflight answers 204 naming it, with the bearer header allowed (no key needed for the preflight)", async () => {
    const res = await preflight(env, `/api/clubs/${env.clubId}/members`, "GET", SITE, "authorization");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe(SITE);
    expect(res.headers.get("access-control-allow-headers")).toContain("authorization");
    expect(res.headers.get("access-control-allow-methods")).toContain("GET");
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("a listed origin's request gets its origin back; another origin gets none", async () => {
    const ok = await env.call("GET", "/api/auth/me", { headers: { origin: "https://sheets.example" } });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://sheets.example");
    expect(ok.headers.get("access-control-expose-headers")).toContain("ratelimit-remaining");
    const other = await env.call("GET", "/api/auth/me", { headers: { origin: "https://evil.example" } });
    expect(other.status).toBe(200);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect((await preflight(env, "/api/auth/me", "GET", "https://evil.example")).status).toBe(403);
  });

  it("the MCP endpoint's preflight allows MCP's own headers", async () => {
    const res = await preflight(env, "/mcp", "POST", SITE, "authorization, content-type, mcp-protocol-version");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
    // Only the method it answers, in the preflight as in Allow; the others are refused (405) once signed in.
    expect(res.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    const plain = await env.app.handle(new Request("http://localhost/mcp", { method: "OPTIONS" }));
    expect(plain.headers.get("allow")).toBe("POST, OPTIONS");
    const put = await env.call("PUT", "/mcp", { body: {} });
    expect([put.status, put.headers.get("allow")]).toEqual([405, "POST"]);
  });

  it("a malformed CORS_ORIGINS stops the configuration with a message", async () => {
    expect(await refusalOf(setup({ CORS_ORIGINS: "velo-club.example/path" }))).toMatchObject({
      message: expect.stringMatching(/CORS_ORIGINS must list origins/),
    });
  });
});
