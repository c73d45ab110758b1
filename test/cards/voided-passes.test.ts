// The wallet copies of an erased member's card (issue 12 item 1, lib/passes/voided): after DELETE
// .../members/<id>, each phone holding the Apple pass gets a push (a local HTTP/2 server stands in
// for APNs), lists the serial once, and fetches a signed void pass that shows only the club; the
// Google object is written INACTIVE without the member's fields (a local server stands in for
// Google); 30 days on, the tombstone and its devices are gone.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { jobs, voidedPassDevices, voidedPasses } from "../../db/schema";
import { APPLE_PUSH, closeApnsConnections } from "../../lib/cards/apple/apns";
import { runDueJobs } from "../../lib/jobs";
import { VOIDED_PASS_FORGET } from "../../lib/passes/voided";
import { JOB_KINDS } from "../../server/jobs";
import { type FakeGoogle, fakeGoogle, ISSUER_ID } from "../google-fake";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";
import { type ApplePki, makeApplePki, PASS_TYPE_ID, readJson, startFakeApns, unzipPass } from "./apple-fixtures";

let pki: ApplePki;
let apns: Awaited<ReturnType<typeof startFakeApns>>;
let google: FakeGoogle;
let env: TestEnv;
beforeAll(async () => {
  pki = await makeApplePki();
  apns = await startFakeApns(pki);
  google = await fakeGoogle();
  env = await setup({ ...pki.env(apns.url), ...google.env });
});
afterAll(async () => {
  closeApnsConnections();
  await apns.close();
  await env.close();
  google.stop();
  pki.close();
});

const FIRST = "Ottilie";
const LAST = "Wolkenstein";
const EMAIL = "ottilie.wolkenstein@void-test.org";

const passkit = (path: string, token: string | null, init: RequestInit = {}) =>
  env.app.handle(
    new Request(`http://localhost/api/passkit/v1${path}`, {
      ...init,
      headers: { ...(token ? { authorization: `ApplePass ${token}` } : {}), "content-type": "application/json" },
    }),
  );

async function drain(now = new Date()) {
  for (let i = 0; i < 5; i++) if ((await runDueJobs(env.db, { kinds: JOB_KINDS, now, config: env.config })) === 0) return;
}

/** A member whose Apple pass is on two phones and whose Google card is saved. */
async function inBothWallets() {
  const m = await seedMember(env, { first_name: FIRST, last_name: LAST, email: EMAIL });
  const res = await env.app.handle(new Request(`http://localhost/c/${m.pass_serial_number}/pass.pkpass`));
  const token: string = readJson(unzipPass(new Uint8Array(await res.arrayBuffer()))["pass.json"]).authenticationToken;
  for (const [device, pushToken] of [
    ["device-v1", "vvvv1111"],
    ["device-v2", "vvvv2222"],
  ]) {
    const reg = await passkit(`/devices/${device}/registrations/${PASS_TYPE_ID}/${m.pass_serial_number}`, token, {
      method: "POST",
      body: JSON.stringify({ pushToken }),
    });
    expect(reg.status).toBe(201);
  }
  expect((await env.call("GET", `/c/${m.pass_serial_number}/google`, { key: null })).status).toBe(302);
  await drain();
  await env.db.tx((t) => t.delete(jobs));
  apns.received.length = 0;
  google.requests.length = 0;
  return { ...m, token };
}

