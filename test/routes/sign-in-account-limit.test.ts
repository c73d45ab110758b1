// POST /api/auth/login, per account (issue 18 item 9): ten tries a minute per address left an
// account open to 30 addresses guessing at once. Five failures of one account at one address are
// free, twenty over the addresses it never signed in from; then it waits a delay that doubles
// with each failure, told in Retry-After and the detail; the right password during the wait is
// refused too, and no session is made. But a stranger cannot lock the owner out (issue 32): their
// failures hold their own address, and never the address the owner signed in from.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { adminSessions } from "../../db/schema";
import { createSignInLink, useSignInLink } from "../../lib/auth/sign-in-links";
import { addressGroup, FailureBackoff } from "../../lib/ratelimit";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const login = (ip: string, email: string, password: string) =>
  env.app.handle(
    new Request("http://localhost/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": "en" },
      body: JSON.stringify({ email, password }),
    }),
    ip,
  );
const sessions = async () => (await env.db.read.select().from(adminSessions)).length;

describe("sign-in, per account", () => {
  it("30 wrong passwords from 30 addresses, then the right one from a new address: 429 with Retry-After and the wait in the detail, no session", async () => {
    const admin = await env.makeAdmin({ email: "target@test.org" });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await login(`198.51.100.${i + 1}`, admin.email, `guess-${i}`)).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    const before = await sessions();
    const right = await login("198.51.100.200", "Target@Test.org", "admin-password");
    expect(right.status).toBe(429);
    const retry = Number(right.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15);
    const body = await right.json();
    expect(body).toEqual({
      code: "LOGIN_TOO_MANY_FAILURES",
      detail: `Too many wrong passwords for this account: try again in ${retry} s.`,
      request_id: expect.any(String),
    });
    expect(await sessions()).toBe(before);
  });

  it("the address an owner came in from by the one-time link is theirs: strangers at many addresses do not lock them out of it", async () => {
    const admin = await env.makeAdmin({ email: "by-link@test.org" });
    const link = await createSignInLink(env.db, { adminId: admin.id, baseUrl: "http://localhost" });
    const token = new URL(link.url).searchParams.get("token") as string;
    await useSignInLink(env.db, { token, password: "a-new-long-password", confirm: "a-new-long-password" }, "192.0.2.55");
    for (let i = 0; i < 25; i++) await login(`198.18.0.${i + 1}`, admin.email, "guess");
    expect((await login("198.18.0.200", admin.email, "a-new-long-password")).status).toBe(429);
    expect((await login("192.0.2.55", admin.email, "a-new-long-password")).status).toBe(200);
  });

  it("a stranger's failures at one address hold that address only: the owner signs in from another", async () => {
    const admin = await env.makeAdmin({ email: "locked@test.org" });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login("203.0.113.66", admin.email, "guess")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login("203.0.113.66", admin.email, "admin-password")).status).toBe(429);
    expect((await login("192.0.2.10", admin.email, "admin-password")).status).toBe(200);
  });

  it("the address the owner signed in from stays open while strangers at many addresses hold the account; an IPv6 network counts as one", async () => {
    const admin = await env.makeAdmin({ email: "besieged@test.org" });
    expect((await login("2001:db8:5:7:aaaa::1", admin.email, "admin-password")).status).toBe(200);
    for (let i = 0; i < 30; i++) await login(`198.51.101.${i + 1}`, admin.email, `guess-${i}`);
    expect((await login("198.51.101.200", admin.email, "admin-password")).status).toBe(429);
    // Another machine (or tomorrow's address) of the same /64, with the right password: in.
    expect((await login("2001:db8:5:7:bbbb:cccc:dddd:eeee", admin.email, "admin-password")).status).toBe(200);
    // Mistyping there is still held after five, as anywhere.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login("2001:db8:5:7::9", admin.email, "typo")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("another account is not held up, and an unknown email is treated like a known one", async () => {
    for (let i = 0; i < 6; i++) await login("198.51.100.50", "nobody@test.org", "x");
    expect((await login("198.51.100.50", "nobody@test.org", "x")).status).toBe(429);
    expect((await login("198.51.100.52", "owner@test.org", "owner-password")).status).toBe(200);
  });

  it("a success forgets earlier failures", async () => {
    const admin = await env.makeAdmin({ email: "typo@test.org" });
    for (let i = 0; i < 4; i++) expect((await login("198.51.100.60", admin.email, "typo")).status).toBe(401);
    expect((await login("198.51.100.60", admin.email, "admin-password")).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login("198.51.100.61", admin.email, "typo")).status).toBe(401);
    expect((await login("198.51.100.61", admin.email, "admin-password")).status).toBe(200);
  });
});

describe("FailureBackoff", () => {
  it("five free failures, then a delay doubling from 15 s to at most 15 minutes after the last failure", () => {
    const b = new FailureBackoff();
    let now = 1_000_000;
    for (let i = 0; i < 5; i++) expect(b.attempt("a", now)).toBe(0);
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      const wait = b.attempt("a", now);
      waits.push(wait);
      expect(b.attempt("a", now + wait * 1000 - 1)).toBeGreaterThan(0);
      now += wait * 1000;
      expect(b.attempt("a", now)).toBe(0);
    }
    expect(waits).toEqual([15, 30, 60, 120, 240, 480, 900, 900, 900]);
  });

  it("forgets an account an hour after its last failure, and at once after a success", () => {
    const b = new FailureBackoff();
    for (let i = 0; i < 5; i++) b.attempt("a", 0);
    expect(b.attempt("a", 1000)).toBe(14);
    expect(b.attempt("a", 3_600_000)).toBe(0);
    for (let i = 0; i < 5; i++) b.attempt("b", 0);
    b.succeeded("b");
    expect(b.attempt("b", 0)).toBe(0);
  });
});

describe("addressGroup", () => {
  it("an IPv4 address as it is; an IPv6 address as its /64, however written", () => {
    expect(addressGroup("198.51.100.7")).toBe("198.51.100.7");
    expect(addressGroup(null)).toBe("unknown");
    expect(addressGroup("2001:db8:5:7:aaaa::1")).toBe("2001:db8:5:7::/64");
    // A dual-stack socket's IPv4 peer is that IPv4 address, not one /64 for every IPv4 client.
    expect(addressGroup("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressGroup("2001:0DB8:0005:0007:1:2:3:4")).toBe("2001:db8:5:7::/64");
    expect(addressGroup("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressGroup("::1")).toBe("0:0:0:0::/64");
  });
});
