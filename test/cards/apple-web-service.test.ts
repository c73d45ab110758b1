// The PassKit web service, walked as a phone would: register a device for a pass (201, then
// 200), refused without the pass's token (401), the serials updated since a tag, the latest pass
// with If-Modified-Since (304, then 200 after a change), the log, and unregister; with what the
// database holds after each step.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { appleRegistrations, members } from "../../db/schema";
import { lastModifiedFor, PASSKIT_RATE_PER_MINUTE } from "../../lib/cards/apple/web-service";
import { setup, type TestEnv } from "../helpers";
import { memberRow, seedMember } from "../members-fixtures";
import { type ApplePki, makeApplePki, PASS_TYPE_ID, readJson, unzipPass } from "./apple-fixtures";

let pki: ApplePki;
let env: TestEnv;
beforeAll(async () => {
  pki = await makeApplePki();
  env = await setup(pki.env());
});
afterAll(async () => {
  await env.close();
  pki.close();
});

const WS = "/api/passkit/v1";

async function req(method: string, path: string, opts: { token?: string | null; body?: unknown; headers?: Record<string, string>; ip?: string } = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `ApplePass ${opts.token}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  const res = await env.app.handle(
    new Request(`http://localhost${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) }),
    opts.ip ?? null,
  );
  return res;
}

/** A member whose pass a phone has downloaded: its serial and token, its last change a minute ago. */
async function installedMember() {
  const m = await seedMember(env);
  const aMinuteAgo = new Date(Date.now() - 60_000).toISOString();
  await env.db.tx((t) => t.update(members).set({ pass_updated_at: aMinuteAgo }).where(eq(members.id, m.id)));
  const res = await req("GET", `/c/${m.pass_serial_number}/pass.pkpass`);
  const pass = readJson(unzipPass(new Uint8Array(await res.arrayBuffer()))["pass.json"]);
  return { id: m.id, serial: m.pass_serial_number as string, token: pass.authenticationToken as string, changedAt: aMinuteAgo };
}

const regsOf = (memberId: string) => env.db.read.select().from(appleRegistrations).where(eq(appleRegistrations.member_id, memberId));
const registrationPath = (device: string, serial: string, passType = PASS_TYPE_ID) => `${WS}/devices/${device}/registrations/${passType}/${serial}`;