describe("erasure voids the wallet copies of the card", () => {
  it("pushes each phone, lists the serial once, serves a signed void pass with nothing of the member, voids the Google object, forgets it all after 30 days", async () => {
    const m = await inBothWallets();
    const serial = m.pass_serial_number;
    const del = await env.call("DELETE", `/api/clubs/${env.clubId}/members/${m.id}`);
    expect(del.status).toBe(204);

    // Queued in the erasure's transaction, sent by the worker.
    const queued = await env.db.read.select().from(jobs);
    expect(
      queued
        .filter((j) => j.kind === APPLE_PUSH)
        .map((j) => j.payload.push_token)
        .sort(),
    ).toEqual(["vvvv1111", "vvvv2222"]);
    await drain();
    expect(apns.received.map((r) => r.path).sort()).toEqual(["/3/device/vvvv1111", "/3/device/vvvv2222"]);
    for (const r of apns.received) expect(r.clientFingerprint).toBe(pki.passCertFingerprint);

    // Google: the object replaced by an INACTIVE one without the member's fields.
    // (the fake has no object yet: saving through the link is Google's side, so the PUT's 404 is followed by an insert)
    expect(google.requests.filter((r) => r.path.startsWith("loyaltyObject")).map((r) => `${r.method} ${r.status}`)).toEqual(["PUT 404", "POST 200"]);
    const object = google.object(`${ISSUER_ID}.${serial}`);
    expect(object).toMatchObject({ state: "INACTIVE", textModulesData: [{ body: "Cette carte n'est plus valable." }] });
    const written = JSON.stringify(object);
    for (const text of [FIRST, LAST, EMAIL, m.referral_code]) expect(written).not.toContain(text);
    expect(object.barcode).toBeUndefined();
    expect(object.accountName).toBeUndefined();

    // The device lists the serial once: with the tag it was given, nothing more.
    const list = await passkit(`/devices/device-v1/registrations/${PASS_TYPE_ID}`, null);
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { serialNumbers: string[]; lastUpdated: string };
    expect(listed.serialNumbers).toEqual([serial]);
    const again = await passkit(`/devices/device-v1/registrations/${PASS_TYPE_ID}?passesUpdatedSince=${encodeURIComponent(listed.lastUpdated)}`, null);
    expect(again.status).toBe(204);

    // The pass, with the token the phone holds: signed, void, the club only.
    const res = await passkit(`/passes/${PASS_TYPE_ID}/${serial}`, m.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    const files = unzipPass(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files)).toContain("signature");
    const passJson = readJson(files["pass.json"]);
    expect(passJson).toMatchObject({ voided: true, serialNumber: serial, passTypeIdentifier: PASS_TYPE_ID });
    expect(passJson.barcodes ?? []).toEqual([]);
    expect(passJson.barcode).toBeUndefined();
    expect(passJson.expirationDate).toBeUndefined();
    const text = new TextDecoder().decode(files["pass.json"]);
    for (const t of [FIRST, LAST, EMAIL, m.referral_code]) expect(text).not.toContain(t);
    expect(text).toContain("Cette carte n'est plus valable.");
    // Another token (or none) proves nothing.
    expect((await passkit(`/passes/${PASS_TYPE_ID}/${serial}`, "not-the-token")).status).toBe(401);
    expect((await passkit(`/passes/${PASS_TYPE_ID}/${serial}`, null)).status).toBe(401);
    // The web card and the download stay dead.
    expect((await env.app.handle(new Request(`http://localhost/c/${serial}/pass.pkpass`))).status).toBe(404);

    // What is kept holds nothing of the member.
    const [tomb] = await env.db.read.select().from(voidedPasses).where(eq(voidedPasses.serial, serial));
    expect(Object.keys(tomb).sort()).toEqual(["auth_token_hash", "club_id", "serial", "voided_at"]);
    expect(tomb.auth_token_hash).not.toBe(m.token);

    // A phone that removes the pass is forgotten at once.
    const unreg = await passkit(`/devices/device-v2/registrations/${PASS_TYPE_ID}/${serial}`, m.token, { method: "DELETE" });
    expect(unreg.status).toBe(200);
    expect((await env.db.read.select().from(voidedPassDevices)).map((d) => d.device_library_id)).toEqual(["device-v1"]);

    // 30 days on, the tombstone and its devices go.
    const [forget] = (await env.db.read.select().from(jobs)).filter((j) => j.kind === VOIDED_PASS_FORGET);
    expect(forget.status).toBe("pending");
    await drain(new Date(Date.now() + 31 * 24 * 60 * 60 * 1000));
    expect(await env.db.read.select().from(voidedPasses)).toEqual([]);
    expect(await env.db.read.select().from(voidedPassDevices)).toEqual([]);
    expect((await passkit(`/passes/${PASS_TYPE_ID}/${serial}`, m.token)).status).toBe(401);
    expect((await passkit(`/devices/device-v1/registrations/${PASS_TYPE_ID}`, null)).status).toBe(204);
  });

  it("a member whose Apple pass was never downloaded leaves no tombstone and queues no push", async () => {
    const m = await seedMember(env, { first_name: FIRST, last_name: LAST });
    await env.db.tx((t) => t.delete(jobs));
    expect((await env.call("DELETE", `/api/clubs/${env.clubId}/members/${m.id}`)).status).toBe(204);
    expect(await env.db.read.select().from(voidedPasses).where(eq(voidedPasses.serial, m.pass_serial_number))).toEqual([]);
    expect((await env.db.read.select().from(jobs)).filter((j) => j.kind === APPLE_PUSH)).toEqual([]);
  });
});
