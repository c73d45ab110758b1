// The club's fields, declared once. The Drizzle columns, the ClubAdmin and ClubUpdate shapes,
// the writable set and the scope each field needs are all derived from this table, so a field
// added here appears everywhere at once (SPEC "Club", "Club update payload").

export type FieldKind = "string" | "integer" | "number" | "boolean" | "json" | "datetime" | "date";
/** Which scope area guards a write of the field (DESIGN.md section 4, PUT /api/clubs/<id>). */
export type FieldArea = "page" | "card" | "finances";

export type ClubField = {
  name: string;
  kind: FieldKind;
  /** May hold null in the Club. */
  nullable: boolean;
  /** Value stored when none is given. Functions are evaluated at creation. */
  default?: unknown;
  /** Part of ClubUpdate. */
  writable: boolean;
  area: FieldArea;
  /** Extra validation for writes: a named check of lib/clubs/schemas.ts. */
  check?:
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
    | "country";
};

type Opts = Partial<Omit<ClubField, "name" | "kind">>;
const f = (name: string, kind: FieldKind, opts: Opts = {}): ClubField => ({
  name,
  kind,
  nullable: opts.nullable ?? false,
  writable: opts.writable ?? true,
  area: opts.area ?? (name.startsWith("card_") ? "card" : "page"),
  ...opts,
});
const str = (name: string, opts: Opts = {}) => f(name, "string", { nullable: true, ...opts });
const money = (name: string, opts: Opts = {}) => f(name, "integer", { area: "finances", ...opts });

/** Social networks of the eight `social_<network>_url` fields (SPEC leaves the list open). */
export const SOCIAL_NETWORKS = ["facebook", "instagram", "linkedin", "x", "tiktok", "youtube", "strava", "whatsapp"] as const;

