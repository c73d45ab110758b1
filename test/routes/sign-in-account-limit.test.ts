// POST /api/auth/login, per account (issue 18 item 9): ten tries a minute per address left an
// account open to 30 addresses guessing at once. Five failures of one account are free; then it
// waits a delay that doubles with each failure, told in Retry-After and the detail; the right
// password during the wait is refused too, and no session is made.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { adminSessions } from "../../db/schema";
import { FailureBackoff } from "../../lib/ratelimit";
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
  it("30 wrong passwords from 30 addresses, then the right one: 429 with Retry-After and the wait in the detail, no session", async () => {
    const admin = await env.makeAdmin({ email: "target@test.org" });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await login(`198.51.100.${i + 1}`, admin.email, `guess-${i}`)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
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

  it("another account is not held up, and an unknown email is treated like a known one", async () => {
    for (let i = 0; i < 6; i++) await login("198.51.100.50", "nobody@test.org", "x");
    expect((await login("198.51.100.51", "nobody@test.org", "x")).status).toBe(429);
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
