// Two server processes on one PostgreSQL database (two apps, each with its own connection pool,
// as two processes have): a key's rate and a public route's rate per address hold for both
// together, not once per process. On SQLite one process serves; its counts are in memory.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { openDb } from "../../db";
import { createApp } from "../../server/app";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";

describe.skipIf(!onPostgres)("rates shared by the processes of one PostgreSQL database", () => {
  let env: TestEnv;
  let second: Awaited<ReturnType<typeof createApp>>;
  let secondDb: Awaited<ReturnType<typeof openDb>>;
  beforeAll(async () => {
    env = await setup({ RATE_LIMIT_PER_MINUTE: "6" });
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

  it("a key's requests a minute, sent to either process, are counted once: the 7th is 429 with Retry-After", async () => {
    const path = `/api/clubs/${env.clubId}/members`;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => via(i % 2 ? second : env.app, path, env.key)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const refused = answers.find((r) => r.status === 429) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).code).toBe("RATE_LIMITED");
  });

  it("a public route's rate per address holds across both processes: the club's page, 60 a minute", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 70; i++) answers.push((await via(i % 2 ? second : env.app, "/api/public/clubs/no-such-club", null)).status);
    expect(answers.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(answers.slice(60)).toEqual(Array(10).fill(429));
  });
});
