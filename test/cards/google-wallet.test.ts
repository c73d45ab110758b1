// Google Wallet: GET /c/<serial>/google (the signed "save" link), the updates sent to the Wallet
// REST API when a card changes (a local server stands in for Google and checks the signed token),
// the retries, and the product without any Google settings.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { clubs, jobs, members } from "../../db/schema";
import type { Db } from "../../db";
import { googleSaveUrl } from "../../lib/cards/google";
import { SAVE_URL } from "../../lib/cards/google/jwt";
import { placeholderLogo } from "../../lib/cards/google/logo";
import { runDueJobs } from "../../lib/jobs";
import { CLIENT_EMAIL, type FakeGoogle, fakeGoogle, ISSUER_ID, type Json, KEY_ID } from "../google-fake";
import { setup, type TestEnv } from "../helpers";
import { addDays, memberRow, seedMember, todayUtc } from "../members-fixtures";
import { JOB_KINDS } from "../../server/jobs";
import { refusalOf } from "../refusal";

let env: TestEnv;
let google: FakeGoogle;

beforeAll(async () => {
  google = await fakeGoogle();
  env = await setup(google.env);
});
afterAll(async () => {
  await env.close();
  google.stop();
});
beforeEach(async () => {
  await env.db.tx((t) => t.delete(jobs));
  google.requests.length = 0;
  google.failures.length = 0;
});

const classId = () => `${ISSUER_ID}.club-${env.clubId.replace(/-/g, "")}`;
const objectId = (serial: string) => `${ISSUER_ID}.${serial}`;
const jobsOf = async (kind: string) => (await env.db.read.select().from(jobs).where(eq(jobs.kind, kind))).filter((j) => j.club_id === env.clubId);

/** Runs the job worker, `aheadMs` in the future, until nothing more is due (the update job queues the deliveries). */
async function drain(aheadMs = 0) {
  for (let i = 0; i < 5; i++) if ((await runDueJobs(env.db, { kinds: JOB_KINDS, now: new Date(Date.now() + aheadMs), config: env.config })) === 0) return;
}

/** A member who has clicked "save to Google Wallet". */
async function savedMember(over: Parameters<typeof seedMember>[1] = {}) {
  const m = await seedMember(env, over);
  const res = await env.call("GET", `/c/${m.pass_serial_number}/google`, { key: null });
  expect(res.status).toBe(302);
  return m;
}

describe("GET /c/:serial/google", () => {
  it("redirects to Google with a JWT signed by the service account, carrying the club's class and the member's object", async () => {
    const m = await seedMember(env, { first_name: "Léa", last_name: "Favre" });
    const res = await env.call("GET", `/c/${m.pass_serial_number}/google`, { key: null });
    expect(res.status).toBe(302);
    const location = res.headers.get("location") ?? "";
    expect(location.startsWith(SAVE_URL)).toBe(true);
    const jwt = location.slice(SAVE_URL.length);
    const { payload, protectedHeader } = await jwtVerify(jwt, google.publicKey, { issuer: CLIENT_EMAIL, audience: "google", algorithms: ["RS256"] });
    expect(protectedHeader.kid).toBe(KEY_ID);
    expect(payload.typ).toBe("savetowallet");
    expect(payload.origins).toEqual(["http://localhost"]);
    const body = payload.payload as { loyaltyClasses: Json[]; loyaltyObjects: Json[] };
    expect(body.loyaltyClasses).toHaveLength(1);
    expect(body.loyaltyClasses[0]).toMatchObject({ id: classId(), issuerName: "Club de test", programName: "Club de test", reviewStatus: "UNDER_REVIEW" });
    expect(body.loyaltyObjects).toHaveLength(1);
    expect(body.loyaltyObjects[0]).toMatchObject({
      id: objectId(m.pass_serial_number),
      classId: classId(),
      state: "ACTIVE",
      accountName: "Léa Favre",
      accountId: m.referral_code,
      barcode: { type: "QR_CODE", value: m.referral_code },
      validTimeInterval: { start: { date: `${m.membership_start}T00:00:00Z` }, end: { date: `${m.membership_end}T23:59:59Z` } },
    });
    // The click counts as the install of the Google card.
    const row = await memberRow(env, m.id);
    expect(row.has_wallet_b).toBe(true);
    expect(row.card_installed_at).toBeString();
  });

  it("keeps the first install time on later clicks", async () => {
    const m = await savedMember();
    const first = (await memberRow(env, m.id)).card_installed_at;
    await Bun.sleep(5);
    expect((await env.call("GET", `/c/${m.pass_serial_number}/google`, { key: null })).status).toBe(302);
    expect((await memberRow(env, m.id)).card_installed_at).toBe(first);
  });

  it("keeps an earlier Apple install time, even when Apple's install lands between the click's read and its write", async () => {
    const m = await seedMember(env);
    const appleTime = "2024-01-02T03:04:05.000Z";
    // Apple's device registration commits while the click is signing its link (after its read).
    const racing: Db = Object.create(env.db);
    racing.tx = async (fn) => {
      await env.db.tx((t) => t.update(members).set({ has_wallet_a: true, card_installed_at: appleTime }).where(eq(members.id, m.id)));
      return env.db.tx(fn);
    };
    await googleSaveUrl(
      { db: racing, baseUrl: env.config.baseUrl, wallets: env.config.wallets, ip: null, locale: "en", formProofBits: 0 },
      m.pass_serial_number,
    );
    const row = await memberRow(env, m.id);
    expect(row).toMatchObject({ has_wallet_a: true, has_wallet_b: true, card_installed_at: appleTime });
  });

  it("answers 404 for a serial that matches no card, and records nothing", async () => {
    const res = await env.call("GET", "/c/NoSuchSerial123/google", { key: null });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("CARD_NOT_FOUND");
    expect(res.headers.get("location")).toBeNull();
    // The referral code is not the secret of the card's pages.
    const m = await seedMember(env);
    expect((await env.call("GET", `/c/${m.referral_code}/google`, { key: null })).status).toBe(404);
    expect((await memberRow(env, m.id)).has_wallet_b).toBe(false);
  });

  it("is what wallet_urls.google of manual create points to", async () => {
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Gina", last_name: "Google", email: "gina@test.org", membership_end: addDays(todayUtc(), 200) },
    });
    expect(res.status).toBe(201);
    const serial = res.body.pass_serial_number;
    expect(res.body.wallet_urls.google).toBe(`http://localhost/c/${serial}/google`);
    const page = await env.call("GET", `/c/${serial}`, { key: null });
    expect(page.text).toContain(`href="http://localhost/c/${serial}/google"`);
    expect((await env.call("GET", `/c/${serial}/google`, { key: null })).status).toBe(302);
  });
});

