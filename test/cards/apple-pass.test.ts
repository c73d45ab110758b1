// GET /c/<serial>/pass.pkpass: the member's Apple Wallet pass, signed with a certificate the test
// makes with openssl, read back (zip, pass.json, manifest hashes, PKCS#7 signature); and the
// product without Apple settings (404, wallet_urls.apple null, the rest unchanged).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { clubLogos, members } from "../../db/schema";
import { setup, type TestEnv } from "../helpers";
import { addDays, memberRow, seedMember, todayUtc } from "../members-fixtures";
import { type ApplePki, makeApplePki, PASS_TYPE_ID, readJson, TEAM_ID, unzipPass } from "./apple-fixtures";

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

async function download(serial: string) {
  const res = await env.app.handle(new Request(`http://localhost/c/${serial}/pass.pkpass`));
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function passJson(serial: string) {
  const { res, bytes } = await download(serial);
  expect(res.status).toBe(200);
  return readJson(unzipPass(bytes)["pass.json"]);
}

describe("the pass file", () => {
  it("is a signed storeCard of the member: club, name, validity, QR code of the referral code, web service and token", async () => {
    const m = await seedMember(env, { first_name: "Léa", last_name: "Dupont" });
    const { res, bytes } = await download(m.pass_serial_number);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    const files = unzipPass(bytes);
    expect(Object.keys(files).sort()).toEqual(["icon.png", "icon@2x.png", "icon@3x.png", "manifest.json", "pass.json", "signature"]);
    const pass = readJson(files["pass.json"]);
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: PASS_TYPE_ID,
      teamIdentifier: TEAM_ID,
      serialNumber: m.pass_serial_number,
      organizationName: "Club de test",
      sharingProhibited: true,
      webServiceURL: "http://localhost/api/passkit",
      barcodes: [{ format: "PKBarcodeFormatQR", message: m.referral_code, messageEncoding: "iso-8859-1", altText: m.referral_code }],
      expirationDate: `${m.membership_end}T23:59:59.000Z`,
    });
    expect(pass.voided).toBeUndefined();
    expect(pass.storeCard.primaryFields).toEqual([{ key: "member", label: "Membre", value: "Léa Dupont" }]);
    expect(pass.storeCard.headerFields[0].value).toBe("Membre actif");
    expect(pass.storeCard.secondaryFields.map((f: { key: string }) => f.key)).toEqual(["valid_until"]);
    // The token is made on the first download, stored, and the same on the next one.
    const stored = (await memberRow(env, m.id)).pass_auth_token;
    expect(stored).toBeString();
    expect(stored?.length).toBeGreaterThanOrEqual(32);
    expect(pass.authenticationToken).toBe(stored);
    expect((await passJson(m.pass_serial_number)).authenticationToken).toBe(stored);

    // Every file is listed in the manifest with its SHA-1, and nothing else is.
    const manifest = readJson(files["manifest.json"]);
    const listed = Object.keys(files).filter((n) => n !== "manifest.json" && n !== "signature");
    expect(Object.keys(manifest).sort()).toEqual(listed.sort());
    for (const name of listed) expect(manifest[name]).toBe(createHash("sha1").update(files[name]).digest("hex"));
    // The icons are real PNGs.
    expect([...files["icon.png"].subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    // The detached PKCS#7 signature of the manifest verifies against the test root CA, through the "WWDR".
    writeFileSync(join(pki.dir, "signature"), files.signature);
    writeFileSync(join(pki.dir, "manifest.json"), files["manifest.json"]);
    const verified = Bun.spawnSync(
      ["openssl", "smime", "-verify", "-inform", "DER", "-binary", "-in", "signature", "-content", "manifest.json", "-CAfile", pki.caFile, "-out", "/dev/null"],
      { cwd: pki.dir },
    );
    expect(verified.stderr.toString()).toContain("Verification successful");
    expect(verified.exitCode).toBe(0);
    // A manifest changed after signing no longer verifies.
    writeFileSync(join(pki.dir, "manifest.json"), `${new TextDecoder().decode(files["manifest.json"])} `);
    const tampered = Bun.spawnSync(
      ["openssl", "smime", "-verify", "-inform", "DER", "-binary", "-in", "signature", "-content", "manifest.json", "-CAfile", pki.caFile, "-out", "/dev/null"],
      { cwd: pki.dir },
    );
    expect(tampered.exitCode).not.toBe(0);
    // The signature carries the pass certificate and the WWDR certificate.
    const certs = Bun.spawnSync(["openssl", "pkcs7", "-inform", "DER", "-in", "signature", "-print_certs", "-noout"], { cwd: pki.dir }).stdout.toString();
    expect(certs).toContain(`Pass Type ID: ${PASS_TYPE_ID}`);
    expect(certs).toContain("Test WWDR Intermediate");
  });

  it("a suspended member's pass is voided and says so", async () => {
    const m = await seedMember(env, { payment_status: "suspended" });
    const pass = await passJson(m.pass_serial_number);
    expect(pass.voided).toBe(true);
    expect(pass.storeCard.headerFields[0].value).toBe("Adhésion suspendue");
    const expired = await seedMember(env, { membership_end: addDays(todayUtc(), -3) });
    const old = await passJson(expired.pass_serial_number);
    expect(old.voided).toBeUndefined();
    expect(old.storeCard.headerFields[0].value).toBe("Adhésion expirée");
    expect(old.expirationDate).toBe(`${expired.membership_end}T23:59:59.000Z`);
  });

  it("shows the club's card settings: colours, barcode format, back fields of the member's tier, locations, custom link, sharing", async () => {
    const tier = await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Gold", price_cents: 5000 } });
    expect(tier.status).toBe(201);
    const other = await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Silver", price_cents: 3000 } });
    const put = await env.call("PUT", `/api/clubs/${env.clubId}`, {
      body: {
        primary_color: "#FFFFFF",
        card_label_color: "#123456",
        card_barcode_format: "pdf417",
        card_sharing_prohibited: false,
        card_custom_link_url: "https://club.example.org/members",
        card_custom_link_label: "Espace membre",
        card_back_fields: [
          { type: "text", label: "Horaires", value: "Lu-Ve 18h-22h" },
          { type: "text", label: "Bar", value: "-10 %", is_perk: true, partner_address: "Rue 1", tier_ids: [tier.body.id] },
          { type: "text", label: "Silver only", value: "x", tier_ids: [other.body.id] },
        ],
        card_locations: [{ latitude: 46.2, longitude: 6.15, label: "Club house" }],
      },
    });
    expect(put.status).toBe(200);
    const gold = await seedMember(env, { tier_id: tier.body.id });
    const pass = await passJson(gold.pass_serial_number);
    expect(pass.backgroundColor).toBe("rgb(255, 255, 255)");
    expect(pass.foregroundColor).toBe("rgb(17, 24, 39)");
    expect(pass.labelColor).toBe("rgb(18, 52, 86)");
    expect(pass.sharingProhibited).toBe(false);
    expect(pass.barcodes[0]).toMatchObject({ format: "PKBarcodeFormatPDF417", message: gold.referral_code });
    expect(pass.storeCard.secondaryFields[0]).toEqual({ key: "tier", label: "Catégorie", value: "Gold" });
    // Back fields: label and value only (partner details stay on the web card), Silver's left out.
    expect(pass.storeCard.backFields).toEqual([
      { key: "back_0", label: "Horaires", value: "Lu-Ve 18h-22h" },
      { key: "back_1", label: "Bar", value: "-10 %" },
      { key: "custom_link", label: "Espace membre", value: "https://club.example.org/members", dataDetectorTypes: ["PKDataDetectorTypeLink"] },
    ]);
    expect(pass.locations).toEqual([{ latitude: 46.2, longitude: 6.15, relevantText: "Club house" }]);

    // No tier: only the fields of every tier. Geolocation off: no locations. Aztec and Code 128 too.
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_geolocation_enabled: false, card_barcode_format: "aztec" } });
    const plain = await seedMember(env);
    const p2 = await passJson(plain.pass_serial_number);
    expect(p2.storeCard.backFields.map((f: { label: string }) => f.label)).toEqual(["Horaires", "Espace membre"]);
    expect(p2.locations).toBeUndefined();
    expect(p2.barcodes[0].format).toBe("PKBarcodeFormatAztec");
    await env.call("PUT", `/api/clubs/${env.clubId}`, { body: { card_barcode_format: "code128" } });
    expect((await passJson(plain.pass_serial_number)).barcodes[0].format).toBe("PKBarcodeFormatCode128");
  });

  it("an unknown serial is a 404", async () => {
    const res = await env.call("GET", "/c/no-such-serial/pass.pkpass", { key: null });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("PASS_NOT_FOUND");
  });

  it("manual create and the web card offer the pass's address", async () => {
    const res = await env.call("POST", `/api/clubs/${env.clubId}/members/manual`, {
      body: { first_name: "Wally", last_name: "Wallet", email: "wally-apple@test.org", membership_end: "2031-01-01" },
    });
    expect(res.status).toBe(201);
    const serial = res.body.pass_serial_number;
    expect(res.body.wallet_urls.apple).toBe(`http://localhost/c/${serial}/pass.pkpass`);
    const page = await env.call("GET", `/c/${serial}`, { key: null });
    expect(page.text).toContain(`href="http://localhost/c/${serial}/pass.pkpass"`);
  });

  it("signs with a key protected by a passphrase", async () => {
    const locked = await makeApplePki({ passphrase: "s3cret-pass" });
    const env2 = await setup(locked.env());
    try {
      const m = await seedMember(env2);
      const res = await env2.app.handle(new Request(`http://localhost/c/${m.pass_serial_number}/pass.pkpass`));
      expect(res.status).toBe(200);
      const files = unzipPass(new Uint8Array(await res.arrayBuffer()));
      expect(files.signature.length).toBeGreaterThan(100);
    } finally {
      await env2.close();
      locked.close();
    }
  });
});

