// Every route of the router, with odd bodies and query strings: never a 5xx, and every refusal
// is JSON with a `detail` (OAuth's endpoints: with OAuth's `error`). (The full OpenAPI-driven fuzzer belongs to the reliability suite.)
import { afterAll, beforeAll, expect, it } from "bun:test";
import { type ApplePki, makeApplePki, PASS_TYPE_ID } from "../cards/apple-fixtures";
import { type FakeGoogle, fakeGoogle } from "../google-fake";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";

let env: TestEnv;
// The same routes with both wallets configured, so the pass and PassKit routes go past "not configured".
let wallets: TestEnv;
let pki: ApplePki;
let google: FakeGoogle;
beforeAll(async () => {
  env = await setup({ RATE_LIMIT_PER_MINUTE: "1000000" });
  pki = await makeApplePki();
  google = await fakeGoogle();
  wallets = await setup({ RATE_LIMIT_PER_MINUTE: "1000000", ...pki.env(), ...google.env });
});
afterAll(async () => {
  await env.close();
  await wallets.close();
  pki.close();
  google.stop();
});

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

/** Every mounted route of `e` with every odd body and query; the answers that break the rule. */
async function oddAnswers(e: TestEnv, serial: string): Promise<string[]> {
  const bad: string[] = [];
  const values: Record<string, string> = { club_id: e.clubId, serial, pass_type: PASS_TYPE_ID };
  for (const r of e.app.routes) {
    if (r.path === "/mcp") continue;
    const method = r.method === "ALL" ? "POST" : r.method;
    const path = r.path.replace(/:(\w+)/g, (_, n: string) => values[n] ?? (n.endsWith("_id") ? crypto.randomUUID() : "ABC"));
    for (const body of BODIES)
      for (const q of QUERIES) {
        // An odd PassKit token too: those routes take `ApplePass <token>`, not a key.
        const passkit = path.startsWith("/api/passkit/");
        const headers = passkit ? { authorization: "ApplePass \u00ff" } : undefined;
        const res = await e.call(method, path + q, { body: method === "GET" ? undefined : body, headers, key: passkit ? null : undefined });
        const label = `${method} ${path}${q} ${JSON.stringify(body)?.slice(0, 40)} -> ${res.status}`;
        if (res.status >= 500) bad.push(label);
        // OAuth's endpoints answer OAuth's shape (RFC 6749 section 5.2, DESIGN.md section 17); their 429 is the house one.
        else if (r.path.startsWith("/oauth/") && res.status >= 400 && res.status !== 429) {
          if (typeof res.body?.error !== "string") bad.push(`${label} without error`);
        } else if (res.status >= 400 && res.headers.get("content-type")?.includes("application/json") && res.body?.detail === undefined)
          bad.push(`${label} without detail`);
      }
  }
  return bad;
}

it("no route answers 5xx to odd input, and every 4xx is JSON with a detail", async () => {
  expect(await oddAnswers(env, "ABC")).toEqual([]);
}, 120_000);

it("the same with Apple and Google Wallet configured, on a real member's pass", async () => {
  const m = await seedMember(wallets);
  expect(await oddAnswers(wallets, m.pass_serial_number)).toEqual([]);
}, 120_000);
