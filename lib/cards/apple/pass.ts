// The member's Apple Wallet pass (a signed `.pkpass`, built with passkit-generator): a
// storeCard carrying the club's name and colours, the member's name, tier and validity, the
// barcode of `card_barcode_format` with the referral code (SPEC: what the QR code carries), the
// back fields meant for the member's tier, the club's locations and custom link. It is built
// anew for every download: what it shows is always the database's current state, and its
// Last-Modified comes from `members.pass_updated_at` (lib/cards/pass-updates).
import { timingSafeEqual } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db";
import { members } from "../../../db/schema";
import type { AppleWalletConfig, WalletConfig } from "../../config";
import type { PublicCtx } from "../../context";
import { NotFound } from "../../errors";
import { randomBase62, sha256Hex } from "../../ids";
import { lazy } from "../../lazy";
import type { FileReply } from "../../reply";
import { passLogoImages } from "../../clubs/logo";
import { solidPng } from "../png";
import { type BarcodeFormat, type CardClub, type CardData, type ClubCardView, cardView, clubCardView, loadCard, type MemberRow } from "../view";
import { appleCertificates } from "./certs";
import { PASS_DESCRIPTION } from "../../i18n/texts";

export type { MemberRow };

/** passkit-generator (with node-forge and joi) loads with the first pass download. */
const passkit = lazy(() => import("passkit-generator"));
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

const APPLE_BARCODES = {
  qr: "PKBarcodeFormatQR",
  pdf417: "PKBarcodeFormatPDF417",
  aztec: "PKBarcodeFormatAztec",
  code128: "PKBarcodeFormatCode128",
} as const satisfies Record<BarcodeFormat, string>;

/** Apple shows at most 10 locations per pass. */
const MAX_LOCATIONS = 10;

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

/** When what the pass shows last changed: its Last-Modified and the web service's update tag. */
export const passChangedAt = (m: Pick<MemberRow, "pass_updated_at" | "created_at">): string => m.pass_updated_at ?? m.created_at;

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
  return hashMatches(sha256Hex(member.pass_auth_token), given);
}

/** Whether `given` is the token whose sha256 is `hash` (a voided pass keeps only that), in constant time. */
export function hashMatches(hash: string, given: string): boolean {
  const a = Buffer.from(hash, "hex");
  const b = Buffer.from(sha256Hex(given), "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A storeCard pass of the club (name, colours, icon, web service) for `serial`, without any member
 * field yet. Its icon and logo are the club's uploaded logo (`logo`: lib/clubs/logo
 * `passLogoImages`), else a square of its colour: Apple refuses a pass without an icon.
 */
async function clubPass(
  apple: AppleWalletConfig,
  site: AppleSite,
  club: ClubCardView,
  logo: Record<string, Buffer> | null,
  serial: string,
  token: string,
  voided: boolean,
) {
  const { locale, clubName, colors } = club;
  const { PKPass } = await passkit();
  const pass = new PKPass(
    logo ?? {
      "icon.png": solidPng(29, colors.primary),
      "icon@2x.png": solidPng(58, colors.primary),
      "icon@3x.png": solidPng(87, colors.primary),
    },
    appleCertificates(apple),
    {
      formatVersion: 1,
      passTypeIdentifier: apple.passTypeId,
      teamIdentifier: apple.teamId,
      serialNumber: serial,
      organizationName: clubName || PASS_DESCRIPTION[locale],
      description: clubName ? `${PASS_DESCRIPTION[locale]} ${clubName}` : PASS_DESCRIPTION[locale],
      logoText: clubName,
      backgroundColor: rgb(colors.primary),
      foregroundColor: rgb(colors.onPrimary),
      labelColor: rgb(colors.label),
      sharingProhibited: club.sharingProhibited,
      webServiceURL: webServiceUrl(site.baseUrl),
      authenticationToken: token,
      ...(voided ? { voided: true } : {}),
    },
  );
  pass.type = "storeCard";
  return pass;
}

/**
 * The void pass that replaces an erased member's (lib/passes/voided): the club's name and
 * colours and "no longer valid" in the club's language; no name, code, barcode or date.
 * `token` is the one the device proved itself with (only its hash is kept).
 */
export async function buildVoidedPass(db: Db, site: AppleSite, club: CardClub, serial: string, token: string): Promise<Uint8Array<ArrayBuffer>> {
  const view = clubCardView(club);
  const pass = await clubPass(requireApple(site.wallets), site, view, await passLogoImages(db.read, club.id), serial, token, true);
  pass.primaryFields.push({ key: "voided", label: "", value: view.texts.voided });
  return new Uint8Array(pass.getAsBuffer());
}

/** The signed `.pkpass` of the card `data` (lib/cards/view `loadCard`), as it should look now. */
export async function buildPass(db: Db, site: AppleSite, data: CardData): Promise<Uint8Array<ArrayBuffer>> {
  const apple = requireApple(site.wallets);
  const { member } = data;
  const token = await passAuthToken(db, member);
  const card = cardView(data);
  const { texts: tx, clubName } = card;
  const logo = await passLogoImages(db.read, member.club_id);
  const pass = await clubPass(apple, site, card, logo, member.pass_serial_number, token, member.payment_status === "suspended");

  pass.headerFields.push({ key: "status", label: "", value: tx.status[card.status] });
  pass.primaryFields.push({ key: "member", label: tx.member, value: card.holderName });
  if (card.tierName) pass.secondaryFields.push({ key: "tier", label: tx.tier, value: card.tierName });
  pass.secondaryFields.push({ key: "valid_until", label: tx.validUntil, value: card.validUntil });

  pass.setBarcodes({ format: APPLE_BARCODES[card.barcode], message: card.code, messageEncoding: "iso-8859-1", altText: card.code });
  // Valid through the whole last day (UTC, like every member date: DESIGN.md section 6), grace period included.
  pass.setExpirationDate(new Date(`${card.validThrough}T23:59:59.000Z`));

  // Apple's card stays minimal (SPEC "CardBackField"): label and value only.
  for (const [i, f] of card.walletFields.entries()) pass.backFields.push({ key: `back_${i}`, label: f.label, value: f.value });
  if (card.welcome) pass.backFields.push({ key: "welcome", label: "", value: card.welcome });
  if (card.link) {
    pass.backFields.push({
      key: "custom_link",
      label: card.link.label || clubName,
      value: card.link.url,
      dataDetectorTypes: ["PKDataDetectorTypeLink"],
    });
  }

  const locations = card.walletLocations.slice(0, MAX_LOCATIONS);
  if (locations.length)
    pass.setLocations(
      ...locations.map((l) => ({
        latitude: l.latitude,
        longitude: l.longitude,
        ...(l.label || l.address ? { relevantText: String(l.label || l.address) } : {}),
      })),
    );
  return new Uint8Array(pass.getAsBuffer());
}

/** The pass of the member holding `serial`, for the public download: 404 when unknown or not configured. */
export async function downloadPass(ctx: PublicCtx, serial: string): Promise<FileReply> {
  requireApple(ctx.wallets);
  const data = await loadCard(ctx.db.read, { serial });
  if (!data) throw new NotFound("PASS_NOT_FOUND");
  const body = await buildPass(ctx.db, ctx, data);
  return { body, contentType: PKPASS_TYPE, headers: { "cache-control": "no-store", "last-modified": new Date(passChangedAt(data.member)).toUTCString() } };
}
