// The Google Wallet loyalty class (one per club: its name, colours, logo) and loyalty object (one
// per member: name, tier, validity, state, barcode, back fields, custom link, locations), built
// from the club and member rows. Why loyalty and not generic: docs/decisions.md, "Google Wallet".
import { and, eq } from "drizzle-orm";
import type { Queryable } from "../../../db";
import { clubs, members, tiers } from "../../../db/schema";
import type { ClubRow } from "../../clubs";
import { type CardBackField, CardLocation, readCardBackFields } from "../../clubs/schemas";
import type { GoogleWalletConfig } from "../../config";
import { asLocale, type Locale } from "../../i18n";
import { derivedStatus, todayUtc } from "../../members/status";

type MemberRow = typeof members.$inferSelect;
export type PassData = { member: MemberRow; club: ClubRow; tierName: string | null };

/** Google's limit: ten text modules of an object are shown. */
const MAX_TEXT_MODULES = 10;

const LABELS: Record<Locale, { member: string; code: string; tier: string; validUntil: string; link: string }> = {
  fr: { member: "Membre", code: "Code", tier: "Catégorie", validUntil: "Valable jusqu'au", link: "Lien" },
  en: { member: "Member", code: "Code", tier: "Tier", validUntil: "Valid until", link: "Link" },
  de: { member: "Mitglied", code: "Code", tier: "Kategorie", validUntil: "Gültig bis", link: "Link" },
  it: { member: "Socio", code: "Codice", tier: "Categoria", validUntil: "Valida fino al", link: "Link" },
};

const BARCODE_TYPES: Record<string, string> = { qr: "QR_CODE", pdf417: "PDF_417", aztec: "AZTEC", code128: "CODE_128" };

const HEX = /^#[0-9A-Fa-f]{6}$/;

export const classIdOf = (cfg: GoogleWalletConfig, clubId: string) => `${cfg.issuerId}.club-${clubId.replace(/-/g, "")}`;
export const objectIdOf = (cfg: GoogleWalletConfig, serial: string) => `${cfg.issuerId}.${serial}`;

/** The club's logo for Google, which requires one: its own, else a plain one we serve (routes/c/logo). */
export function logoUrlOf(club: ClubRow, baseUrl: string): string {
  for (const name of ["logo_square_url", "logo_circular_url", "logo_url"]) {
    const url = club[name];
    if (typeof url === "string" && /^https?:\/\/\S+$/i.test(url)) return url;
  }
  return `${baseUrl}/c/logo/${club.id}`;
}

const localized = (locale: Locale, value: string) => ({ defaultValue: { language: locale, value } });

/** The member, their club and tier name, by member id or pass serial; null when gone. */
export async function loadPassData(q: Queryable, by: { memberId: string } | { serial: string }): Promise<PassData | null> {
  const [row] = await q
    .select({ member: members, tier_name: tiers.name })
    .from(members)
    .leftJoin(tiers, and(eq(tiers.id, members.tier_id), eq(tiers.club_id, members.club_id)))
    .where("memberId" in by ? eq(members.id, by.memberId) : eq(members.pass_serial_number, by.serial))
    .limit(1);
  if (!row) return null;
  const [club] = (await q.select().from(clubs).where(eq(clubs.id, row.member.club_id)).limit(1)) as ClubRow[];
  return club ? { member: row.member, club, tierName: row.tier_name } : null;
}

/** The loyalty class of a club: what every member's card shares. */
export function loyaltyClass(cfg: GoogleWalletConfig, club: ClubRow, baseUrl: string): Record<string, unknown> {
  const locale = asLocale(club.locale);
  const tx = LABELS[locale];
  const name = String(club.name ?? "").trim() || "Club";
  const cls: Record<string, unknown> = {
    id: classIdOf(cfg, club.id),
    issuerName: name,
    programName: name,
    programLogo: { sourceUri: { uri: logoUrlOf(club, baseUrl) }, contentDescription: localized(locale, name) },
    hexBackgroundColor: typeof club.primary_color === "string" && HEX.test(club.primary_color) ? club.primary_color : "#1F2937",
    accountNameLabel: tx.member,
    accountIdLabel: tx.code,
    localizedAccountNameLabel: localized(locale, tx.member),
    localizedAccountIdLabel: localized(locale, tx.code),
    // A card is the member's own: shown on all their devices, not shared, unless the club allows it.
    multipleDevicesAndHoldersAllowedStatus: club.card_sharing_prohibited === false ? "MULTIPLE_HOLDERS" : "ONE_USER_ALL_DEVICES",
    reviewStatus: "UNDER_REVIEW",
  };
  if (typeof club.country === "string" && /^[A-Z]{2}$/.test(club.country)) cls.countryCode = club.country;
  return cls;
}

