// What the API does with each column of the club (SPEC "Club", "Club update payload"): whether the
// Club shows it, whether ClubUpdate writes it, which scope guards the write, its value at creation
// and any extra check of writes. The column itself (SQL type, null or not) is db/schema.ts; the
// table below is keyed by its names and typed by its columns, so a misspelt or missing field, or a
// default of the wrong type, does not compile. The ClubAdmin and ClubUpdate shapes, creation and
// update are derived from the two; test/db/club-columns.test.ts checks they agree.
import { getTableColumns } from "drizzle-orm";
import { columnKind } from "../../db/dialect";
import { clubs } from "../../db/schema";

type ClubRow = typeof clubs.$inferSelect;
/** Every column of the club but its id and timestamps: the club's fields. */
export type ClubColumn = Exclude<keyof ClubRow, "id" | "created_at" | "updated_at">;

export type FieldKind = "string" | "integer" | "number" | "boolean" | "json" | "datetime" | "date";
/** Which scope area guards a write of the field (DESIGN.md section 4, PUT /api/clubs/<id>). */
export type FieldArea = "page" | "card" | "finances";
/** Extra validation for writes: a named check of lib/clubs/schemas.ts. */
export type FieldCheck =
  | "color"
  | "url"
  | "email"
  | "currency"
  | "locale"
  | "latitude"
  | "longitude"
  | "percent"
  | "nonnegative"
  | "months"
  | "card_back_fields"
  | "card_locations"
  | "barcode"
  | "country"
  | "reminder_days"
  | "dunning_days"
  | "grace_days"
  | "hold_hours"
  | "iban"
  | "account"
  | "membership_mode";

/** What the API does with a column whose values are `T`. */
type FieldMeta<T> = {
  /** Value stored at creation (a function is evaluated then); none: null. */
  default?: T | (() => T);
  /** Part of ClubUpdate (default true). */
  writable?: boolean;
  /** Part of the Club (default true); false: stored, written through ClubUpdate, never shown. */
  shown?: boolean;
  /** Default: `card` for a `card_*` field, else `page`. */
  area?: FieldArea;
  check?: FieldCheck;
  /** A text column holding a date-time or a date (its OpenAPI format). */
  format?: "datetime" | "date";
  /** A `finances` field every reader sees (SPEC requires it in the Club; the join page shows it). */
  anyReader?: true;
};

/** A field of the club: its column's name, kind and nullability, and what the API does with it. */
export type ClubField = {
  name: ClubColumn;
  kind: FieldKind;
  /** May hold null in the Club (the column is nullable). */
  nullable: boolean;
  default?: unknown;
  writable: boolean;
  shown: boolean;
  area: FieldArea;
  /** Shown only to callers with this scope (absent from their Club otherwise): payout, fees, accounting. */
  readScope: "finances:view" | null;
  check?: FieldCheck;
};

const finances = { area: "finances" } as const;
const readOnly = { writable: false } as const;
const readOnlyFinances = { writable: false, area: "finances" } as const;

