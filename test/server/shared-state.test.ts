// Two server processes on one PostgreSQL database (two apps, each with its own connection pool,
// as two processes have): a key's rate and a public route's rate per address hold for both
// together, not once per process; an Idempotency-Key sent to both at once runs once, and the
// other answer is its replay. On SQLite one process serves; its counts are in memory.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { openDb } from "../../db";
import { createApp } from "../../app";
import { sha256Hex } from "../../lib/ids";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";

describe.skipIf(!onPostgres)("rates and keys shared by the processes of one PostgreSQL database", () => {
  let env: TestEnv;
  let second: Awaited<ReturnType<typeof createApp>>;
  let secondDb: Awaited<ReturnType<typeof openDb>>;
  beforeAll(async () => {
    env = await setup({ RATE_LIMIT_PER_MINUTE: "12" });
    secondDb = await openDb(env.config.databaseUrl);
    second = await createApp(secondDb, env.config);
  });
  afterAll(async () => {
    await second?.audit.drain();
    await secondDb?.close();
    await env?.close();
  });

  const via = (app: typeof second, path: string, key: string | null) =>
    app.handle(new Request(`http://localhost${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} }), "203.0.113.7");

  it("a key's requests a minute, sent to either process, are counted once: the 13th is 429 with Retry-After", async () => {
    const path = `/api/clubs/${env.clubId}/members`;
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => via(i % 2 ? second : env.app, path, env.key)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12);
    const refused = answers.find((r) => r.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).code).toBe("RATE_LIMITED");
  });

  it("a key's requests sent together to one process are counted in fewer statements than requests, each answer's RateLimit-Remaining another", async () => {
    const key = await env.makeKey(env.allEdit);
    const db = env.db as { query: typeof env.db.query };
    const query = db.query;
    let counts = 0;
    db.query = ((text: string, params?: unknown[], name?: string) => {
      if (name === "rate.key") counts++;
      return query.call(env.db, text, params, name);
    }) as typeof query;
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => via(env.app, `/api/clubs/${env.clubId}/members`, key)));
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
      const remaining = answers.map((r) => Number(r.headers.get("ratelimit-remaining"))).sort((a, b) => a - b);
      expect(remaining).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      expect(counts).toBeGreaterThan(0);
      expect(counts).toBeLessThan(10);
    } finally {
      db.query = query;
    }
    const [row] = await env.db.query<{ n: number }>("SELECT sum(n)::int AS n FROM rate_counts WHERE key = (SELECT id FROM api_keys WHERE key_hash = $1)", [
      sha256Hex(key),
    ]);
    expect(row.n).toBe(10);
  });

  it("more requests of a key at once than its limit leaves room for, to one process: exactly the limit let through", async () => {
    const key = await env.makeKey(env.allEdit);
    const answers = await Promise.all(Array.from({ length: 24 }, () => via(env.app, `/api/clubs/${env.clubId}/members`, key)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12);
  });

  it("a public route's rate per address holds across both processes: the club's page, 60 a minute", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 70; i++) answers.push((await via(i % 2 ? second : env.app, "/api/public/clubs/no-such-club", null)).status);
    expect(answers.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(answers.slice(60)).toEqual(Array(10).fill(429));
  });

  it("one Idempotency-Key sent to both processes at once: one member, and each answer is it (the second a replay) or 409 while it runs", async () => {
    const key = await env.makeKey(env.allEdit);
    const send = (app: typeof second, i: number) =>
      app.handle(
        new Request(`http://localhost/api/clubs/${env.clubId}/members/manual`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "idempotency-key": `both-${i}` },
          body: JSON.stringify({ first_name: "Both", last_name: `N${i}`, email: `both-${i}@example.org`, membership_end: "2030-01-01" }),
        }),
        "203.0.113.8",
      );
    for (let i = 0; i < 5; i++) {
      const answers = await Promise.all([send(env.app, i), send(second, i)]);
      const bodies = await Promise.all(answers.map((r) => r.json()));
      const created = bodies.filter((_, k) => answers[k].status === 201);
      expect(created.length).toBeGreaterThan(0);
      expect(new Set(created.map((b) => b.id)).size).toBe(1);
      for (const [k, r] of answers.entries()) if (r.status !== 201) expect([r.status, bodies[k].code]).toEqual([409, "IDEMPOTENCY_KEY_IN_USE"]);
      if (created.length === 2) expect(answers.map((r) => r.headers.get("idempotent-replayed")).filter(Boolean)).toEqual(["true"]);
      const rows = await env.db.query("SELECT id FROM members WHERE email = $1", [`both-${i}@example.org`]);
      expect(rows).toHaveLength(1);
    }
  });

  it("wrong passwords sent to either process count together: the sixth try from one address waits (429 LOGIN_TOO_MANY_FAILURES)", async () => {
    const admin = await env.makeAdmin({ email: "guessed@test.org" });
    expect(admin).toBeTruthy();
    const login = (app: typeof second, password: string) =>
      app.handle(
        new Request("http://localhost/api/auth/login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "guessed@test.org", password }),
        }),
        "198.51.100.9",
      );
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(i % 2 ? second : env.app, `wrong-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const sixth = await login(second, "admin-password");
    expect(sixth.status).toBe(429);
    expect((await sixth.json()).code).toBe("LOGIN_TOO_MANY_FAILURES");
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    const stored = await env.db.query<{ key: string; failures: number }>("SELECT key, failures FROM sign_in_failures ORDER BY key");
    expect(stored.map((r) => [r.key, Number(r.failures)])).toEqual([
      ["account:guessed@test.org", 5],
      ["address:guessed@test.org\n198.51.100.9", 5],
    ]);
  });
});
