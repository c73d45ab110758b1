// The dashboard's audit log page through app.handle: rows of the API, MCP and dashboard, readable
// (the admin's email, the key's prefix), filtered by key, transport, path, request id and days,
// paged; a bad filter shown beside its field; a read-only admin reads it with nothing to post.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { setup } from "../helpers";
import { browser, type Env } from "./helpers";

let env: Env;
let owner: ReturnType<typeof browser>;
let keyPrefix = "";
let requestId = "";
beforeAll(async () => {
  env = await setup();
  owner = browser(env);
  await owner.signIn();
  const key = await env.makeKey({ members: "view" });
  keyPrefix = key.slice(0, 12);
  const res = await env.call("GET", `/api/clubs/${env.clubId}/members`, { key });
  requestId = res.headers.get("x-request-id")!;
  await env.call("GET", `/api/clubs/${env.clubId}/events`);
  // A dashboard write (refused: no name), audited with via dashboard.
  await owner.post("/admin/settings/identity", { name: "" }, "/admin/settings");
  await env.app.audit.drain();
});
afterAll(() => env.close());

const rowsOf = (text: string) => [...text.matchAll(/<tr><td data-label="Quand \(Europe\/Zurich\)">/g)].length;

describe("audit log", () => {
  it("lists every transport's rows, readable, newest first", async () => {
    const page = await owner.request("GET", "/admin/audit");
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<code title="/api/clubs/${env.clubId}/members">GET /api/clubs/…/members</code>`);
    expect(page.text).toContain(">POST /admin/settings/identity</code>");
    expect(page.text).toContain("owner@test.org");
    expect(page.text).toContain(`clé ${keyPrefix}…`);
    expect(page.text).toContain("Tableau de bord");
    expect(page.text.indexOf("/admin/settings/identity")).toBeLessThan(page.text.indexOf(`/api/clubs/${env.clubId}/members"`));
  });

  it("filters by key, transport, path, request id and days", async () => {
    const byKey = await owner.request("GET", `/admin/audit?key_prefix=${keyPrefix}`);
    expect(rowsOf(byKey.text)).toBe(1);
    expect(byKey.text).toContain(`/api/clubs/${env.clubId}/members"`);
    const dashboard = await owner.request("GET", "/admin/audit?via=dashboard");
    expect(dashboard.text).toContain("/admin/settings/identity");
    expect(dashboard.text).not.toContain(`/api/clubs/${env.clubId}/members"`);
    const byPath = await owner.request("GET", `/admin/audit?path=${encodeURIComponent(`/api/clubs/${env.clubId}/ev`)}`);
    expect(rowsOf(byPath.text)).toBe(1);
    expect(byPath.text).toContain("/events</code>");
    const byRequest = await owner.request("GET", `/admin/audit?request_id=${requestId}`);
    expect(rowsOf(byRequest.text)).toBe(1);
    const past = await owner.request("GET", "/admin/audit?from=2001-01-01&to=2001-12-31");
    expect(rowsOf(past.text)).toBe(0);
    expect(past.text).toContain("Aucune ligne ne correspond.");
    // The filters stay in the form.
    expect(past.text).toContain('value="2001-01-01"');
  });

  it("pages by 50", async () => {
    for (let i = 0; i < 50; i++) await env.call("GET", "/api/auth/me");
    await env.app.audit.drain();
    const first = await owner.request("GET", "/admin/audit?via=http");
    expect(rowsOf(first.text)).toBe(50);
    expect(first.text).toContain('href="/admin/audit?via=http&amp;page=2"');
    const second = await owner.request("GET", "/admin/audit?via=http&page=2");
    expect(rowsOf(second.text)).toBeGreaterThan(0);
    expect(second.text).toContain("Page 2 sur 2");
  });

  it("shows a bad filter beside its field (422)", async () => {
    const res = await owner.request("GET", "/admin/audit?from=hier");
    expect(res.status).toBe(422);
    expect(res.text).toContain('id="f-from-error"');
  });

  it("shows a read-only admin the log (a read), with no form that writes", async () => {
    const ro = await env.makeAdmin({ readOnly: true });
    const viewer = browser(env);
    await viewer.signIn(ro.email, "admin-password");
    const page = await viewer.request("GET", "/admin/audit");
    expect(page.status).toBe(200);
    expect(page.text.match(/method="post"/g)?.length).toBe(1); // sign-out only
  });
});
