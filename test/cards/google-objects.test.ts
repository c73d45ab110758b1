// What a Google Wallet card shows: the loyalty class built from the club and the loyalty object
// built from the member (state, name, tier, validity, barcode, back fields, link, locations).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { accessToken, dropAccessToken } from "../../lib/cards/google/api";
import { classIdOf, loadPassData, loyaltyClass, loyaltyObject, objectIdOf, objectState, type PassData } from "../../lib/cards/google/objects";
import type { GoogleWalletConfig } from "../../lib/config";
import { addTier } from "../card-fixtures";
import { type FakeGoogle, fakeGoogle, ISSUER_ID } from "../google-fake";
import { setup, type TestEnv } from "../helpers";
import { addDays, seedMember, todayUtc } from "../members-fixtures";
import { refusalOf } from "../refusal";

let env: TestEnv;
let google: FakeGoogle;
let cfg: GoogleWalletConfig;
beforeAll(async () => {
  google = await fakeGoogle();
  env = await setup(google.env);
  cfg = env.config.wallets.google as GoogleWalletConfig;
});
afterAll(async () => {
  await env.close();
  google.stop();
});

const setClub = (values: Record<string, unknown>) => env.db.tx((t) => t.update(clubs).set(values).where(eq(clubs.id, env.clubId)));
const passOf = async (memberId: string) => (await loadPassData(env.db.read, { memberId })) as PassData;

describe("ids", () => {
  it("class per club (issuer id + club id without dashes), object per pass serial", () => {
    expect(classIdOf(cfg, "0192f0c4-1111-7222-8333-444455556666")).toBe(`${ISSUER_ID}.club-0192f0c4111172228333444455556666`);
    expect(objectIdOf(cfg, "AbC123")).toBe(`${ISSUER_ID}.AbC123`);
  });
});

describe("state", () => {
  it("ACTIVE while paid and valid, EXPIRED once membership_end has passed, INACTIVE while suspended or pending", () => {
    const today = "2030-06-15";
    expect(objectState({ payment_status: "paid", membership_end: "2030-06-15" }, today)).toBe("ACTIVE");
    expect(objectState({ payment_status: "paid", membership_end: "2030-06-14" }, today)).toBe("EXPIRED");
    expect(objectState({ payment_status: "suspended", membership_end: "2031-01-01" }, today)).toBe("INACTIVE");
    expect(objectState({ payment_status: "pending", membership_end: "2031-01-01" }, today)).toBe("INACTIVE");
  });
});

describe("the loyalty object", () => {
  it("carries the member's name, tier, validity, the barcode per card_barcode_format and the tier's back fields", async () => {
    const gold = await addTier(env, { name: "Gold" });
    const silver = await addTier(env, { name: "Silver" });
    await setClub({
      card_barcode_format: "pdf417",
      name_order: "last_first",
      card_back_fields: [
        { type: "text", label: "Horaires", value: "Lu-Ve 8h-20h" },
        { type: "perk", label: "Café Central", value: "-10 %", partner_address: "Rue du Lac 1" },
        { type: "text", label: "Gold lounge", value: "Étage 2", tier_ids: [gold.id] },
        { type: "text", label: "Silver corner", value: "Étage 1", tier_ids: [silver.id] },
      ],
      card_locations: [{ latitude: 46.2, longitude: 6.15, label: "Salle" }],
    });
    const m = await seedMember(env, {
      first_name: "Ada",
      last_name: "Lovelace",
      tier_id: gold.id,
      membership_start: "2030-01-01",
      membership_end: "2030-12-31",
    });
    const obj = loyaltyObject(cfg, await passOf(m.id), new Date("2030-06-01T12:00:00Z"));
    expect(obj).toMatchObject({
      id: `${ISSUER_ID}.${m.pass_serial_number}`,
      classId: classIdOf(cfg, env.clubId),
      state: "ACTIVE",
      accountName: "Lovelace Ada",
      accountId: m.referral_code,
      barcode: { type: "PDF_417", value: m.referral_code, alternateText: m.referral_code },
      validTimeInterval: { start: { date: "2030-01-01T00:00:00Z" }, end: { date: "2030-12-31T23:59:59Z" } },
      loyaltyPoints: { label: "Catégorie", balance: { string: "Gold" } },
      secondaryLoyaltyPoints: { label: "Valable jusqu'au", balance: { string: "2030-12-31" } },
      locations: [{ latitude: 46.2, longitude: 6.15 }],
    });
    // Label + value only (SPEC: the wallet card stays minimal); a field of another tier is left out.
    expect(obj.textModulesData).toEqual([
      { id: "field_0", header: "Horaires", body: "Lu-Ve 8h-20h" },
      { id: "field_1", header: "Café Central", body: "-10 %" },
      { id: "field_2", header: "Gold lounge", body: "Étage 2" },
    ]);
    expect(obj.linksModuleData).toBeUndefined();
    expect(loyaltyObject(cfg, await passOf(m.id), new Date("2031-01-01T00:00:00Z")).state).toBe("EXPIRED");
  });

  it("a member without a tier: no tier, no tier-only fields; no locations when geolocation is off; at most ten text modules", async () => {
    await setClub({
      card_barcode_format: "qr",
      name_order: null,
      card_geolocation_enabled: false,
      card_back_fields: Array.from({ length: 14 }, (_, i) => ({ type: "text", label: `L${i}`, value: `V${i}` })).concat([
        { type: "text", label: "Tiered", value: "x", tier_ids: [crypto.randomUUID()] } as never,
      ]),
      card_custom_link_url: "https://club.example/news",
      card_custom_link_label: null,
    });
    const m = await seedMember(env, { first_name: "Bo", last_name: "Li" });
    const obj = loyaltyObject(cfg, await passOf(m.id));
    expect(obj.loyaltyPoints).toBeUndefined();
    expect(obj.locations).toBeUndefined();
    expect(obj.accountName).toBe("Bo Li");
    expect((obj.textModulesData as unknown[]).length).toBe(10);
    expect(JSON.stringify(obj.textModulesData)).not.toContain("Tiered");
    expect(obj.linksModuleData).toEqual({ uris: [{ id: "custom_link", uri: "https://club.example/news", description: "Lien" }] });
    expect((obj.barcode as { type: string }).type).toBe("QR_CODE");
  });

  it("labels follow the club's language", async () => {
    await setClub({ locale: "de" });
    const tier = await addTier(env, { name: "Jugend" });
    const m = await seedMember(env, { tier_id: tier.id, membership_end: addDays(todayUtc(), 30) });
    const obj = loyaltyObject(cfg, await passOf(m.id));
    expect(obj.loyaltyPoints).toMatchObject({ label: "Kategorie", localizedLabel: { defaultValue: { language: "de", value: "Kategorie" } } });
    await setClub({ locale: "fr" });
  });
});

