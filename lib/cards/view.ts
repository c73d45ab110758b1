// What a member's card shows, in one place for the web card (lib/cards/web), the Apple pass
// (lib/cards/apple/pass) and the Google card (lib/cards/google/objects): the card's data is
// loaded once (`loadCard`) and shaped once (`cardView`: holder name, status, validity, tier, the
// back fields the member's tier may see, locations, link, colours, labels in the club's
// language); each card only renders it in its own format.
//
// The club fields a card reads are CARD_CLUB_FIELDS (lib/clubs/internal, the owner of club reads):
// the loader selects exactly these columns, so a renderer cannot read another one.
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Queryable } from "../../db";
import { members, tiers } from "../../db/schema";
import { CARD_CLUB_FIELDS, type CardClub, loadCardClub } from "../clubs/internal";
import { BARCODE_FORMATS, type BarcodeFormat, type CardBackField, CardLocation, httpUrl, readCardBackFields } from "../clubs/schemas";

export type { BarcodeFormat };

// Re-exported for the pass updates, which push a change of any of them.
export { CARD_CLUB_FIELDS, type CardClub, loadCardClub };
import { brandColors, color, labelOn, textOn } from "../colors";
import { asLocale, type Locale } from "../i18n";
import { CARD_TEXTS, type CardTexts } from "../i18n/texts";
import type { MemberStatus } from "../members/schemas";
import { lastActiveDay, statusOn, todayUtc } from "../members/status";

export type MemberRow = typeof members.$inferSelect;
/** What every card of a member is made from. */
export type CardData = { member: MemberRow; club: CardClub; tierName: string | null };

/** The serial is the secret of a member's card pages; a longer string is no serial. */
export const MAX_SERIAL = 100;

/**
 * The member (by id, or by pass serial in any club: the serial is unique and unguessable), their
 * club's card fields and their tier's name; null when there is no such member (or the serial is
 * longer than any serial).
 */
export async function loadCard(q: Queryable, by: { memberId: string } | { serial: string }): Promise<CardData | null> {
  if ("serial" in by && by.serial.length > MAX_SERIAL) return null;
  const [row] = await q
    .select({ member: members, tier_name: tiers.name })
    .from(members)
    .leftJoin(tiers, and(eq(tiers.id, members.tier_id), eq(tiers.club_id, members.club_id)))
    .where("memberId" in by ? eq(members.id, by.memberId) : eq(members.pass_serial_number, by.serial))
    .limit(1);
  if (!row) return null;
  const club = await loadCardClub(q, row.member.club_id);
  return club ? { member: row.member, club, tierName: row.tier_name } : null;
}

export { color, httpUrl, labelOn, textOn };

/** The long-date formatter of each language tag asked for; null: a tag Intl refuses. */
const longDates = new Map<string, Intl.DateTimeFormat | null>();

function longDateFormat(tag: string): Intl.DateTimeFormat | null {
  let format = longDates.get(tag);
  if (format === undefined) {
    // Made once per tag: a reminder run formats a date per member, and making one costs more than using it.
    try {
      format = new Intl.DateTimeFormat(tag, { dateStyle: "long", timeZone: "UTC" });
    } catch {
      format = null;
    }
    // Tags come from the clubs' settings (a language and a country each): few, but not trusted to be.
    if (longDates.size < 500) longDates.set(tag, format);
  }
  return format;
}

/** `day` written long in the club's language, in the style of its country when it has one (`fr-CH`). */
export function formatDate(day: string, locale: Locale, country: unknown): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  for (const tag of [typeof country === "string" && country ? `${locale}-${country}` : locale, locale]) {
    try {
      const format = longDateFormat(tag);
      if (format) return format.format(date);
    } catch {}
  }
  return day;
}