describe("updates sent to the Wallet API", () => {
  it("suspend: the saved object is written with state INACTIVE (inserted when Google does not have it)", async () => {
    const m = await savedMember();
    const other = await seedMember(env); // never saved to Google: no delivery
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/suspend`, { body: { reason: "unpaid" } });
    expect(res.status).toBe(200);
    await drain();
    const [delivery] = await jobsOf("google_object_update");
    expect(delivery).toMatchObject({ status: "done", attempts: 1, outcome: "HTTP 200", payload: { member_id: m.id } });
    expect(await jobsOf("google_class_update")).toHaveLength(0);
    expect(google.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `PUT loyaltyObject/${objectId(m.pass_serial_number)} 404`,
      `POST loyaltyObject 200`,
    ]);
    // Both requests of the delivery carry its job id, which a resent delivery would repeat.
    expect(google.requests.map((r) => r.deliveryId)).toEqual([delivery.id, delivery.id]);
    expect(google.object(objectId(m.pass_serial_number))).toMatchObject({ state: "INACTIVE", accountId: m.referral_code, classId: classId() });
    expect(google.object(objectId(other.pass_serial_number))).toBeUndefined();
    // The update job says what it queued.
    const [update] = await jobsOf("wallet_pass_update");
    expect(update.outcome).toContain("google: 1");
  });

  it("the token is signed by the service account for the Wallet scope, and reused until it expires", async () => {
    const before = google.tokenRequests.length;
    const m = await savedMember();
    // Drained after each change: two deliveries (queued together, the two updates would merge into one).
    await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/suspend`, { body: {} });
    await drain();
    await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/reactivate`, { body: {} });
    await drain();
    expect((await jobsOf("google_object_update")).map((j) => j.outcome)).toEqual(["HTTP 200", "HTTP 200"]);
    expect(google.tokenRequests.length - before).toBeLessThanOrEqual(1);
    const last = google.tokenRequests.at(-1);
    expect(last?.kid).toBe(KEY_ID);
    expect(last?.claims).toMatchObject({ iss: CLIENT_EMAIL, scope: "https://www.googleapis.com/auth/wallet_object.issuer" });
    expect(google.object(objectId(m.pass_serial_number)).state).toBe("ACTIVE");
  });

  it("extend an expired member: the object becomes ACTIVE with the new validity", async () => {
    const m = await savedMember({ membership_end: addDays(todayUtc(), -10) });
    const until = addDays(todayUtc(), 90);
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/extend`, { body: { extend_until: until } });
    expect(res.status).toBe(200);
    await drain();
    const obj = google.object(objectId(m.pass_serial_number));
    expect(obj.state).toBe("ACTIVE");
    expect(obj.validTimeInterval.end.date).toBe(`${until}T23:59:59Z`);
  });

  it("PUT card_custom_link_url: the class is updated and every saved object carries the link", async () => {
    const a = await savedMember();
    const b = await savedMember();
    const other = await env.otherClub();
    const stranger = await seedMember(env, { has_wallet_b: true }, other.club_id);
    const res = await env.call("PUT", `/api/clubs/${env.clubId}`, {
      body: { card_custom_link_url: "https://club.example/agenda", card_custom_link_label: "Agenda", primary_color: "#0A3D62" },
    });
    expect(res.status).toBe(200);
    await drain();
    const [classJob] = await jobsOf("google_class_update");
    expect(classJob).toMatchObject({ status: "done", outcome: "HTTP 200" });
    expect(google.klass(classId())).toMatchObject({ id: classId(), hexBackgroundColor: "#0A3D62", programName: "Club de test" });
    const objectJobs = await jobsOf("google_object_update");
    expect(objectJobs.map((j) => j.payload.member_id).sort()).toEqual(expect.arrayContaining([a.id, b.id].sort()));
    expect(objectJobs.every((j) => j.status === "done" && j.outcome === "HTTP 200")).toBe(true);
    // Another club's cards are not touched.
    expect(objectJobs.some((j) => j.payload.member_id === stranger.id)).toBe(false);
    expect(google.object(objectId(stranger.pass_serial_number))).toBeUndefined();
    for (const m of [a, b]) {
      expect(google.object(objectId(m.pass_serial_number)).linksModuleData).toEqual({
        uris: [{ id: "custom_link", uri: "https://club.example/agenda", description: "Agenda" }],
      });
    }
    const [club] = await env.db.read.select().from(clubs).where(eq(clubs.id, env.clubId));
    expect(club.last_wallet_push_at).toBeString();
  });

  it("a 503 leaves the delivery pending with its outcome, and the next run delivers it", async () => {
    const m = await savedMember();
    await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/suspend`, { body: {} });
    google.failures.push(503);
    const start = Date.now();
    await drain();
    let [delivery] = await jobsOf("google_object_update");
    expect(delivery.status).toBe("pending");
    expect(delivery.attempts).toBe(1);
    expect(delivery.outcome).toStartWith("HTTP 503");
    // Retried after the worker's back-off (2 s for a first failure), not before.
    expect(Date.parse(delivery.run_after)).toBeGreaterThan(start + 1500);
    expect(await runDueJobs(env.db, { kinds: JOB_KINDS, config: env.config })).toBe(0);
    await drain(2500);
    [delivery] = await jobsOf("google_object_update");
    expect(delivery).toMatchObject({ status: "done", attempts: 2, outcome: "HTTP 200", last_error: null });
    expect(google.object(objectId(m.pass_serial_number)).state).toBe("INACTIVE");
  });

  it("a 429 is retried too; a 400 fails the delivery at once", async () => {
    const m = await savedMember();
    await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/suspend`, { body: {} });
    google.failures.push(429);
    await drain();
    expect((await jobsOf("google_object_update"))[0]).toMatchObject({ status: "pending", attempts: 1 });
    await env.db.tx((t) => t.delete(jobs));

    await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/reactivate`, { body: {} });
    google.failures.push(400);
    await drain();
    const [delivery] = await jobsOf("google_object_update");
    expect(delivery.status).toBe("failed");
    expect(delivery.attempts).toBe(1);
    expect(delivery.outcome).toStartWith("HTTP 400");
    expect(delivery.finished_at).toBeString();
  });

  it("a 401 drops the cached token and retries once with a new one", async () => {
    const m = await savedMember();
    google.validTokens.clear(); // Google revoked the token we hold
    const before = google.tokenRequests.length;
    await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/suspend`, { body: {} });
    await drain();
    const [delivery] = await jobsOf("google_object_update");
    expect(delivery).toMatchObject({ status: "done", outcome: "HTTP 200" });
    expect(google.tokenRequests.length).toBe(before + 1);
    expect(google.requests[0].status).toBe(401);
  });

  it("a 403 fails at once", async () => {
    const m = await savedMember();
    await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/suspend`, { body: {} });
    google.failures.push(403);
    await drain();
    expect((await jobsOf("google_object_update"))[0]).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("a network failure is retried", async () => {
    const m = await savedMember();
    await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/suspend`, { body: {} });
    const config = { ...env.config, wallets: { ...env.config.wallets, google: { ...env.config.wallets.google!, apiUrl: "http://127.0.0.1:9/wallet/v1" } } };
    await runDueJobs(env.db, { kinds: JOB_KINDS, config });
    await runDueJobs(env.db, { kinds: JOB_KINDS, config });
    const [delivery] = await jobsOf("google_object_update");
    expect(delivery.status).toBe("pending");
    expect(delivery.outcome).toStartWith("network:");
  });

  it("a member who never saved the card to Google gets no delivery", async () => {
    const m = await seedMember(env);
    await env.call("POST", `/api/clubs/${env.clubId}/members/${m.id}/actions/suspend`, { body: {} });
    await drain();
    expect(await jobsOf("google_object_update")).toHaveLength(0);
    expect(google.requests).toHaveLength(0);
    expect((await jobsOf("wallet_pass_update"))[0].outcome).toContain("google: 0");
  });
});