describe("the club's logo on the pass (issue 32)", () => {
  it("icon and logo are the uploaded logo's renditions; a new logo marks the passes changed; without one, the plain icon again", async () => {
    const m = await seedMember(env);
    const png = await sharp({ create: { width: 600, height: 200, channels: 3, background: "#0F766E" } })
      .png()
      .toBuffer();
    const before = (await memberRow(env, m.id)).pass_updated_at;
    const put = await env.call("PUT", `/api/clubs/${env.clubId}/logo`, { rawBody: png, headers: { "content-type": "image/png" } });
    expect(put.status).toBe(200);
    expect((await memberRow(env, m.id)).pass_updated_at).not.toBe(before);
    const { bytes } = await download(m.pass_serial_number);
    const files = unzipPass(bytes);
    expect(Object.keys(files).sort()).toEqual([
      "icon.png",
      "icon@2x.png",
      "icon@3x.png",
      "logo.png",
      "logo@2x.png",
      "logo@3x.png",
      "manifest.json",
      "pass.json",
      "signature",
    ]);
    const rows = await env.db.read.select().from(clubLogos).where(eq(clubLogos.club_id, env.clubId));
    const of = (variant: string) => Buffer.from(rows.find((r) => r.variant === variant)?.data as Uint8Array);
    expect(Buffer.from(files["icon@3x.png"]).equals(of("apple-icon@3x"))).toBe(true);
    expect(Buffer.from(files["logo.png"]).equals(of("apple-logo"))).toBe(true);
    // Apple's sizes: icon 29 points square, logo at most 160 x 50 points.
    expect(await sharp(files["icon.png"]).metadata()).toMatchObject({ width: 29, height: 29 });
    expect(await sharp(files["logo@2x.png"]).metadata()).toMatchObject({ width: 300, height: 100 });
    // The manifest covers the logo files too.
    const manifest = readJson(files["manifest.json"]);
    expect(manifest["logo.png"]).toBe(createHash("sha1").update(files["logo.png"]).digest("hex"));
    expect((await env.call("DELETE", `/api/clubs/${env.clubId}/logo`)).status).toBe(200);
    expect(Object.keys(unzipPass((await download(m.pass_serial_number)).bytes))).not.toContain("logo.png");
  });
});

