// The member's Apple Wallet pass (a signed `.pkpass`, built with passkit-generator): a
// storeCard carrying the club's name and colours, the member's name, tier and validity, the
// barcode of `card_barcode_format` with the referral code (SPEC: what the QR code carries), the
// back fields meant for the member's tier, the club's locations and custom link. It is built
// anew for every download: what it shows is always the database's current state, and its
// Last-Modified comes from `members.pass_updated_at` (lib/cards/pass-updates).
import { timingSafeEqual } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { PKPass } from "passkit-generator";
import type { Db } from "../../../db";
import { clubs, members, tiers } from "../../../db/schema";
import type { ClubRow } from "../../clubs";
import { type CardBackField, readCardBackFields } from "../../clubs/schemas";
import type { AppleWalletConfig, WalletConfig } from "../../config";
import { NotFound } from "../../errors";
import { asLocale, type Locale } from "../../i18n";
import { randomBase62, sha256Hex } from "../../ids";
import { derivedStatus, todayUtc } from "../../members/status";
import { color, formatDate, labelOn, readLocations, TEXTS, textOn } from "../web";
import { appleCertificates } from "./certs";
import { solidPng } from "../png";
import { limitCardRequest } from "../public-limit";

export type MemberRow = typeof members.$inferSelect;
/** What building a pass needs besides the database: the Apple settings and the public address. */
export type AppleSite = { baseUrl: string; wallets: WalletConfig };

export const PKPASS_TYPE = "application/vnd.apple.pkpass";

/** The Apple settings, or a 404 saying Apple Wallet is not set up here. */
export function requireApple(wallets: WalletConfig): AppleWalletConfig {
  if (!wallets.apple) throw new NotFound("APPLE_WALLET_NOT_CONFIGURED");
  return wallets.apple;
}

/** The PassKit web service root written in each pass (Apple appends `/v1/...`). */
export const webServiceUrl = (baseUrl: string) => `${baseUrl}/api/passkit`;

const DESCRIPTION: Record<Locale, string> = {
  fr: "Carte de membre",
  en: "Membership card",
  de: "Mitgliedskarte",
  it: "Tessera socio",
};

const BARCODE_FORMATS = {
  qr: "PKBarcodeFormatQR",
  pdf417: "PKBarcodeFormatPDF417",
  aztec: "PKBarcodeFormatAztec",
  code128: "PKBarcodeFormatCode128",
} as const;

/** Apple shows at most 10 locations per pass. */
const MAX_LOCATIONS = 10;

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

/** When what the pass shows last changed: its Last-Modified and the web service's update tag. */
export const passChangedAt = (m: Pick<MemberRow, "pass_updated_at" | "created_at">): string => m.pass_updated_at ?? m.created_at;

/** The member whose pass serial is `serial` (any club: the serial is unique and unguessable), or null. */
export async function memberBySerial(db: Db, serial: string): Promise<MemberRow | null> {
  if (serial.length > 100) return null;
  const [row] = await db.read.select().from(members).where(eq(members.pass_serial_number, serial)).limit(1);
  return row ?? null;
}

/**
 * The pass's authentication token, made and stored the first time it is needed. Random and
 * unguessable: it is all a device shows to the web service for this pass.
 */
export async function passAuthToken(db: Db, member: MemberRow): Promise<string> {
  if (member.pass_auth_token) return member.pass_auth_token;
  const token = randomBase62(40);
  // Two first downloads at once: the first write wins and both read it back.
  await db.tx((t) =>
    t
      .update(members)
      .set({ pass_auth_token: token })
      .where(and(eq(members.id, member.id), isNull(members.pass_auth_token))),
  );
  const [row] = await db.read.select({ token: members.pass_auth_token }).from(members).where(eq(members.id, member.id));
  return row?.token ?? token;
}

/** Whether `given` is the member's token, compared in constant time (hashes have one length). */
export function tokenMatches(member: Pick<MemberRow, "pass_auth_token">, given: string | null): boolean {
  if (!member.pass_auth_token || !given) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(member.pass_auth_token), "hex"), Buffer.from(sha256Hex(given), "hex"));
}

