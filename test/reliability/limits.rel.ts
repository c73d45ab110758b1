// Limits (issue 6, item 5), at the SPEC's real rate (300 requests a minute per key): the 301st
// request of a minute is refused with 429 and Retry-After, HTTP and MCP calls of one key counted
// together; a revoked key is refused on its very next request; random check-in codes never give
// `valid` and a key guessing them is throttled. No size of input reaches a stack limit: a
// 900,000-line dry-run import through the CLI completes (issue 18 item 8). A page of another site
// reaching the real server's /mcp through a rebound name is refused, key or not (issue 32).

import { afterAll, beforeAll, expect, it } from "bun:test";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { apiKeys, clubs } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import { allScopes } from "../../lib/access";
import { checkinEvent } from "../../lib/events";
import { randomBase62, readableCode } from "../../lib/ids";
import { insertMember, insertRegistration } from "../events-fixtures";
import { setup, type TestEnv } from "../helpers";
import { ROOT, startServer } from "./server-process";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

async function send(key: string, kind: "http" | "mcp") {
  const init: RequestInit =
    kind === "http"
      ? { headers: { authorization: `Bearer ${key}` } }
      : {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
        };
  const res = await env.app.handle(new Request(`http://localhost${kind === "http" ? "/api/auth/me" : "/mcp"}`, init));
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

it("the 301st request of a minute is refused with 429 and Retry-After, HTTP and MCP counted together", async () => {
  const key = await env.makeKey(allScopes("edit"));
  for (let i = 0; i < 300; i++) {
    const res = await send(key, i % 2 ? "mcp" : "http");
    expect({ i, status: res.status }).toEqual({ i, status: 200 });
    expect(res.headers.get("ratelimit-remaining")).toBe(String(299 - i));
  }
  for (const kind of ["http", "mcp"] as const) {
    const res = await send(key, kind);
    expect(res.status).toBe(429);
    const retry = Number(res.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(JSON.parse(res.text).code).toBe("RATE_LIMITED");
  }
  // Another key of the same admin has its own window.
  expect((await send(await env.makeKey({ members: "view" }), "http")).status).toBe(200);
});

it("a revoked key is refused on its very next request, over HTTP and MCP", async () => {
  const key = await env.makeKey(allScopes("edit"));
  expect((await send(key, "http")).status).toBe(200);
  expect((await send(key, "mcp")).status).toBe(200);
  const login = await env.call("POST", "/api/auth/login", { key: null, body: { email: "owner@test.org", password: "owner-password" } });
  const [row] = await env.db.read
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.prefix, key.slice(0, 12)));
  const revoked = await env.call("DELETE", `/api/account/api-keys/${row.id}`, { key: login.body.token });
  expect(revoked.status).toBe(200);
  for (const kind of ["http", "mcp", "http"] as const) {
    const res = await send(key, kind);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text).code).toBe("KEY_REVOKED");
  }
});

it("10,000 random check-in codes never give valid, and a key guessing them over HTTP is throttled", async () => {
  const created = await env.call("POST", `/api/clubs/${env.clubId}/events`, {
    body: { title: "Devinettes", starts_at: new Date(Date.now() + 86_400_000).toISOString(), tickets: [{ name: "Entrée", non_member_price_cents: 0 }] },
  });
  const event = created.body as { id: string; tickets: { id: string }[] };
  for (let i = 0; i < 20; i++) {
    const member = await insertMember(env);
    await insertRegistration(env, { eventId: event.id, ticketId: event.tickets[0].id, memberId: i % 2 ? member.id : null });
  }
  // Codes shaped like the real ones: ticket tokens (24 base62) and card codes (8 readable characters).
  const guess = (i: number) => (i % 2 ? randomBase62(24) : readableCode(8));
  const ctx = await operatorCtx(env.db, env.clubId, env.config);
  const verdicts: Record<string, number> = {};
  for (let i = 0; i < 10_000; i++) {
    const { verdict } = await checkinEvent(ctx, { event_id: event.id, code: guess(i) });
    verdicts[verdict] = (verdicts[verdict] ?? 0) + 1;
  }
  expect(verdicts).toEqual({ not_registered: 10_000 });

  // Over HTTP one key gets 300 guesses a minute; the rest are refused before any lookup.
  const key = await env.makeKey({ access_control: "edit" });
  const statuses: Record<number, number> = {};
  const answers: Record<string, number> = {};
  for (let i = 0; i < 10_000; i++) {
    const res = await env.call("POST", `/api/clubs/${env.clubId}/events/${event.id}/checkin`, { key, body: { code: guess(i) } });
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (res.status === 200) answers[res.body.verdict] = (answers[res.body.verdict] ?? 0) + 1;
    else expect(res.headers.get("retry-after")).not.toBeNull();
  }
  console.log(`check-in guessing: lib ${JSON.stringify(verdicts)}; HTTP statuses ${JSON.stringify(statuses)}, verdicts ${JSON.stringify(answers)}`);
  expect(answers).toEqual({ not_registered: 300 });
  expect(statuses).toEqual({ 200: 300, 429: 9_700 });
}, 300_000);

it("a 900,000-line dry-run import through the CLI completes without a stack error", async () => {
  const lines = 900_000;
  const parts = ["first_name,last_name,email,membership_end\n"];
  for (let i = 0; i < lines; i++) parts.push(`Prénom${i},Nom${i},m${i}@big.test,2031-01-01\n`);
  const file = join(env.dir, "big.csv");
  const out = join(env.dir, "big-out.json");
  await Bun.write(file, parts.join(""));
  const [club] = await env.db.read.select({ slug: clubs.slug }).from(clubs).where(eq(clubs.id, env.clubId));
  // Its own process on the test's database file; the answer (some 370 MB of per-line changes) goes to a file.
  const proc = Bun.spawn(["bun", "scripts/cli.ts", "import", "members", file, "--club", club.slug, "--dry-run", "--json"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: env.config.databaseUrl },
    stdout: Bun.file(out),
    stderr: "pipe",
  });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(stderr).not.toContain("Maximum call stack");
  expect(code).toBe(0);
  const head = await Bun.file(out).slice(0, 200).text();
  expect(head).toStartWith(`{"created":${lines},"updated":0,"skipped":0,"errors":[]`);
}, 600_000);

it("the real server's /mcp refuses another site's Origin and, on loopback, a rebound Host, with its key; its own address passes", async () => {
  const server = await startServer(join(env.dir, "rebinding.db"));
  try {
    const port = new URL(server.base).port;
    const call = (headers: Record<string, string>) =>
      fetch(`${server.base}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } }),
      });
    const byOrigin = await call({ origin: "http://evil.example.com" });
    expect(byOrigin.status).toBe(403);
    expect((await byOrigin.json()).error.data.code).toBe("MCP_ORIGIN_NOT_ALLOWED");
    // What a rebinding page sends: its own name as Host, and (a same-origin fetch) often no Origin.
    const byHost = await call({ host: `evil.example.com:${port}` });
    expect(byHost.status).toBe(403);
    expect((await byHost.json()).error.data.code).toBe("MCP_HOST_NOT_ALLOWED");
    expect((await call({})).status).toBe(200);
    expect((await call({ origin: server.base })).status).toBe(200);
  } finally {
    await server.stop();
  }
}, 60_000);