describe("a phone's walk through the web service", () => {
  it("registers, lists the changed serials, gets the pass only when changed, logs and unregisters", async () => {
    const m = await installedMember();
    const before = await memberRow(env, m.id);
    expect(before.has_wallet_a).toBe(false);
    expect(before.card_installed_at).toBeNull();

    // Refused: no token, a wrong token, an unknown serial (401); another pass type (404). Nothing stored.
    expect((await req("POST", registrationPath("device-1", m.serial), { body: { pushToken: "tok-1" } })).status).toBe(401);
    // Its last character changed, whatever it is (an `x` put in place of an `x` was the right token: a 1-in-62 failure).
    const wrongToken = `${m.token.slice(0, -1)}${m.token.endsWith("x") ? "y" : "x"}`;
    expect(wrongToken).not.toBe(m.token);
    const wrong = await req("POST", registrationPath("device-1", m.serial), { token: wrongToken, body: { pushToken: "tok-1" } });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).code).toBe("PASS_UNAUTHORIZED");
    expect((await req("POST", registrationPath("device-1", "unknown-serial"), { token: m.token, body: { pushToken: "tok-1" } })).status).toBe(401);
    expect((await req("POST", registrationPath("device-1", m.serial, "pass.other.type"), { token: m.token, body: { pushToken: "tok-1" } })).status).toBe(404);
    // A bearer-style header is no API key here: still the pass's own 401, not the API's.
    const bearer = await req("POST", registrationPath("device-1", m.serial), { headers: { authorization: `Bearer ${env.key}` }, body: { pushToken: "tok-1" } });
    expect(bearer.status).toBe(401);
    expect((await bearer.json()).code).toBe("PASS_UNAUTHORIZED");
    expect(await regsOf(m.id)).toHaveLength(0);
    expect((await memberRow(env, m.id)).has_wallet_a).toBe(false);

    // Register: 201, then 200 for the same device and pass (the push token refreshed).
    const created = await req("POST", registrationPath("device-1", m.serial), { token: m.token, body: { pushToken: "tok-1" } });
    expect(created.status).toBe(201);
    let regs = await regsOf(m.id);
    expect(regs).toHaveLength(1);
    expect(regs[0]).toMatchObject({ device_library_id: "device-1", pass_type_id: PASS_TYPE_ID, push_token: "tok-1", club_id: env.clubId });
    const installed = await memberRow(env, m.id);
    expect(installed.has_wallet_a).toBe(true);
    expect(installed.card_installed_at).toBeString();
    const again = await req("POST", registrationPath("device-1", m.serial), { token: m.token, body: { pushToken: "tok-1b" } });
    expect(again.status).toBe(200);
    regs = await regsOf(m.id);
    expect(regs).toHaveLength(1);
    expect(regs[0].push_token).toBe("tok-1b");
    expect((await memberRow(env, m.id)).card_installed_at).toBe(installed.card_installed_at);
    // A body without pushToken is refused.
    expect((await req("POST", registrationPath("device-1", m.serial), { token: m.token, body: {} })).status).toBe(422);

    // Serials: every pass of the device without a tag; none since the tag given (204).
    const listPath = `${WS}/devices/device-1/registrations/${PASS_TYPE_ID}`;
    const all = await req("GET", listPath);
    expect(all.status).toBe(200);
    const listed = await all.json();
    expect(listed).toEqual({ serialNumbers: [m.serial], lastUpdated: m.changedAt });
    expect((await req("GET", `${listPath}?passesUpdatedSince=${encodeURIComponent(listed.lastUpdated)}`)).status).toBe(204);
    expect((await req("GET", `${WS}/devices/unknown-device/registrations/${PASS_TYPE_ID}`)).status).toBe(204);

    // The latest pass: 401 without the token; 304 while the phone's copy is current.
    const passPath = `${WS}/passes/${PASS_TYPE_ID}/${m.serial}`;
    expect((await req("GET", passPath)).status).toBe(401);
    const full = await req("GET", passPath, { token: m.token });
    expect(full.status).toBe(200);
    expect(full.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    const lastModified = full.headers.get("last-modified") as string;
    expect(Date.parse(lastModified)).toBe(Math.ceil(Date.parse(m.changedAt) / 1000) * 1000);
    const notModified = await req("GET", passPath, { token: m.token, headers: { "if-modified-since": lastModified } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");

    // The club changes its card link: the pass changed now; the device lists it, and gets it in full.
    const put = await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: "https://club.example.org/news" } });
    expect(put.status).toBe(200);
    const changed = await req("GET", `${listPath}?passesUpdatedSince=${encodeURIComponent(listed.lastUpdated)}`);
    expect(changed.status).toBe(200);
    const changedList = await changed.json();
    expect(changedList.serialNumbers).toEqual([m.serial]);
    expect(changedList.lastUpdated > listed.lastUpdated).toBe(true);
    const updated = await req("GET", passPath, { token: m.token, headers: { "if-modified-since": lastModified } });
    expect(updated.status).toBe(200);
    const pass = readJson(unzipPass(new Uint8Array(await updated.arrayBuffer()))["pass.json"]);
    expect(pass.storeCard.backFields.find((f: { key: string }) => f.key === "custom_link").value).toBe("https://club.example.org/news");

    // Log: accepted.
    expect((await req("POST", `${WS}/log`, { body: { logs: ["[2026-01-01] Web service error for pass.x: bad answer"] } })).status).toBe(200);

    // A second phone; the first one leaves: the member still has the pass; the second leaves too: no more.
    expect((await req("POST", registrationPath("device-2", m.serial), { token: m.token, body: { pushToken: "tok-2" } })).status).toBe(201);
    expect((await req("DELETE", registrationPath("device-1", m.serial))).status).toBe(401);
    expect(await regsOf(m.id)).toHaveLength(2);
    expect((await req("DELETE", registrationPath("device-1", m.serial), { token: m.token })).status).toBe(200);
    regs = await regsOf(m.id);
    expect(regs.map((r) => r.device_library_id)).toEqual(["device-2"]);
    expect((await memberRow(env, m.id)).has_wallet_a).toBe(true);
    expect((await req("DELETE", registrationPath("device-2", m.serial), { token: m.token })).status).toBe(200);
    expect(await regsOf(m.id)).toHaveLength(0);
    const gone = await memberRow(env, m.id);
    expect(gone.has_wallet_a).toBe(false);
    // The first install stays recorded.
    expect(gone.card_installed_at).toBe(installed.card_installed_at);
  });

  it("a device holding several passes gets the serials of those that changed only", async () => {
    const a = await installedMember();
    const b = await installedMember();
    for (const m of [a, b])
      expect((await req("POST", registrationPath("device-3", m.serial), { token: m.token, body: { pushToken: "tok-3" } })).status).toBe(201);
    const listPath = `${WS}/devices/device-3/registrations/${PASS_TYPE_ID}`;
    const first = await (await req("GET", listPath)).json();
    expect(first.serialNumbers).toEqual([a.serial, b.serial].sort());
    const ext = await env.call("POST", `/api/clubs/${env.clubId}/members/${b.id}/actions/extend`, { body: { extend_months: 1 } });
    expect(ext.status).toBe(200);
    const next = await (await req("GET", `${listPath}?passesUpdatedSince=${encodeURIComponent(first.lastUpdated)}`)).json();
    expect(next.serialNumbers).toEqual([b.serial]);
  });

  it("a passkit route never reads the header as an API key, and a wrong token gets no pass", async () => {
    const m = await installedMember();
    const res = await req("GET", `${WS}/passes/${PASS_TYPE_ID}/${m.serial}`, { token: "not-the-token-of-this-pass" });
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("application/json");
  });

  it("ignores an If-Modified-Since in the future: the pass is sent in full", async () => {
    const m = await installedMember();
    const passPath = `${WS}/passes/${PASS_TYPE_ID}/${m.serial}`;
    const future = new Date(Date.now() + 3600_000).toUTCString();
    const res = await req("GET", passPath, { token: m.token, headers: { "if-modified-since": future } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    expect(readJson(unzipPass(new Uint8Array(await res.arrayBuffer()))["pass.json"]).serialNumber).toBe(m.serial);
  });

  it("is rate-limited per client address", async () => {
    const path = `${WS}/devices/device-x/registrations/${PASS_TYPE_ID}`;
    for (let i = 0; i < PASSKIT_RATE_PER_MINUTE; i++) expect((await req("GET", path, { ip: "203.0.113.9" })).status).toBe(204);
    const refused = await req("GET", path, { ip: "203.0.113.9" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await req("GET", path, { ip: "203.0.113.10" })).status).toBe(204);
  });
});

describe("Last-Modified", () => {
  it("is the change's second rounded up, but never later than the second before the answer", () => {
    const served = Date.parse("2026-03-01T12:00:10.400Z");
    expect(lastModifiedFor("2026-03-01T11:00:00.300Z", served).toISOString()).toBe("2026-03-01T11:00:01.000Z");
    expect(lastModifiedFor("2026-03-01T11:00:00.000Z", served).toISOString()).toBe("2026-03-01T11:00:00.000Z");
    // Changed within the last second: dated earlier than the change, so the next fetch gets it in full.
    expect(lastModifiedFor("2026-03-01T12:00:10.100Z", served).toISOString()).toBe("2026-03-01T12:00:09.000Z");
  });
});