/** The signed `.pkpass` of `member`, as it should look now. */
export async function buildPass(db: Db, site: AppleSite, member: MemberRow): Promise<Uint8Array<ArrayBuffer>> {
  const apple = requireApple(site.wallets);
  const [club] = (await db.read.select().from(clubs).where(eq(clubs.id, member.club_id)).limit(1)) as ClubRow[];
  if (!club) throw new NotFound("PASS_NOT_FOUND");
  const tierName = member.tier_id
    ? ((await db.read.select({ name: tiers.name }).from(tiers).where(eq(tiers.id, member.tier_id)).limit(1))[0]?.name ?? null)
    : null;
  const token = await passAuthToken(db, member);

  const locale = asLocale(club.locale);
  const tx = TEXTS[locale];
  const status = derivedStatus(member, todayUtc());
  const primary = color(club.primary_color, "#1F2937");
  const clubName = String(club.name ?? "");
  const name = club.name_order === "last_first" ? `${member.last_name} ${member.first_name}` : `${member.first_name} ${member.last_name}`;

  const pass = new PKPass(
    {
      "icon.png": solidPng(29, primary),
      "icon@2x.png": solidPng(58, primary),
      "icon@3x.png": solidPng(87, primary),
    },
    appleCertificates(apple),
    {
      formatVersion: 1,
      passTypeIdentifier: apple.passTypeId,
      teamIdentifier: apple.teamId,
      serialNumber: member.pass_serial_number,
      organizationName: clubName || DESCRIPTION[locale],
      description: clubName ? `${DESCRIPTION[locale]} ${clubName}` : DESCRIPTION[locale],
      logoText: clubName,
      backgroundColor: rgb(primary),
      foregroundColor: rgb(textOn(primary)),
      labelColor: rgb(labelOn(color(club.card_label_color, "#C8C8C8"), primary)),
      sharingProhibited: club.card_sharing_prohibited !== false,
      webServiceURL: webServiceUrl(site.baseUrl),
      authenticationToken: token,
      ...(member.payment_status === "suspended" ? { voided: true } : {}),
    },
  );
  pass.type = "storeCard";

  pass.headerFields.push({ key: "status", label: "", value: tx.status[status] });
  pass.primaryFields.push({ key: "member", label: tx.member, value: name });
  if (tierName) pass.secondaryFields.push({ key: "tier", label: tx.tier, value: tierName });
  pass.secondaryFields.push({ key: "valid_until", label: tx.validUntil, value: formatDate(member.membership_end, locale, club.country) });

  const format = BARCODE_FORMATS[String(club.card_barcode_format ?? "qr") as keyof typeof BARCODE_FORMATS] ?? BARCODE_FORMATS.qr;
  pass.setBarcodes({ format, message: member.referral_code, messageEncoding: "iso-8859-1", altText: member.referral_code });
  // Valid through the whole last day (UTC, like every member date: DESIGN.md section 6).
  pass.setExpirationDate(new Date(`${member.membership_end}T23:59:59.000Z`));

  for (const [i, f] of backFieldsFor(club, member).entries()) {
    pass.backFields.push({ key: `back_${i}`, label: f.label, value: f.value });
  }
  if (club.card_welcome_message) pass.backFields.push({ key: "welcome", label: "", value: String(club.card_welcome_message) });
  const link = club.card_custom_link_url as string | null;
  if (link && /^https?:\/\/\S+$/i.test(link)) {
    pass.backFields.push({
      key: "custom_link",
      label: (club.card_custom_link_label as string | null) || clubName,
      value: link,
      dataDetectorTypes: ["PKDataDetectorTypeLink"],
    });
  }

  if (club.card_geolocation_enabled !== false) {
    const locations = readLocations(club.card_locations).slice(0, MAX_LOCATIONS);
    if (locations.length)
      pass.setLocations(
        ...locations.map((l) => ({
          latitude: l.latitude,
          longitude: l.longitude,
          ...(l.label || l.address ? { relevantText: String(l.label || l.address) } : {}),
        })),
      );
  }
  return new Uint8Array(pass.getAsBuffer());
}

/** The back fields shown to this member: those of every tier, plus those of the member's tier. */
function backFieldsFor(club: ClubRow, member: MemberRow): CardBackField[] {
  let fields: CardBackField[] = [];
  try {
    fields = readCardBackFields(club.card_back_fields) ?? [];
  } catch {
    // A stored field that no longer parses must not take the member's pass down.
  }
  // Apple's card stays minimal (SPEC "CardBackField"): label and value only.
  return fields.filter((f) => (!f.tier_ids?.length || (member.tier_id !== null && f.tier_ids.includes(member.tier_id))) && (f.label || f.value));
}

/**
 * The pass of the member holding `serial`, for the public download: 404 when unknown or not
 * configured. Rate-limited per client address `ip` (lib/cards/public-limit).
 */
export async function downloadPass(
  db: Db,
  site: AppleSite,
  serial: string,
  ip: string | null,
): Promise<{ body: Uint8Array<ArrayBuffer>; lastModified: string }> {
  limitCardRequest(db, ip);
  requireApple(site.wallets);
  const member = await memberBySerial(db, serial);
  if (!member) throw new NotFound("PASS_NOT_FOUND");
  return { body: await buildPass(db, site, member), lastModified: passChangedAt(member) };
}
