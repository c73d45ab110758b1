// Pushes to phones holding a changed Apple Wallet pass: a PUT of `card_custom_link_url` (SPEC
// side effect) queues the update, the update fans out into one push job per device token, and
// each push reaches a local HTTP/2 TLS server standing in for APNs, made with the pass
// certificate as TLS client certificate. A 500 is retried, a 410 forgets the device, a 400 stops.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { appleRegistrations, clubs, jobs } from "../../db/schema";
import { APPLE_PUSH, closeApnsConnections } from "../../lib/cards/apple/apns";
import { WALLET_PASS_UPDATE } from "../../lib/passes";
import { loadConfig } from "../../lib/config";
import { runDueJobs } from "../../lib/jobs";
import { setup, type TestEnv } from "../helpers";
import { memberRow, seedMember } from "../members-fixtures";
import { type ApplePki, makeApplePki, PASS_TYPE_ID, readJson, startFakeApns, unzipPass } from "./apple-fixtures";
import { JOB_KINDS } from "../../server/jobs";

let pki: ApplePki;
let apns: Awaited<ReturnType<typeof startFakeApns>>;
let env: TestEnv;
beforeAll(async () => {
  pki = await makeApplePki();
  apns = await startFakeApns(pki);
  env = await setup(pki.env(apns.url));
});
afterAll(async () => {
  closeApnsConnections();
  await apns.close();
  await env.close();
  pki.close();
});
afterEach(async () => {
  apns.received.length = 0;
  apns.reply(() => ({ status: 200 }));
  await env.db.tx(async (t) => {
    await t.delete(jobs);
    await t.delete(appleRegistrations);
  });
});

