// The Google Wallet loyalty class (one per club: its name, colours, logo) and loyalty object (one
// per member: name, tier, validity, state, barcode, back fields, custom link, locations), built
// from the club and member rows. Why loyalty and not generic: docs/decisions.md, "Google Wallet".
import type { GoogleWalletConfig } from "../../config";
import type { Locale } from "../../i18n";
import type { MemberStatus } from "../../members/schemas";
import { derivedStatus, todayUtc } from "../../members/status";
import { type BarcodeFormat, type CardClub, type CardData, cardView, clubCardView, loadCard, type MemberRow } from "../view";

/** The card's data (lib/cards/view), under the name this module's callers and tests know. */
export type PassData = CardData;
export const loadPassData = loadCard;

/** Google's limit: ten text modules of an object are shown. */
const MAX_TEXT_MODULES = 10;

const BARCODE_TYPES = { qr: "QR_CODE", pdf417: "PDF_417", aztec: "AZTEC", code128: "CODE_128" } as const satisfies Record<BarcodeFormat, string>;

export const classIdOf = (cfg: GoogleWalletConfig, clubId: string) => `${cfg.issuerId}.club-${clubId.replace(/-/g, "")}`;
export const objectIdOf = (cfg: GoogleWalletConfig, serial: string) => `${cfg.issuerId}.${serial}`;

/** The club's logo for Google, which requires one: its own, else a plain one we serve (routes/c/logo). */
export const logoUrlOf = (club: CardClub, baseUrl: string): string => clubCardView(club).squareLogoUrl ?? `${baseUrl}/c/logo/${club.id}`;

const localized = (locale: Locale, value: string) => ({ defaultValue: { language: locale, value } });

/** The loyalty class of a club: what every member's card shares. */
export function loyaltyClass(cfg: GoogleWalletConfig, club: CardClub, baseUrl: string): Record<string, unknown> {
  const view = clubCardView(club);
  const { locale, texts: tx } = view;
  const name = view.clubName.trim() || "Club";
  const cls: Record<string, unknown> = {
    id: classIdOf(cfg, club.id),
    issuerName: name,
    programName: name,
    programLogo: { sourceUri: { uri: logoUrlOf(club, baseUrl) }, contentDescription: localized(locale, name) },
    hexBackgroundColor: view.colors.primary,
    accountNameLabel: tx.member,
    accountIdLabel: tx.code,
    localizedAccountNameLabel: localized(locale, tx.member),
    localizedAccountIdLabel: localized(locale, tx.code),
    // A card is the member's own: shown on all their devices, not shared, unless the club allows it.
    multipleDevicesAndHoldersAllowedStatus: view.sharingProhibited ? "ONE_USER_ALL_DEVICES" : "MULTIPLE_HOLDERS",
    reviewStatus: "UNDER_REVIEW",
  };
  if (view.country && /^[A-Z]{2}$/.test(view.country)) cls.countryCode = view.country;
  return cls;
}

const STATES: Record<MemberStatus, "ACTIVE" | "EXPIRED" | "INACTIVE"> = { active: "ACTIVE", expired: "EXPIRED", suspended: "INACTIVE", pending: "INACTIVE" };

/** The state Google shows: ACTIVE, EXPIRED once membership_end has passed, INACTIVE while suspended or pending. */
export function objectState(member: Pick<MemberRow, "payment_status" | "membership_end">, today = todayUtc()): "ACTIVE" | "EXPIRED" | "INACTIVE" {
  return STATES[derivedStatus(member, today)];
}

/** The member's loyalty object: everything that differs from one card to the next. */
export function loyaltyObject(cfg: GoogleWalletConfig, data: PassData, now = new Date()): Record<string, unknown> {
  const { member, club } = data;
  const card = cardView(data, todayUtc(now));
  const { locale, texts: tx } = card;
  const obj: Record<string, unknown> = {
    id: objectIdOf(cfg, member.pass_serial_number),
    classId: classIdOf(cfg, club.id),
    state: STATES[card.status],
    accountName: card.holderName,
    accountId: card.code,
    barcode: { type: BARCODE_TYPES[card.barcode], value: card.code, alternateText: card.code },
    validTimeInterval: {
      start: { date: `${member.membership_start}T00:00:00Z` },
      end: { date: `${card.validThrough}T23:59:59Z` },
    },
    // Google shows a balance here: the day itself (ISO), which Google's own date display does not reformat.
    secondaryLoyaltyPoints: { label: tx.validUntil, localizedLabel: localized(locale, tx.validUntil), balance: { string: member.membership_end } },
    textModulesData: card.walletFields.slice(0, MAX_TEXT_MODULES).map((f, i) => ({ id: `field_${i}`, header: f.label, body: f.value })),
  };
  if (card.tierName) obj.loyaltyPoints = { label: tx.tier, localizedLabel: localized(locale, tx.tier), balance: { string: card.tierName } };
  if (card.link) obj.linksModuleData = { uris: [{ id: "custom_link", uri: card.link.url, description: card.link.label || tx.link }] };
  const locations = card.walletLocations.map((l) => ({ latitude: l.latitude, longitude: l.longitude }));
  if (locations.length) obj.locations = locations;
  return obj;
}

/**
 * The object that replaces an erased member's card (lib/passes/voided): INACTIVE (Google moves it
 * to "Expired passes"), and, as a PUT replaces the whole object, without name, code, barcode,
 * dates or fields: only "no longer valid" in the club's language.
 */
export function voidedLoyaltyObject(cfg: GoogleWalletConfig, club: CardClub, serial: string): Record<string, unknown> {
  const { locale, texts } = clubCardView(club);
  return {
    id: objectIdOf(cfg, serial),
    classId: classIdOf(cfg, club.id),
    state: "INACTIVE",
    textModulesData: [{ id: "voided", body: texts.voided, localizedBody: localized(locale, texts.voided) }],
  };
}