describe("the loyalty class", () => {
  it("carries the club's name, colour, logo (its own, else our placeholder) and sharing rule", async () => {
    await setClub({ name: "Vélo Club", primary_color: "#112233", card_sharing_prohibited: true, country: "CH", logo_url: null });
    const club = (await passOf((await seedMember(env)).id)).club;
    expect(loyaltyClass(cfg, club, "https://cards.example")).toMatchObject({
      id: classIdOf(cfg, env.clubId),
      issuerName: "Vélo Club",
      programName: "Vélo Club",
      hexBackgroundColor: "#112233",
      programLogo: { sourceUri: { uri: `https://cards.example/c/logo/${env.clubId}` } },
      multipleDevicesAndHoldersAllowedStatus: "ONE_USER_ALL_DEVICES",
      countryCode: "CH",
      reviewStatus: "UNDER_REVIEW",
      accountNameLabel: "Membre",
    });
    const withLogo = loyaltyClass(cfg, { ...club, logo_url: "https://cdn.example/logo.png", card_sharing_prohibited: false }, "https://cards.example");
    expect(withLogo.programLogo).toMatchObject({ sourceUri: { uri: "https://cdn.example/logo.png" } });
    expect(withLogo.multipleDevicesAndHoldersAllowedStatus).toBe("MULTIPLE_HOLDERS");
  });
});

describe("the access token", () => {
  it("is cached until a minute before it expires, then asked for again", async () => {
    dropAccessToken(cfg);
    const before = google.tokenRequests.length;
    const t0 = Date.now();
    const first = await accessToken(cfg, t0);
    expect(await accessToken(cfg, t0 + 3000_000)).toBe(first);
    expect(google.tokenRequests.length).toBe(before + 1);
    // The fake grants 3599 s: 59 s before the end is inside the safety margin.
    const renewed = await accessToken(cfg, t0 + 3540_000);
    expect(renewed).not.toBe(first);
    expect(google.tokenRequests.length).toBe(before + 2);
  });

  it("a refused assertion (a key Google does not know) is a permanent failure", async () => {
    const { PermanentFailure } = await import("../../lib/jobs");
    const other = await fakeGoogle();
    try {
      // Our key file, their token endpoint: the signature does not verify with their public key.
      const wrong = { ...cfg, tokenUrl: other.env.GOOGLE_OAUTH_TOKEN_URL };
      expect(await refusalOf(accessToken(wrong))).toBeInstanceOf(PermanentFailure);
    } finally {
      other.stop();
    }
  });
});