/** The stored locations that parse (a broken one is left out, never fatal). */
export function readLocations(stored: unknown): z.infer<typeof CardLocation>[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((raw) => {
    const parsed = CardLocation.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
}

/** What every card of the club shares. */
export type ClubCardView = {
  clubId: string;
  locale: Locale;
  texts: CardTexts;
  /** The club's name as stored (may be empty). */
  clubName: string;
  country: string | null;
  colors: {
    /** The card's background. */
    primary: string;
    onPrimary: string;
    /** Accents (web card), the placeholder logo (Google). */
    secondary: string;
    onSecondary: string;
    /** `card_label_color`, or a readable grey when it is unreadable on the card. */
    label: string;
  };
  /** The club's `logo_url` when it is an http(s) address (web card). */
  logoUrl: string | null;
  /** The square logo for Google, else the circular one, else `logo_url` (http(s) only). */
  squareLogoUrl: string | null;
  barcode: BarcodeFormat;
  sharingProhibited: boolean;
  welcome: string | null;
  /** The custom link when it is an http(s) address, with the club's label (null: each card says it its way). */
  link: { url: string; label: string | null } | null;
  /** Every location that parses (the web card lists them). */
  locations: z.infer<typeof CardLocation>[];
  /** The locations the wallets may use: none when `card_geolocation_enabled` is false. */
  walletLocations: z.infer<typeof CardLocation>[];
};

/** What one member's card shows. */
export type CardView = ClubCardView & {
  /** The member's name in the club's `name_order`. */
  holderName: string;
  status: MemberStatus;
  /** The last day the card is valid (YYYY-MM-DD): membership_end plus the club's grace period. */
  validThrough: string;
  tierName: string | null;
  /** `membership_end` written long in the club's language. */
  validUntil: string;
  /** What the barcode carries (SPEC: the referral code). */
  code: string;
  /** The back fields the member's tier may see (the web card shows their partner details). */
  backFields: CardBackField[];
  /** The same, as the wallets show them: label and value only, empty ones left out. */
  walletFields: { label: string; value: string }[];
};

const str = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

export function clubCardView(club: CardClub): ClubCardView {
  const locale = asLocale(club.locale);
  const brand = brandColors(club);
  const format = String(club.card_barcode_format ?? "qr");
  const linkUrl = httpUrl(club.card_custom_link_url);
  const locations = readLocations(club.card_locations);
  return {
    clubId: club.id,
    locale,
    texts: CARD_TEXTS[locale],
    clubName: String(club.name ?? ""),
    country: str(club.country),
    colors: { ...brand, label: labelOn(color(club.card_label_color, "#C8C8C8"), brand.primary) },
    logoUrl: httpUrl(club.logo_url),
    squareLogoUrl: httpUrl(club.logo_square_url) ?? httpUrl(club.logo_circular_url) ?? httpUrl(club.logo_url),
    barcode: (BARCODE_FORMATS as readonly string[]).includes(format) ? (format as BarcodeFormat) : "qr",
    sharingProhibited: club.card_sharing_prohibited !== false,
    welcome: str(club.card_welcome_message),
    link: linkUrl ? { url: linkUrl, label: str(club.card_custom_link_label) } : null,
    locations,
    walletLocations: club.card_geolocation_enabled === false ? [] : locations,
  };
}

/** The back fields `member` may see: those of every tier, plus those of the member's tier. */
function backFieldsFor(club: CardClub, member: Pick<MemberRow, "tier_id">): CardBackField[] {
  const forMember = (f: CardBackField) => !f.tier_ids?.length || (member.tier_id !== null && f.tier_ids.includes(member.tier_id));
  try {
    return (readCardBackFields(club.card_back_fields) ?? []).filter(forMember);
  } catch {
    // A stored field that no longer parses must not take the member's card down.
    return [];
  }
}

/** What the member's card shows on `today` (UTC day: the status depends on it). */
export function cardView(data: CardData, today = todayUtc()): CardView {
  const { member, club, tierName } = data;
  const base = clubCardView(club);
  const backFields = backFieldsFor(club, member);
  return {
    ...base,
    holderName: club.name_order === "last_first" ? `${member.last_name} ${member.first_name}` : `${member.first_name} ${member.last_name}`,
    status: statusOn(member, today, club.grace_period_days),
    validThrough: lastActiveDay(member.membership_end, club.grace_period_days),
    tierName,
    validUntil: formatDate(member.membership_end, base.locale, club.country),
    code: member.referral_code,
    backFields,
    walletFields: backFields.filter((f) => f.label || f.value).map((f) => ({ label: f.label, value: f.value })),
  };
}
