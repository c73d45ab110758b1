// A client generated from the served OpenAPI description, as a newcomer would make one:
// openapi-typescript's types, openapi-fetch's calls, type-checked with tsc, then run against a
// real server. A wrong type in the description (a defaulted field required in a request, an
// always-present answer field optional) fails the type check.
import { afterAll, beforeAll, expect, it } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { plugin } from "bun";
import { setup, type TestEnv } from "../helpers";

const ROOT = join(import.meta.dir, "..", "..");

// openapi-typescript builds its output with TypeScript 5's compiler API, which TypeScript 7 (the
// project's compiler) no longer has: its imports of `typescript` are pointed at `typescript5`.
const TS5 = require.resolve("typescript5");
plugin({
  name: "openapi-typescript on TypeScript 5",
  setup(build) {
    build.onLoad({ filter: /\/openapi-typescript\/dist\/.*\.mjs$/ }, async ({ path }) => ({
      contents: (await Bun.file(path).text()).replace(/from ["']typescript["']/g, `from ${JSON.stringify(TS5)}`),
      loader: "js",
    }));
  },
});

const CLIENT = `
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

const client = createClient<paths>({ baseUrl: process.env.BASE_URL, headers: { authorization: \`Bearer \${process.env.API_KEY}\` } });
const membershipEnd = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

const me = await client.GET("/api/auth/me");
if (!me.data) throw new Error(\`me: \${me.response.status}\`);
const path = { club_id: me.data.club_id };

const newMember = { first_name: "Émilie", last_name: "Rochat", email: "emilie.rochat@example.org", membership_end: membershipEnd };
const added = await client.POST("/api/clubs/{club_id}/members/manual", { params: { path }, body: newMember });
if (!added.data) throw new Error(\`manual: \${added.response.status}\`);
const member: components["schemas"]["MemberWithWalletUrls"] = added.data;
// Answer fields with a default are always there: not optional.
const isManual: boolean = member.is_manual;
const webCard: string = member.wallet_urls.web;

const again = await client.POST("/api/clubs/{club_id}/members/manual", { params: { path }, body: newMember });
const refusal: string | undefined = again.error?.code;

const list = await client.GET("/api/clubs/{club_id}/members", { params: { path, query: { search: "rochat", limit: 10 } } });
if (!list.data) throw new Error(\`list: \${list.response.status}\`);

// Request fields with a default (listed, access, tickets) may be left out.
const event = await client.POST("/api/clubs/{club_id}/events", { params: { path }, body: { title: "Season opening", starts_at: \`\${membershipEnd}T18:30:00Z\` } });

// @ts-expect-error membership_end is required
const incomplete: components["schemas"]["ManualMemberCreate"] = { first_name: "A", last_name: "B", email: "a@example.org" };
// @ts-expect-error status takes the documented values only
await client.GET("/api/clubs/{club_id}/members", { params: { path, query: { status: "gone" } } });
void incomplete;

console.log(JSON.stringify({
  clubId: path.club_id,
  added: added.response.status,
  isManual,
  webCard,
  refusal: [again.response.status, refusal],
  listed: [list.data.total, list.data.items.map((m) => m.email)],
  event: [event.response.status, event.data?.listed, event.data?.access, event.data?.tickets.length],
}));
`;

let env: TestEnv;
let server: ReturnType<typeof Bun.serve>;
let dir: string;
beforeAll(async () => {
  env = await setup();
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => env.app.handle(r) });
  mkdirSync(join(ROOT, ".tmp"), { recursive: true });
  dir = mkdtempSync(join(ROOT, ".tmp", "openapi-client-"));
});
afterAll(async () => {
  await server.stop();
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

it("a client generated with openapi-typescript type-checks and calls the API with openapi-fetch", async () => {
  const base = `http://127.0.0.1:${server.port}`;
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  const doc = await (await fetch(`${base}/api/public/openapi.json`)).json();
  await Bun.write(join(dir, "api.ts"), astToString(await openapiTS(doc)));
  await Bun.write(join(dir, "client.ts"), CLIENT);
  await Bun.write(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "bundler",
        lib: ["ES2023", "DOM"],
        types: ["bun"],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      files: ["client.ts"],
    }),
  );

  // Asynchronous: the server answering the client runs in this very process.
  const exec = async (cmd: string[], extraEnv: Record<string, string> = {}) => {
    const proc = Bun.spawn(cmd, { cwd: dir, env: { ...process.env, ...extraEnv }, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { stdout, stderr, code };
  };
  const tsc = await exec([join(ROOT, "node_modules", ".bin", "tsc"), "-p", dir]);
  expect(tsc.stdout + tsc.stderr).toBe("");
  expect(tsc.code).toBe(0);

  const run = await exec([process.execPath, join(dir, "client.ts")], { BASE_URL: base, API_KEY: env.key });
  expect(run.stderr).toBe("");
  expect(JSON.parse(run.stdout)).toEqual({
    clubId: env.clubId,
    added: 201,
    isManual: true,
    webCard: expect.stringContaining("/c/"),
    refusal: [409, "MEMBER_EMAIL_TAKEN"],
    listed: [1, ["emilie.rochat@example.org"]],
    event: [201, true, "public", 0],
  });
});