describe("the placeholder logo", () => {
  it("serves a PNG in the club's secondary colour, used while the club has no logo of its own", async () => {
    const res = await env.app.handle(new Request(`http://localhost/c/logo/${env.clubId}`));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect((await env.call("GET", `/c/logo/${crypto.randomUUID()}`, { key: null })).status).toBe(404);
    // The lib function itself refuses an unknown club (the route adds nothing).
    expect(
      await refusalOf(
        placeholderLogo(
          { db: env.db, baseUrl: env.config.baseUrl, wallets: env.config.wallets, ip: null, locale: "en", formProofBits: 0 },
          crypto.randomUUID(),
        ),
      ),
    ).toMatchObject({ status: 404, code: "CLUB_NOT_FOUND" });

    const m = await seedMember(env);
    const location = (await env.call("GET", `/c/${m.pass_serial_number}/google`, { key: null })).headers.get("location") ?? "";
    const cls = (decodeJwt(location.slice(SAVE_URL.length)).payload as Json).loyaltyClasses[0];
    expect(cls.programLogo.sourceUri.uri).toBe(`http://localhost/c/logo/${env.clubId}`);
    expect(decodeProtectedHeader(location.slice(SAVE_URL.length)).alg).toBe("RS256");
    await env.db.tx((t) => t.update(clubs).set({ logo_url: "https://club.example/logo.png" }).where(eq(clubs.id, env.clubId)));
    const again = (await env.call("GET", `/c/${m.pass_serial_number}/google`, { key: null })).headers.get("location") ?? "";
    expect((decodeJwt(again.slice(SAVE_URL.length)).payload as Json).loyaltyClasses[0].programLogo.sourceUri.uri).toBe("https://club.example/logo.png");
  });
});

