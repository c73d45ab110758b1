// A lighter start (docs/decisions.md): the real server (`bun app/main.ts`) loads at start only
// what every request needs. The wallet libraries, nodemailer, qrcode, the PDF writer, the MCP
// SDK, Stripe's package, the XML parser, the Markdown renderer and the dashboard are loaded by the first request
// that needs each of them, and by no other. What the process
// has loaded is read from inside it: a preloaded script writes Bun's module list on SIGUSR2.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApplePki, makeApplePki } from "../cards/apple-fixtures";
import { type FakeGoogle, fakeGoogle } from "../google-fake";
import { type ServerProcess, startServer } from "../reliability/server-process";

/** An installed package's files: under node_modules/<name>/ or in Bun's cache as <name>@<version>/. */
const pkg = (name: string) => new RegExp(`/${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(@[^/]*)?/`);

/** What only some requests need, by the path of a module that shows it is loaded. */
const HEAVY = {
  qrcode: pkg("qrcode"),
  nodemailer: pkg("nodemailer"),
  pdf: /\/lib\/pdf\//,
  passkit: pkg("passkit-generator"),
  forge: pkg("node-forge"),
  jose: pkg("jose"),
  mcp: pkg("@modelcontextprotocol/server"),
  // The package, not lib/stripe/ (which loads at start, the package inside it on first use).
  stripe: /\/node_modules\/stripe\/|\/stripe@[^/]*\//,
  xml: pkg("fast-xml-parser"),
  markdown: pkg("markdown-it"),
  // The dashboard's pages (app/index.ts): a server used only through the API never loads them.
  dashboard: /\/dashboard\/pages\//,
} as const;
type Heavy = keyof typeof HEAVY;

const dir = mkdtempSync(join(tmpdir(), "club-lazy-start-"));
const listFile = join(dir, "modules.json");
let apple: ApplePki;
let google: FakeGoogle;
let server: ServerProcess;
let auth: Record<string, string>;
let clubId: string;
let member: { id: string; pass_serial_number: string };

/** The heavy dependencies the server process holds now. */
async function loaded(): Promise<Heavy[]> {
  rmSync(listFile, { force: true });
  server.proc.kill("SIGUSR2");
  const deadline = Date.now() + 5_000;
  while (!existsSync(listFile)) {
    if (Date.now() > deadline) throw new Error("the server wrote no module list");
    await Bun.sleep(20);
  }
  const paths = (JSON.parse(readFileSync(listFile, "utf8")) as string[]).map((p) => p.replaceAll("\\", "/"));
  return (Object.keys(HEAVY) as Heavy[]).filter((name) => paths.some((p) => HEAVY[name].test(p)));
}

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(server.base + path, { redirect: "manual", ...init });
  await res.arrayBuffer();
  return res;
}

beforeAll(async () => {
  [apple, google] = await Promise.all([makeApplePki(), fakeGoogle()]);
  server = await startServer(
    join(dir, "club.db"),
    {
      ...apple.env(),
      ...google.env,
      OUTBOX_DIR: join(dir, "outbox"),
      MODULE_LIST_FILE: listFile,
      // Card payments on: the Stripe webhook exists (its signature is checked by the package).
      STRIPE_SECRET_KEY: "sk_test_lazy",
      STRIPE_WEBHOOK_SECRET: "whsec_lazy",
    },
    { preload: join(import.meta.dir, "module-list.preload.ts") },
  );
  auth = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
  clubId = server.clubId as string;
});

afterAll(async () => {
  await server?.stop();
  google?.stop();
  apple?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("bun app/main.ts: what only some requests need loads with the first of them", () => {
  it("at start (first club made, a member added, /health) none of them is loaded", async () => {
    const res = await fetch(`${server.base}/api/clubs/${clubId}/members/manual`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ first_name: "Léa", last_name: "Favre", email: "lea@example.org", membership_end: "2030-06-30" }),
    });
    expect(res.status).toBe(201);
    member = await res.json();
    expect((await call("/health")).status).toBe(200);
    expect(await loaded()).toEqual([]);
  });

  it("the web card page loads qrcode, and only it", async () => {
    expect((await call(`/c/${member.pass_serial_number}`)).status).toBe(200);
    expect(await loaded()).toEqual(["qrcode"]);
  });

  it("the card email loads nodemailer", async () => {
    const res = await call(`/api/clubs/${clubId}/members/${member.id}/send-card-email`, { method: "POST", headers: auth });
    expect(res.status).toBe(200);
    expect(await loaded()).toEqual(["qrcode", "nodemailer"]);
  });

  it("the PDF roster loads the PDF writer", async () => {
    expect((await call(`/api/clubs/${clubId}/members/export?format=pdf`, { headers: auth })).status).toBe(200);
    expect(await loaded()).toEqual(["qrcode", "nodemailer", "pdf"]);
  });

  it("an Apple Wallet pass loads passkit-generator (and node-forge with it)", async () => {
    expect((await call(`/c/${member.pass_serial_number}/pass.pkpass`)).status).toBe(200);
    expect(await loaded()).toEqual(["qrcode", "nodemailer", "pdf", "passkit", "forge"]);
  });

  it("a Google Wallet link loads jose", async () => {
    expect((await call(`/c/${member.pass_serial_number}/google`)).status).toBe(302);
    expect(await loaded()).toEqual(["qrcode", "nodemailer", "pdf", "passkit", "forge", "jose"]);
  });

  it("a Stripe event loads Stripe's package, to check its signature", async () => {
    const res = await call("/api/webhooks/stripe", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    expect(await loaded()).toEqual(["qrcode", "nodemailer", "pdf", "passkit", "forge", "jose", "stripe"]);
  });

  it("a camt.054 bank file loads the XML parser", async () => {
    const res = await call(`/api/clubs/${clubId}/payments/import?dry_run=true`, {
      method: "POST",
      headers: { authorization: auth.authorization, "content-type": "application/xml" },
      body: '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn/></Document>',
    });
    expect(res.status).toBeLessThan(500);
    expect(await loaded()).toEqual(["qrcode", "nodemailer", "pdf", "passkit", "forge", "jose", "stripe", "xml"]);
  });

  it("a mailing's preview loads the Markdown renderer", async () => {
    const draft = await fetch(`${server.base}/api/clubs/${clubId}/mailings`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ subject: "News", body_markdown: "**Hello**" }),
    });
    expect(draft.status).toBe(201);
    const { id } = (await draft.json()) as { id: string };
    expect((await call(`/api/clubs/${clubId}/mailings/${id}/preview?member_id=${member.id}`, { headers: auth })).status).toBe(200);
    expect(await loaded()).toEqual(["qrcode", "nodemailer", "pdf", "passkit", "forge", "jose", "stripe", "xml", "markdown"]);
  });

  it("the dashboard's first page loads the dashboard", async () => {
    const res = await call("/admin/login");
    expect(res.status).toBe(200);
    expect(await loaded()).toEqual(["qrcode", "nodemailer", "pdf", "passkit", "forge", "jose", "stripe", "xml", "markdown", "dashboard"]);
  });

  it("the first MCP request loads the MCP SDK", async () => {
    const res = await call("/mcp", {
      method: "POST",
      headers: { ...auth, accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
      }),
    });
    expect(res.status).toBe(200);
    expect(await loaded()).toEqual(Object.keys(HEAVY) as Heavy[]);
  });
});