/** The state Google shows: ACTIVE, EXPIRED once membership_end has passed, INACTIVE while suspended or pending. */
export function objectState(member: Pick<MemberRow, "payment_status" | "membership_end">, today = todayUtc()): "ACTIVE" | "EXPIRED" | "INACTIVE" {
  const status = derivedStatus(member, today);
  if (status === "active") return "ACTIVE";
  if (status === "expired") return "EXPIRED";
  return "INACTIVE";
}

function backFieldsFor(club: ClubRow, member: MemberRow): CardBackField[] {
  // A back field limited to some tiers shows only to members of those tiers (as on the web card).
  const forMember = (f: CardBackField) => !f.tier_ids?.length || (member.tier_id !== null && f.tier_ids.includes(member.tier_id));
  try {
    return (readCardBackFields(club.card_back_fields) ?? []).filter(forMember);
  } catch {
    // A stored field that no longer parses must not stop the card's updates.
    return [];
  }
}

function locationsOf(club: ClubRow): { latitude: number; longitude: number }[] {
  if (club.card_geolocation_enabled === false || !Array.isArray(club.card_locations)) return [];
  return club.card_locations.flatMap((raw) => {
    const parsed = CardLocation.safeParse(raw);
    return parsed.success ? [{ latitude: parsed.data.latitude, longitude: parsed.data.longitude }] : [];
  });
}

/** The member's loyalty object: everything that differs from one card to the next. */
export function loyaltyObject(cfg: GoogleWalletConfig, data: PassData, now = new Date()): Record<string, unknown> {
  const { member, club, tierName } = data;
  const locale = asLocale(club.locale);
  const tx = LABELS[locale];
  const name = club.name_order === "last_first" ? `${member.last_name} ${member.first_name}` : `${member.first_name} ${member.last_name}`;
  const obj: Record<string, unknown> = {
    id: objectIdOf(cfg, member.pass_serial_number),
    classId: classIdOf(cfg, club.id),
    state: objectState(member, todayUtc(now)),
    accountName: name,
    accountId: member.referral_code,
    barcode: {
      type: BARCODE_TYPES[String(club.card_barcode_format)] ?? "QR_CODE",
      value: member.referral_code,
      alternateText: member.referral_code,
    },
    validTimeInterval: {
      start: { date: `${member.membership_start}T00:00:00Z` },
      end: { date: `${member.membership_end}T23:59:59Z` },
    },
    secondaryLoyaltyPoints: { label: tx.validUntil, localizedLabel: localized(locale, tx.validUntil), balance: { string: member.membership_end } },
    textModulesData: backFieldsFor(club, member)
      .filter((f) => f.label || f.value)
      .slice(0, MAX_TEXT_MODULES)
      .map((f, i) => ({ id: `field_${i}`, header: f.label, body: f.value })),
  };
  if (tierName) obj.loyaltyPoints = { label: tx.tier, localizedLabel: localized(locale, tx.tier), balance: { string: tierName } };
  const link = typeof club.card_custom_link_url === "string" && /^https?:\/\/\S+$/i.test(club.card_custom_link_url) ? club.card_custom_link_url : null;
  if (link) {
    const label = (typeof club.card_custom_link_label === "string" && club.card_custom_link_label) || tx.link;
    obj.linksModuleData = { uris: [{ id: "custom_link", uri: link, description: label }] };
  }
  const locations = locationsOf(club);
  if (locations.length) obj.locations = locations;
  return obj;
}