describe("without Apple settings", () => {
  let bare: TestEnv;
  beforeAll(async () => {
    bare = await setup();
  });
  afterAll(() => bare.close());

  it("the download is a 404 saying Apple Wallet is not configured; wallet_urls.apple is null; the web card still works", async () => {
    const m = await seedMember(bare);
    const res = await bare.call("GET", `/c/${m.pass_serial_number}/pass.pkpass`, { key: null, headers: { "accept-language": "en" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "APPLE_WALLET_NOT_CONFIGURED", detail: "Apple Wallet is not configured on this server.", request_id: expect.any(String) });
    expect((await memberRow(bare, m.id)).pass_auth_token).toBeNull();
    const created = await bare.call("POST", `/api/clubs/${bare.clubId}/members/manual`, {
      body: { first_name: "No", last_name: "Wallet", email: "nowallet@test.org", membership_end: "2031-01-01" },
    });
    expect(created.status).toBe(201);
    expect(created.body.wallet_urls.apple).toBeNull();
    const page = await bare.call("GET", `/c/${created.body.pass_serial_number}`, { key: null });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("Apple Wallet");
    // The web service is not there either.
    const ws = await bare.call("GET", "/api/passkit/v1/devices/dev1/registrations/pass.x", { key: null });
    expect(ws.status).toBe(404);
    // A change still queues its update, which completes with nothing to send.
    const put = await bare.call("PUT", `/api/clubs/${bare.clubId}`, { body: { card_custom_link_url: "https://example.org/x" } });
    expect(put.status).toBe(200);
    const [row] = await bare.db.read.select().from(members).where(eq(members.id, m.id));
    expect(row.pass_updated_at).toBeString();
  });
});