// In the Club's order (SPEC); the order of ClubAdmin's and ClubUpdate's properties.
const FIELDS = {
  // Required
  name: {},
  slug: readOnly,
  logo_url: readOnly,
  primary_color: { default: "#1F2937", check: "color" },
  secondary_color: { default: "#F59E0B", check: "color" },
  membership_fee_cents: { default: 0, check: "nonnegative", area: "finances", anyReader: true },
  currency: { default: "CHF", check: "currency", area: "finances", anyReader: true },
  membership_duration_months: { default: 12, check: "months" },
  pricing_plan: { default: "free", writable: false },
  // Branding
  logo_horizontal_url: readOnly,
  logo_square_url: readOnly,
  logo_circular_url: readOnly,
  checkout_color: { check: "color" },
  checkout_color_dark: { check: "color" },
  cover_photo_url: { check: "url" },
  description: {},
  price_display_mode: { default: "period" },
  show_member_count: { default: true },
  // Fees and payment state
  commission_rate_percent: readOnlyFinances,
  fee_fixed_cents: { default: 0, ...readOnlyFinances },
  payment_provider: readOnlyFinances,
  payment_provider_next: readOnlyFinances,
  payments_available: { default: true, ...readOnlyFinances },
  payments_connected: { default: false, ...readOnlyFinances },
  payments_ready: { default: false, ...readOnlyFinances },
  fee_model: { default: "all_in", ...readOnlyFinances },
  psp_rate_percent: readOnlyFinances,
  psp_rate_fixed_cents: readOnlyFinances,
  psp_label: readOnlyFinances,
  psp_pricing_url: readOnlyFinances,
  fee_policy: { default: "club", ...finances },
  payment_methods_enabled: { default: () => ["bank_transfer"], ...finances },
  provider_organization_id: readOnlyFinances,
  provider_profile_id: readOnlyFinances,
  // Payout
  payout_iban: { check: "iban", ...finances },
  payout_bic: finances,
  payout_beneficiary_name: finances,
  payout_bank_name: finances,
  // Card appearance
  card_custom_link_label: {},
  card_custom_link_url: { check: "url" },
  card_custom_link_updated_at: { format: "datetime", writable: false },
  card_theme: { default: "default" },
  card_label_color: { default: "#C8C8C8", check: "color" },
  card_strip_image_url: readOnly,
  card_thumbnail_url: readOnly,
  card_welcome_message: {},
  card_barcode_format: { default: "qr", check: "barcode" },
  card_sharing_prohibited: { default: true },
  card_hide_branding: { default: false },
  card_update_notifications: { default: false },
  card_geolocation_enabled: { default: true },
  last_wallet_push_at: { format: "datetime", writable: false },
  card_back_fields: { check: "card_back_fields" },
  card_locations: { check: "card_locations" },
  card_slot_secondary: { default: "tier" },
  card_slot_auxiliary: { default: "none" },
  card_custom_source: {},
  card_custom_field_key: {},
  card_custom_constant_value: {},
  card_custom_label: {},
  // Social links (SPEC leaves the networks open)
  social_facebook_url: { check: "url" },
  social_instagram_url: { check: "url" },
  social_linkedin_url: { check: "url" },
  social_x_url: { check: "url" },
  social_tiktok_url: { check: "url" },
  social_youtube_url: { check: "url" },
  social_strava_url: { check: "url" },
  social_whatsapp_url: { check: "url" },
  social_website_url: { check: "url" },
  // Partners
  partners: {},
  // Subscription
  allow_subscription: { default: false },
  subscription_default: { default: true },
  subscription_only: { default: false },
  referral_free_until: { format: "date", writable: false },
  // Legal and location
  legal_name: {},
  address: {},
  postal_code: {},
  city: {},
  country: { check: "country" },
  vat_number: {},
  contact_email: { check: "email" },
  latitude: { check: "latitude" },
  longitude: { check: "longitude" },
  // Membership and locale
  membership_mode: { default: "open", check: "membership_mode" },
  application_instructions: {},
  locale: { default: "fr", check: "locale" },
  date_format: { default: "auto" },
  date_format_effective: { default: "iso", writable: false },
  number_format: { default: "auto" },
  number_format_effective: { default: "space_dot", writable: false },
  // Member referral
  member_referral_enabled: { default: true },
  member_referral_reward_percent: { default: 10, check: "percent" },
  member_referral_max_credits_cents: { check: "nonnegative" },
  // Custom fields
  custom_fields_schema: { default: () => [] },
  // Accounting
  accounting_account_revenue: { default: "3100", ...finances, check: "account" },
  accounting_account_fees: { default: "3090", ...finances, check: "account" },
  accounting_account_bank: { default: "1020", ...finances, check: "account" },
  accounting_account_events: { default: "3200", ...finances, check: "account" },
  accounting_account_passage: { default: "1021", ...finances, check: "account" },
  accounting_journal: { default: "", ...finances },
  accounting_account_revenue_name: { default: "Cotisations", ...finances },
  accounting_account_fees_name: { default: "Frais de paiement", ...finances },
  accounting_account_bank_name: { default: "Banque", ...finances },
  accounting_account_events_name: { default: "", ...finances },
  accounting_account_passage_name: { default: "Compte de passage", ...finances },
  accounting_templates: readOnlyFinances,
  // Renewals and reminders (DESIGN.md section 14)
  renewal_reminder_days: { default: () => [30, 7], check: "reminder_days" },
  grace_period_days: { default: 0, check: "grace_days" },
  expiry_notice: { default: true },
  // Only in ClubUpdate (SPEC)
  name_order: { shown: false },
  payout_country: { shown: false, check: "country", ...finances },
  // Unpaid registrations (issue 18): how long a place is held waiting for money is the treasurer's call.
  pending_hold_hours: { default: 48, check: "hold_hours", ...finances },
  // Dunning and renewal invoices (issue 27, DESIGN.md section 20): the treasurer's, like the invoices.
  dunning_days: { default: () => [10, 30], check: "dunning_days", ...finances },
  dunning_fee_cents: { default: 0, check: "nonnegative", ...finances },
  suspend_after_dunning: { default: false, ...finances },
  renewal_invoices: { default: false, ...finances },
} satisfies { [K in ClubColumn]: FieldMeta<NonNullable<ClubRow[K]>> };

/** The fields that exist only in ClubUpdate (`shown: false`). */
export type UpdateOnlyColumn = { [K in ClubColumn]: (typeof FIELDS)[K] extends { shown: false } ? K : never }[ClubColumn];

const COLUMNS = getTableColumns(clubs);

function kindOf(name: ClubColumn, format: FieldMeta<unknown>["format"]): FieldKind {
  const kind = columnKind(COLUMNS[name]);
  if (kind === "blob") throw new Error(`clubs.${name}: no field kind for a blob column`);
  return kind === "text" ? (format ?? "string") : kind;
}

const ALL_FIELDS: ClubField[] = (Object.keys(FIELDS) as ClubColumn[]).map((name) => {
  const meta: FieldMeta<unknown> = FIELDS[name];
  return {
    name,
    kind: kindOf(name, meta.format),
    nullable: !COLUMNS[name].notNull,
    ...(meta.default === undefined ? {} : { default: meta.default }),
    writable: meta.writable ?? true,
    shown: meta.shown ?? true,
    area: meta.area ?? (name.startsWith("card_") ? "card" : "page"),
    readScope: meta.area === "finances" && !meta.anyReader ? "finances:view" : null,
    ...(meta.check ? { check: meta.check } : {}),
  };
});

/** The fields of the Club (ClubAdmin), in its order. */
export const CLUB_FIELDS: ClubField[] = ALL_FIELDS.filter((f) => f.shown);

/** Fields that exist only in ClubUpdate (SPEC): stored, never shown in the Club. */
export const UPDATE_ONLY_FIELDS: ClubField[] = ALL_FIELDS.filter((f) => !f.shown);

export function defaultOf(field: ClubField): unknown {
  return typeof field.default === "function" ? (field.default as () => unknown)() : (field.default ?? null);
}
