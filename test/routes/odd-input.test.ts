// Every route of the router, with odd bodies and query strings: never a 5xx, and every refusal
// is JSON with a `detail`. (The full OpenAPI-driven fuzzer belongs to the reliability suite.)
import { afterAll, beforeAll, expect, it } from "bun:test";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "1000000" });
});
afterAll(() => env.close());

const BODIES = [
  undefined,
  {},
  [],
  "text",
  null,
  { title: 5, starts_at: "x", code: {}, first_name: [], email: 1, membership_end: "2020-13-45", tier_id: "x", amount_cents: 1e308, extend_months: -1 },
  { name: "", price_cents: "a", discount_value: 0, scopes: 5, tickets: [{}], extend_until: "yesterday", reason: "x".repeat(10_000) },
];
const QUERIES = [
  "",
  "?page=0",
  "?limit=abc&status=zzz&sort=x&dir=y",
  "?format=xml&member_ids=a,b",
  "?date=2020-02-30&period=decade",
  "?include_inactive=maybe&scope=q&event_id=1",
];

it("no route answers 5xx to odd input, and every 4xx is JSON with a detail", async () => {
  const bad: string[] = [];
  for (const r of env.app.routes) {
    if (r.path === "/mcp") continue;
    const method = r.method === "ALL" ? "POST" : r.method;
    const path = r.path.replace(/:(\w+)/g, (_, n: string) => (n === "club_id" ? env.clubId : n.endsWith("_id") ? crypto.randomUUID() : "ABC"));
    for (const body of BODIES)
      for (const q of QUERIES) {
        const res = await env.call(method, path + q, { body: method === "GET" ? undefined : body });
        const label = `${method} ${path}${q} ${JSON.stringify(body)?.slice(0, 40)} -> ${res.status}`;
        if (res.status >= 500) bad.push(label);
        else if (res.status >= 400 && res.headers.get("content-type")?.includes("application/json") && res.body?.detail === undefined)
          bad.push(`${label} without detail`);
      }
  }
  expect(bad).toEqual([]);
}, 120_000);