/** A member with a downloaded pass registered on `device` with `pushToken`. */
async function onPhone(device: string, pushToken: string, member?: { id: string; pass_serial_number: string }) {
  const m = member ?? (await seedMember(env));
  const res = await env.app.handle(new Request(`http://localhost/c/${m.pass_serial_number}/pass.pkpass`));
  const token = readJson(unzipPass(new Uint8Array(await res.arrayBuffer()))["pass.json"]).authenticationToken;
  const reg = await env.app.handle(
    new Request(`http://localhost/api/passkit/v1/devices/${device}/registrations/${PASS_TYPE_ID}/${m.pass_serial_number}`, {
      method: "POST",
      headers: { authorization: `ApplePass ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ pushToken }),
    }),
  );
  expect(reg.status).toBe(201);
  return m;
}

const jobsOf = async (kind: string) => (await env.db.read.select().from(jobs)).filter((j) => j.kind === kind);
/** Runs the due jobs twice: the update fans out, then its pushes go. Returns the clock of the pushes. */
async function deliver(): Promise<Date> {
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date() });
  const now = new Date();
  await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now });
  return now;
}

describe("pushes after a change", () => {
  it("a PUT of card_custom_link_url pushes once to each device token holding a pass of the club, with the pass certificate", async () => {
    const a = await onPhone("device-1", "aaaa1111");
    await onPhone("device-1", "aaaa1111"); // a second pass on the same phone: still one push
    await onPhone("device-2", "bbbb2222");
    const put = await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: "https://club.example.org/new" } });
    expect(put.status).toBe(200);
    await deliver();

    const [update] = await jobsOf(WALLET_PASS_UPDATE);
    expect(update).toMatchObject({ status: "done", outcome: "deliveries queued (apple: 2)", payload: { reason: "card_custom_link_url" } });
    const pushes = await jobsOf(APPLE_PUSH);
    expect(pushes.map((j) => j.payload.push_token).sort()).toEqual(["aaaa1111", "bbbb2222"]);
    for (const j of pushes) expect(j).toMatchObject({ status: "done", attempts: 1, outcome: "APNs 200" });
    const [club] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expect(club.last_wallet_push_at).toBeString();

    expect(apns.received.map((r) => r.path).sort()).toEqual(["/3/device/aaaa1111", "/3/device/bbbb2222"]);
    for (const r of apns.received) {
      expect(r.headers[":method"]).toBe("POST");
      expect(r.headers["apns-topic"]).toBe(PASS_TYPE_ID);
      expect(r.headers["apns-push-type"]).toBe("background");
      expect(r.headers["apns-priority"]).toBe("5");
      expect(r.body).toBe("{}");
      expect(r.clientFingerprint).toBe(pki.passCertFingerprint);
    }
    expect((await memberRow(env, a.id)).has_wallet_a).toBe(true);
  });

  it("a member's own change pushes only to that member's devices", async () => {
    const a = await onPhone("device-1", "aaaa1111");
    await onPhone("device-2", "bbbb2222");
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${a.id}/actions/suspend`, { body: {} });
    expect(res.status).toBe(200);
    await deliver();
    expect(apns.received.map((r) => r.path)).toEqual(["/3/device/aaaa1111"]);
  });

  it("a club-wide change pushes to the club's devices only, never to another club's", async () => {
    const other = await env.otherClub();
    await onPhone("device-9", "zzzz9999", await seedMember(env, {}, other.club_id));
    await onPhone("device-1", "aaaa1111");
    const put = await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: "https://club.example.org/ours" } });
    expect(put.status).toBe(200);
    await deliver();
    expect(apns.received.map((r) => r.path)).toEqual(["/3/device/aaaa1111"]);
    expect((await jobsOf(APPLE_PUSH)).map((j) => j.payload.push_token)).toEqual(["aaaa1111"]);
  });

  it("an APNs 410 removes the device's registrations in the pushing club only", async () => {
    const other = await env.otherClub();
    // One phone (one push token) holds a pass of each club.
    const theirs = await onPhone("device-1", "aaaa1111", await seedMember(env, {}, other.club_id));
    const ours = await onPhone("device-1", "aaaa1111");
    apns.reply(() => ({ status: 410, reason: "Unregistered" }));
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: "https://club.example.org/gone-here" } });
    await deliver();
    const [push] = await jobsOf(APPLE_PUSH);
    expect(push).toMatchObject({ status: "done", outcome: "APNs 410 Unregistered: device registrations removed" });
    const regs = await env.db.read.select().from(appleRegistrations);
    expect(regs.map((r) => [r.club_id, r.member_id])).toEqual([[other.club_id, theirs.id]]);
    expect((await memberRow(env, ours.id)).has_wallet_a).toBe(false);
    expect((await memberRow(env, theirs.id)).has_wallet_a).toBe(true);
  });

  it("an APNs 500 is retried later with its outcome kept, then delivered", async () => {
    await onPhone("device-1", "aaaa1111");
    apns.reply(() => ({ status: 500, reason: "InternalServerError" }));
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: "https://club.example.org/retry" } });
    const start = await deliver();
    let [push] = await jobsOf(APPLE_PUSH);
    expect(push).toMatchObject({ status: "pending", attempts: 1, outcome: "APNs 500 InternalServerError" });
    expect(Date.parse(push.run_after) - start.getTime()).toBe(2000);
    apns.reply(() => ({ status: 200 }));
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config, now: new Date(start.getTime() + 2000) });
    [push] = await jobsOf(APPLE_PUSH);
    expect(push).toMatchObject({ status: "done", attempts: 2, outcome: "APNs 200", last_error: null });
    expect(apns.received).toHaveLength(2);
  });

  it("an APNs 410 forgets that device; the member without another device no longer has the pass", async () => {
    const a = await onPhone("device-1", "aaaa1111");
    const b = await onPhone("device-2", "bbbb2222");
    await onPhone("device-3", "cccc3333", b);
    apns.reply((r) => (r.path.endsWith("aaaa1111") || r.path.endsWith("bbbb2222") ? { status: 410, reason: "Unregistered" } : { status: 200 }));
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: "https://club.example.org/gone" } });
    await deliver();
    const pushes = await jobsOf(APPLE_PUSH);
    const byToken = Object.fromEntries(pushes.map((j) => [j.payload.push_token, j]));
    expect(byToken.aaaa1111).toMatchObject({ status: "done", outcome: "APNs 410 Unregistered: device registrations removed" });
    expect(byToken.cccc3333).toMatchObject({ status: "done", outcome: "APNs 200" });
    const regs = await env.db.read.select().from(appleRegistrations);
    expect(regs.map((r) => r.push_token)).toEqual(["cccc3333"]);
    expect((await memberRow(env, a.id)).has_wallet_a).toBe(false);
    expect((await memberRow(env, b.id)).has_wallet_a).toBe(true);
  });

  it("an APNs 400 stops at once; an unreachable APNs is retried", async () => {
    await onPhone("device-1", "aaaa1111");
    apns.reply(() => ({ status: 400, reason: "BadDeviceToken" }));
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: "https://club.example.org/bad" } });
    await deliver();
    let [push] = await jobsOf(APPLE_PUSH);
    expect(push).toMatchObject({ status: "failed", attempts: 1, outcome: "APNs 400 BadDeviceToken" });
    expect(await env.db.read.select().from(appleRegistrations)).toHaveLength(1);

    await env.db.tx((t) => t.delete(jobs));
    // Nothing listens on port 9 of this machine.
    const down = loadConfig({ ...pki.env("https://localhost:9"), DATABASE_URL: env.config.databaseUrl, BASE_URL: "http://localhost" });
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: "https://club.example.org/down" } });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: down, now: new Date() });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: down, now: new Date() });
    [push] = await jobsOf(APPLE_PUSH);
    expect(push.status).toBe("pending");
    expect(push.attempts).toBe(1);
    expect(push.outcome).toStartWith("APNs unreachable");

    // The stand-in's certificate is trusted only through APNS_CA_FILE: without it, no push leaves.
    await env.db.tx((t) => t.delete(jobs));
    const untrusted = loadConfig({ ...pki.env(), APNS_URL: apns.url, DATABASE_URL: env.config.databaseUrl, BASE_URL: "http://localhost" });
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_custom_link_url: "https://club.example.org/untrusted" } });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: untrusted, now: new Date() });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config: untrusted, now: new Date() });
    [push] = await jobsOf(APPLE_PUSH);
    expect(push).toMatchObject({ status: "pending", attempts: 1 });
    expect(push.outcome).toStartWith("APNs unreachable");
    expect(apns.received).toHaveLength(1);
  });
});
