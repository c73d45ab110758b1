// The one owner of every read of "the club" (STYLE.md's "get in club or throw" helpers): the whole
// row (prepared: most requests read it), the narrow settings most verbs need, the card's fields,
// and a club found by what a person types. Other areas read the club through these, never by
// their own query, so a column's meaning is read in one place.
import { asc, eq, or, sql } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { clubs } from "../../db/schema";
import { NotFound } from "../errors";
import { asLocale, type Locale } from "../i18n";

export type ClubRow = typeof clubs.$inferSelect;

/**
 * Every club field a card reads: `loadCardClub` selects exactly these columns, so a renderer
 * cannot read another one (it is not in the row, nor in the type), and a change of any of them
 * updates the club's passes (lib/cards/pass-updates). A field added to a card is added here.
 */
export const CARD_CLUB_FIELDS = [
  "name",
  "locale",
  // The validity date's format: `fr-CH` style (web card, Apple), Google's countryCode.
  "country",
  // The holder's name: first-last or last-first.
  "name_order",
  "primary_color",
  // The web card's accents; Google's placeholder logo.
  "secondary_color",
  "card_label_color",
  "logo_url",
  "logo_square_url",
  "logo_circular_url",
  "card_back_fields",
  "card_locations",
  "card_geolocation_enabled",
  "card_custom_link_url",
  "card_custom_link_label",
  "card_welcome_message",
  "card_barcode_format",
  "card_sharing_prohibited",
  // The status the card shows keeps a member active through the grace period.
  "grace_period_days",
] as const;

export type CardClubField = (typeof CARD_CLUB_FIELDS)[number];

/** Club fields that show on a pass: exactly those the cards read. */
const CLUB_FIELDS_ON_PASS: ReadonlySet<string> = new Set(CARD_CLUB_FIELDS);
export const clubFieldShowsOnPass = (name: string) => CLUB_FIELDS_ON_PASS.has(name);

/** The club as a card sees it: its id and the fields of CARD_CLUB_FIELDS, nothing else. */
export type CardClub = Pick<typeof clubs.$inferSelect, "id" | CardClubField>;

const CLUB_SELECTION = Object.fromEntries([["id", clubs.id], ...CARD_CLUB_FIELDS.map((name) => [name, clubs[name]])]) as {
  [K in "id" | CardClubField]: (typeof clubs)[K];
};

/** The card fields of club `clubId`, or null when there is no such club. */
export async function loadCardClub(q: Queryable, clubId: string): Promise<CardClub | null> {
  const [club] = await q.select(CLUB_SELECTION).from(clubs).where(eq(clubs.id, clubId)).limit(1);
  return club ?? null;
}

export async function getClubRow(db: Db, clubId: string): Promise<ClubRow> {
  // Read by most requests, and the widest table: prepared once (see Db.prepareRead).
  const [row] = await db
    .prepareRead("clubs.byId", (q) =>
      q
        .select()
        .from(clubs)
        .where(eq(clubs.id, sql.placeholder("id")))
        .limit(1),
    )
    .execute({ id: clubId });
  if (!row) throw new NotFound("CLUB_NOT_FOUND");
  return row;
}

export type ClubSettings = {
  id: string;
  name: string;
  slug: string;
  locale: Locale;
  currency: string;
  membership_duration_months: number;
  commission_rate_percent: number | null;
  custom_fields_schema: unknown;
  /** Where members' replies go (the card email's Reply-To). */
  contact_email: string | null;
  /** The club's logo (lib/clubs/logo), shown atop the card email. */
  logo_url: string | null;
  /** Days a member stays `active` past the end (lib/members/status `statusDay`). */
  grace_period_days: number;
  /** Hours an unpaid public registration holds its place (issue 18). */
  pending_hold_hours: number;
  /** What the club can be paid with (lib/clubs/payments). */
  payout_iban: string | null;
  payment_methods_enabled: string[];
};

/** The settings most verbs need (name, slug, language, currency, period, commission, custom fields, contact): a narrow read. */
export async function clubSettings(q: Queryable, clubId: string): Promise<ClubSettings> {
  const [row] = await q
    .select({
      id: clubs.id,
      name: clubs.name,
      slug: clubs.slug,
      locale: clubs.locale,
      currency: clubs.currency,
      membership_duration_months: clubs.membership_duration_months,
      commission_rate_percent: clubs.commission_rate_percent,
      custom_fields_schema: clubs.custom_fields_schema,
      contact_email: clubs.contact_email,
      logo_url: clubs.logo_url,
      grace_period_days: clubs.grace_period_days,
      pending_hold_hours: clubs.pending_hold_hours,
      payout_iban: clubs.payout_iban,
      payment_methods_enabled: clubs.payment_methods_enabled,
    })
    .from(clubs)
    .where(eq(clubs.id, clubId))
    .limit(1);
  if (!row) throw new NotFound("CLUB_NOT_FOUND");
  return { ...row, locale: asLocale(row.locale) };
}

/** The club's grace period in days (0 for an unknown club): read by every status shown, so prepared. */
export async function clubGraceDays(db: Db, clubId: string): Promise<number> {
  const [row] = await db
    .prepareRead("clubs.grace", (q) =>
      q
        .select({ grace: clubs.grace_period_days })
        .from(clubs)
        .where(eq(clubs.id, sql.placeholder("id")))
        .limit(1),
    )
    .execute({ id: clubId });
  return row?.grace ?? 0;
}

/** The club whose id or slug is `ref` (what a person types at the CLI); CLUB_NOT_FOUND otherwise. */
export async function findClubByRef(db: Db, ref: string): Promise<{ id: string; slug: string; name: string }> {
  const [row] = await db.read
    .select({ id: clubs.id, slug: clubs.slug, name: clubs.name })
    .from(clubs)
    .where(or(eq(clubs.id, ref), eq(clubs.slug, ref)))
    .limit(1);
  if (!row) throw new NotFound("CLUB_NOT_FOUND");
  return row;
}

/** Every club's id, in id order (a sweep over all clubs: reminders, dunning). */
export async function allClubIds(db: Db): Promise<string[]> {
  return (await db.read.select({ id: clubs.id }).from(clubs).orderBy(asc(clubs.id))).map((c) => c.id);
}