describe("without Google settings", () => {
  let plain: TestEnv;
  beforeAll(async () => {
    plain = await setup();
  });
  afterAll(() => plain.close());

  it("/google answers 404 with a clear message, wallet_urls.google is null, and everything else works", async () => {
    const res = await plain.call("POST", `/api/clubs/${plain.clubId}/members/manual`, {
      body: { first_name: "No", last_name: "Google", email: "nogoogle@test.org", membership_end: addDays(todayUtc(), 100) },
    });
    expect(res.status).toBe(201);
    expect(res.body.wallet_urls.google).toBeNull();
    const serial = res.body.pass_serial_number;
    const save = await plain.call("GET", `/c/${serial}/google`, { key: null, headers: { "accept-language": "en" } });
    expect(save.status).toBe(404);
    expect(save.body).toEqual({
      code: "GOOGLE_WALLET_NOT_CONFIGURED",
      detail: "Google Wallet is not configured on this service: use the web card instead.",
      request_id: expect.any(String),
    });
    const page = await plain.call("GET", `/c/${serial}`, { key: null });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Google Wallet");
    // A member marked as having the Google card (from before the settings were removed) gets no delivery.
    await plain.db.tx((t) => t.update(members).set({ has_wallet_b: true }).where(eq(members.id, res.body.id)));
    const suspend = await plain.call("POST", `/api/clubs/${plain.clubId}/members/${res.body.id}/actions/suspend`, { body: {} });
    expect(suspend.status).toBe(200);
    for (let i = 0; i < 3; i++) await runDueJobs(plain.db, { kinds: JOB_KINDS, config: plain.config });
    const rows = (await plain.db.read.select().from(jobs)).filter((j) => j.club_id === plain.clubId);
    expect(rows.filter((j) => j.kind.startsWith("google_"))).toHaveLength(0);
    expect(rows.find((j) => j.kind === "wallet_pass_update")).toMatchObject({ status: "done" });
    expect((await plain.call("GET", `/api/verify/${serial}`)).body.status).toBe("suspended");
  });
});

describe("with a key file that cannot be read", () => {
  let broken: TestEnv;
  beforeAll(async () => {
    broken = await setup({ ...google.env, GOOGLE_WALLET_KEY_FILE: "/nonexistent/service-account.json" });
  });
  afterAll(() => broken.close());

  it("the save link answers 503 with a clear message (not a 500) and records no install", async () => {
    const m = await seedMember(broken, {}, broken.clubId);
    const res = await broken.call("GET", `/c/${m.pass_serial_number}/google`, { key: null, headers: { "accept-language": "en" } });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("WALLET_UNAVAILABLE");
    expect(res.body.detail).toContain("cannot be read");
    expect((await memberRow(broken, m.id)).has_wallet_b).toBe(false);
  });
});