export const CLUB_FIELDS: ClubField[] = [
  // Required
  f("name", "string"),
  f("slug", "string", { writable: false }),
  str("logo_url", { writable: false }),
  f("primary_color", "string", { default: "#1F2937", check: "color" }),
  f("secondary_color", "string", { default: "#F59E0B", check: "color" }),
  money("membership_fee_cents", { default: 0, check: "nonnegative" }),
  f("currency", "string", { default: "CHF", check: "currency", area: "finances" }),
  f("membership_duration_months", "integer", { default: 12, check: "months" }),
  f("pricing_plan", "string", { default: "free", writable: false }),
  // Branding
  str("logo_horizontal_url", { writable: false }),
  str("logo_square_url", { writable: false }),
  str("logo_circular_url", { writable: false }),
  str("checkout_color", { check: "color" }),
  str("checkout_color_dark", { check: "color" }),
  str("cover_photo_url", { check: "url" }),
  str("description"),
  f("price_display_mode", "string", { default: "period" }),
  f("show_member_count", "boolean", { default: true }),
  // Fees and payment state
  f("commission_rate_percent", "number", { nullable: true, writable: false, area: "finances" }),
  money("fee_fixed_cents", { default: 0, writable: false }),
  str("payment_provider", { writable: false, area: "finances" }),
  str("payment_provider_next", { writable: false, area: "finances" }),
  f("payments_available", "boolean", { default: true, writable: false, area: "finances" }),
  f("payments_connected", "boolean", { default: false, writable: false, area: "finances" }),
  f("payments_ready", "boolean", { default: false, writable: false, area: "finances" }),
  f("fee_model", "string", { default: "all_in", writable: false, area: "finances" }),
  f("psp_rate_percent", "number", { nullable: true, writable: false, area: "finances" }),
  f("psp_rate_fixed_cents", "integer", { nullable: true, writable: false, area: "finances" }),
  str("psp_label", { writable: false, area: "finances" }),
  str("psp_pricing_url", { writable: false, area: "finances" }),
  f("fee_policy", "string", { default: "club", area: "finances" }),
  f("payment_methods_enabled", "json", { default: () => ["bank_transfer"], area: "finances" }),
  str("provider_organization_id", { writable: false, area: "finances" }),
  str("provider_profile_id", { writable: false, area: "finances" }),
  // Payout
  str("payout_iban", { area: "finances" }),
  str("payout_bic", { area: "finances" }),
  str("payout_beneficiary_name", { area: "finances" }),
  str("payout_bank_name", { area: "finances" }),
  // Card appearance
  str("card_custom_link_label"),
  str("card_custom_link_url", { check: "url" }),
  f("card_custom_link_updated_at", "datetime", { nullable: true, writable: false }),
  f("card_theme", "string", { default: "default" }),
  f("card_label_color", "string", { default: "#C8C8C8", check: "color" }),
  str("card_strip_image_url", { writable: false }),
  str("card_thumbnail_url", { writable: false }),
  str("card_welcome_message"),
  f("card_barcode_format", "string", { default: "qr", check: "barcode" }),
  f("card_sharing_prohibited", "boolean", { default: true }),
  f("card_hide_branding", "boolean", { default: false }),
  f("card_update_notifications", "boolean", { default: false }),
  f("card_geolocation_enabled", "boolean", { default: true }),
  f("last_wallet_push_at", "datetime", { nullable: true, writable: false }),
  f("card_back_fields", "json", { nullable: true, check: "card_back_fields" }),
  f("card_locations", "json", { nullable: true, check: "card_locations" }),
  f("card_slot_secondary", "string", { default: "tier" }),
  f("card_slot_auxiliary", "string", { default: "none" }),
  str("card_custom_source"),
  str("card_custom_field_key"),
  str("card_custom_constant_value"),
  str("card_custom_label"),
  // Social links
  ...SOCIAL_NETWORKS.map((n) => str(`social_${n}_url`, { check: "url" })),
  str("social_website_url", { check: "url" }),
  // Partners
  f("partners", "json", { nullable: true }),
  // Subscription
  f("allow_subscription", "boolean", { default: false }),
  f("subscription_default", "boolean", { default: true }),
  f("subscription_only", "boolean", { default: false }),
  f("referral_free_until", "date", { nullable: true, writable: false }),
  // Legal and location
  str("legal_name"),
  str("address"),
  str("postal_code"),
  str("city"),
  str("country", { check: "country" }),
  str("vat_number"),
  str("contact_email", { check: "email" }),
  f("latitude", "number", { nullable: true, check: "latitude" }),
  f("longitude", "number", { nullable: true, check: "longitude" }),
  // Membership and locale
  f("membership_mode", "string", { default: "open" }),
  str("application_instructions"),
  f("locale", "string", { default: "fr", check: "locale" }),
  f("date_format", "string", { default: "auto" }),
  f("date_format_effective", "string", { default: "iso", writable: false }),
  f("number_format", "string", { default: "auto" }),
  f("number_format_effective", "string", { default: "space_dot", writable: false }),
  // Member referral
  f("member_referral_enabled", "boolean", { default: true }),
  f("member_referral_reward_percent", "integer", { default: 10, check: "percent" }),
  f("member_referral_max_credits_cents", "integer", { nullable: true, check: "nonnegative" }),
  // Custom fields
  f("custom_fields_schema", "json", { default: () => [] }),
  // Accounting
  f("accounting_account_revenue", "string", { default: "3100", area: "finances" }),
  f("accounting_account_fees", "string", { default: "3090", area: "finances" }),
  f("accounting_account_bank", "string", { default: "1020", area: "finances" }),
  f("accounting_account_events", "string", { default: "3200", area: "finances" }),
  f("accounting_account_passage", "string", { default: "1021", area: "finances" }),
  f("accounting_journal", "string", { default: "", area: "finances" }),
  f("accounting_account_revenue_name", "string", { default: "Cotisations", area: "finances" }),
  f("accounting_account_fees_name", "string", { default: "Frais de paiement", area: "finances" }),
  f("accounting_account_bank_name", "string", { default: "Banque", area: "finances" }),
  f("accounting_account_events_name", "string", { default: "", area: "finances" }),
  f("accounting_account_passage_name", "string", { default: "Compte de passage", area: "finances" }),
  f("accounting_templates", "json", { nullable: true, writable: false, area: "finances" }),
];

/** Fields that exist only in ClubUpdate (SPEC): stored, never shown in the Club. */
export const UPDATE_ONLY_FIELDS: ClubField[] = [str("name_order"), str("payout_country", { area: "finances", check: "country" })];

export function defaultOf(field: ClubField): unknown {
  return typeof field.default === "function" ? (field.default as () => unknown)() : (field.default ?? null);
}
