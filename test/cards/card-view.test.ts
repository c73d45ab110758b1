// One loader and one "card view" behind the three cards (lib/cards/view): the club fields a card
// may read are exactly CARD_CLUB_FIELDS, and where the old copies disagreed (the http(s) link
// check, the tier lookup) every card now follows the same rule.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { clubs } from "../../db/schema";
import { loyaltyObject } from "../../lib/cards/google/objects";
import { CARD_CLUB_FIELDS, type CardData, cardView, loadCard, MAX_SERIAL } from "../../lib/cards/view";
import type { GoogleWalletConfig } from "../../lib/config";
import { addMember, addTier } from "../card-fixtures";
import { setup, type TestEnv } from "../helpers";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

const setClub = (values: Record<string, unknown>) => env.db.tx((t) => t.update(clubs).set(values).where(eq(clubs.id, env.clubId)));
const cfg = { issuerId: "3388000000000000001" } as GoogleWalletConfig;

describe("loadCard", () => {
  it("loads the member, the tier of the member's club and the club's card fields only", async () => {
    const tier = await addTier(env, { name: "Gold" });
    const m = await addMember(env, { tier_id: tier.id });
    const data = (await loadCard(env.db.read, { serial: m.pass_serial_number })) as CardData;
    expect(Object.keys(data.club).sort()).toEqual(["id", ...CARD_CLUB_FIELDS].sort());
    expect(data).toMatchObject({ member: { id: m.id }, club: { id: env.clubId }, tierName: "Gold" });
    expect((await loadCard(env.db.read, { memberId: m.id }))?.member.id).toBe(m.id);
    expect(await loadCard(env.db.read, { serial: "x".repeat(MAX_SERIAL + 1) })).toBeNull();
    expect(await loadCard(env.db.read, { serial: "NoSuchSerial" })).toBeNull();
  });

  it("never shows another club's tier (the Apple pass used to look the tier up by id alone)", async () => {
    const other = await env.otherClub();
    const theirs = await addTier(env, { clubId: other.club_id, name: "Their tier" });
    const m = await addMember(env, { tier_id: theirs.id });
    const data = (await loadCard(env.db.read, { memberId: m.id })) as CardData;
    expect(data.tierName).toBeNull();
    expect(cardView(data).tierName).toBeNull();
  });
});

describe("cardView", () => {
  it("one holder name, status, validity, back fields and link for every card; the wallets get label and value only", async () => {
    await setClub({
      name_order: "last_first",
      locale: "en",
      country: "CH",
      card_custom_link_url: "  https://club.example/news  ",
      card_custom_link_label: null,
      card_back_fields: [
        { type: "text", label: "Hours", value: "9-5" },
        { type: "text", label: "", value: "", is_perk: true, partner_address: "Lake St 1" },
      ],
      card_geolocation_enabled: false,
      card_locations: [{ latitude: 46.2, longitude: 6.15, label: "Hall" }, { latitude: 999 }],
    });
    const m = await addMember(env, { first_name: "Léa", last_name: "Favre", membership_end: "2030-12-31" });
    const data = (await loadCard(env.db.read, { memberId: m.id })) as CardData;
    const view = cardView(data, "2030-06-01");
    expect(view).toMatchObject({
      holderName: "Favre Léa",
      status: "active",
      validUntil: "31 December 2030",
      code: m.referral_code,
      link: { url: "https://club.example/news", label: null },
      walletFields: [{ label: "Hours", value: "9-5" }],
      locations: [{ latitude: 46.2, longitude: 6.15, label: "Hall" }],
      walletLocations: [],
    });
    expect(view.backFields).toHaveLength(2);
    expect(cardView(data, "2031-01-01").status).toBe("expired");

    // The link with spaces around it: every card shows it (Google and Apple used to refuse it).
    const obj = loyaltyObject(cfg, data, new Date("2030-06-01T12:00:00Z"));
    expect(obj.linksModuleData).toEqual({ uris: [{ id: "custom_link", uri: "https://club.example/news", description: "Link" }] });
    expect(obj.accountName).toBe("Favre Léa");
    expect(obj.locations).toBeUndefined();
    const page = await env.call("GET", `/c/${m.pass_serial_number}`, { key: null });
    expect(page.text).toContain('<a class="button" href="https://club.example/news" rel="noopener noreferrer">https://club.example/news</a>');
  });

  it("a link with a quote or angle bracket is no link on any card (the wallets used to take it)", async () => {
    await setClub({ card_custom_link_url: 'https://club.example/"><b>x' });
    const m = await addMember(env);
    const data = (await loadCard(env.db.read, { memberId: m.id })) as CardData;
    expect(cardView(data).link).toBeNull();
    expect(loyaltyObject(cfg, data).linksModuleData).toBeUndefined();
    expect((await env.call("GET", `/c/${m.pass_serial_number}`, { key: null })).text).not.toContain('class="button" href');
  });
});
