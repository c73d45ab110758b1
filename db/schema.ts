// Drizzle schema, one description for both engines (the builders of db/dialect.ts). Column names are snake_case; times are ISO 8601 UTC strings,
// money integer cents, ids UUID strings. Each later area adds its tables below with a migration.
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, real, serialKey, table, text, uniqueIndex } from "./dialect";

/**
 * The club: its settings are columns, one per field of SPEC "Club" and "Club update payload".
 * What the API does with each (shown, writable, which scope, default at creation, extra checks)
 * is lib/clubs/fields.ts, keyed by these names. No SQL defaults: creation writes every value.
 */
export const clubs = table(
  "clubs",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    // Required
    name: text("name").notNull(),
    logo_url: text("logo_url"),
    primary_color: text("primary_color").notNull(),
    secondary_color: text("secondary_color").notNull(),
    membership_fee_cents: integer("membership_fee_cents").notNull(),
    currency: text("currency").notNull(),
    membership_duration_months: integer("membership_duration_months").notNull(),
    pricing_plan: text("pricing_plan").notNull(),
    // Branding
    logo_horizontal_url: text("logo_horizontal_url"),
    logo_square_url: text("logo_square_url"),
    logo_circular_url: text("logo_circular_url"),
    checkout_color: text("checkout_color"),
    checkout_color_dark: text("checkout_color_dark"),
    cover_photo_url: text("cover_photo_url"),
    description: text("description"),
    price_display_mode: text("price_display_mode").notNull(),
    show_member_count: integer("show_member_count", { mode: "boolean" }).notNull(),
    // Fees and payment state
    commission_rate_percent: real("commission_rate_percent"),
    fee_fixed_cents: integer("fee_fixed_cents").notNull(),
    payment_provider: text("payment_provider"),
    payment_provider_next: text("payment_provider_next"),
    payments_available: integer("payments_available", { mode: "boolean" }).notNull(),
    payments_connected: integer("payments_connected", { mode: "boolean" }).notNull(),
    payments_ready: integer("payments_ready", { mode: "boolean" }).notNull(),
    fee_model: text("fee_model").notNull(),
    psp_rate_percent: real("psp_rate_percent"),
    psp_rate_fixed_cents: integer("psp_rate_fixed_cents"),
    psp_label: text("psp_label"),
    psp_pricing_url: text("psp_pricing_url"),
    fee_policy: text("fee_policy").notNull(),
    payment_methods_enabled: text("payment_methods_enabled", { mode: "json" }).notNull().$type<string[]>(),
    provider_organization_id: text("provider_organization_id"),
    provider_profile_id: text("provider_profile_id"),
    // Payout
    payout_iban: text("payout_iban"),
    payout_bic: text("payout_bic"),
    payout_beneficiary_name: text("payout_beneficiary_name"),
    payout_bank_name: text("payout_bank_name"),
    // Card appearance
    card_custom_link_label: text("card_custom_link_label"),
    card_custom_link_url: text("card_custom_link_url"),
    card_custom_link_updated_at: text("card_custom_link_updated_at"),
    card_theme: text("card_theme").notNull(),
    card_label_color: text("card_label_color").notNull(),
    card_strip_image_url: text("card_strip_image_url"),
    card_thumbnail_url: text("card_thumbnail_url"),
    card_welcome_message: text("card_welcome_message"),
    card_barcode_format: text("card_barcode_format").notNull(),
    card_sharing_prohibited: integer("card_sharing_prohibited", { mode: "boolean" }).notNull(),
    card_hide_branding: integer("card_hide_branding", { mode: "boolean" }).notNull(),
    card_update_notifications: integer("card_update_notifications", { mode: "boolean" }).notNull(),
    card_geolocation_enabled: integer("card_geolocation_enabled", { mode: "boolean" }).notNull(),
    last_wallet_push_at: text("last_wallet_push_at"),
    card_back_fields: text("card_back_fields", { mode: "json" }).$type<Record<string, unknown>[]>(),
    card_locations: text("card_locations", { mode: "json" }).$type<Record<string, unknown>[]>(),
    card_slot_secondary: text("card_slot_secondary").notNull(),
    card_slot_auxiliary: text("card_slot_auxiliary").notNull(),
    card_custom_source: text("card_custom_source"),
    card_custom_field_key: text("card_custom_field_key"),
    card_custom_constant_value: text("card_custom_constant_value"),
    card_custom_label: text("card_custom_label"),
    // Social links
    social_facebook_url: text("social_facebook_url"),
    social_instagram_url: text("social_instagram_url"),
    social_linkedin_url: text("social_linkedin_url"),
    social_x_url: text("social_x_url"),
    social_tiktok_url: text("social_tiktok_url"),
    social_youtube_url: text("social_youtube_url"),
    social_strava_url: text("social_strava_url"),
    social_whatsapp_url: text("social_whatsapp_url"),
    social_website_url: text("social_website_url"),
    // Partners
    partners: text("partners", { mode: "json" }).$type<Record<string, unknown>[]>(),
    // Subscription
    allow_subscription: integer("allow_subscription", { mode: "boolean" }).notNull(),
    subscription_default: integer("subscription_default", { mode: "boolean" }).notNull(),
    subscription_only: integer("subscription_only", { mode: "boolean" }).notNull(),
    referral_free_until: text("referral_free_until"),
    // Legal and location
    legal_name: text("legal_name"),
    address: text("address"),
    postal_code: text("postal_code"),
    city: text("city"),
    country: text("country"),
    vat_number: text("vat_number"),
    contact_email: text("contact_email"),
    latitude: real("latitude"),
    longitude: real("longitude"),
    // Membership and locale
    membership_mode: text("membership_mode").notNull(),
    application_instructions: text("application_instructions"),
    locale: text("locale").notNull(),
    date_format: text("date_format").notNull(),
    date_format_effective: text("date_format_effective").notNull(),
    number_format: text("number_format").notNull(),
    number_format_effective: text("number_format_effective").notNull(),
    // Member referral
    member_referral_enabled: integer("member_referral_enabled", { mode: "boolean" }).notNull(),
    member_referral_reward_percent: integer("member_referral_reward_percent").notNull(),
    member_referral_max_credits_cents: integer("member_referral_max_credits_cents"),
    // Custom fields
    custom_fields_schema: text("custom_fields_schema", { mode: "json" }).notNull().$type<Record<string, unknown>[]>(),
    // Accounting
    accounting_account_revenue: text("accounting_account_revenue").notNull(),
    accounting_account_fees: text("accounting_account_fees").notNull(),
    accounting_account_bank: text("accounting_account_bank").notNull(),
    accounting_account_events: text("accounting_account_events").notNull(),
    accounting_account_passage: text("accounting_account_passage").notNull(),
    accounting_journal: text("accounting_journal").notNull(),
    accounting_account_revenue_name: text("accounting_account_revenue_name").notNull(),
    accounting_account_fees_name: text("accounting_account_fees_name").notNull(),
    accounting_account_bank_name: text("accounting_account_bank_name").notNull(),
    accounting_account_events_name: text("accounting_account_events_name").notNull(),
    accounting_account_passage_name: text("accounting_account_passage_name").notNull(),
    accounting_templates: text("accounting_templates", { mode: "json" }).$type<Record<string, unknown>[]>(),
    // Only in ClubUpdate (stored, never shown in the Club)
    name_order: text("name_order"),
    payout_country: text("payout_country"),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
    // Renewals and reminders (DESIGN.md section 14), added after the table existed: last, with
    // SQL defaults for the clubs already there (creation still writes every value).
    /** Days before membership_end a renewal reminder goes out (at most 5, each 1..365). */
    renewal_reminder_days: text("renewal_reminder_days", { mode: "json" }).notNull().default(sql`'[30,7]'`).$type<number[]>(),
    /** Days past membership_end a member stays `active` (lib/members/status). */
    grace_period_days: integer("grace_period_days").notNull().default(0),
    expiry_notice: integer("expiry_notice", { mode: "boolean" }).notNull().default(true),
    /** Hours an unpaid (`pending`) public registration holds its place before it is cancelled (1..720; issue 18). */
    pending_hold_hours: integer("pending_hold_hours").notNull().default(48),
    // Dunning and renewal invoices (issue 27, DESIGN.md section 20): lib/invoices/dunning.ts.
    /** Days after an invoice's due_on each reminder level is due (ascending, at most 3: dunning_level is 0..3). */
    dunning_days: text("dunning_days", { mode: "json" }).notNull().default(sql`'[10,30]'`).$type<number[]>(),
    /** Added once as an invoice line with the second reminder (0: none). */
    dunning_fee_cents: integer("dunning_fee_cents").notNull().default(0),
    /** Suspends the member once the last reminder level is reached. */
    suspend_after_dunning: integer("suspend_after_dunning", { mode: "boolean" }).notNull().default(false),
    /** The first renewal reminder makes the member's membership invoice and attaches its PDF. */
    renewal_invoices: integer("renewal_invoices", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [uniqueIndex("clubs_slug_unique").on(t.slug)],
);

export const admins = table(
  "admins",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    email: text("email").notNull(),
    first_name: text("first_name"),
    last_name: text("last_name"),
    role: text("role").notNull().default("admin"),
    is_superadmin: integer("is_superadmin", { mode: "boolean" }).notNull().default(false),
    read_only: integer("read_only", { mode: "boolean" }).notNull().default(false),
    access_expires_at: text("access_expires_at"),
    password_hash: text("password_hash"),
    referral_code: text("referral_code"),
    referral_unlocked: integer("referral_unlocked", { mode: "boolean" }).notNull().default(false),
    onboarding_step: text("onboarding_step").notNull().default("created"),
    onboarding: text("onboarding", { mode: "json" }).notNull().default(sql`'{}'`),
    /** Set when the admin is removed from the team; their keys then answer 401. */
    removed_at: text("removed_at"),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("admins_email_unique").on(t.email)],
);

export const apiKeys = table(
  "api_keys",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    admin_id: text("admin_id")
      .notNull()
      .references(() => admins.id),
    name: text("name"),
    /** `mk_live_` + 4 characters: what lists and the audit log show. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    key_hash: text("key_hash").notNull(),
    scopes: text("scopes", { mode: "json" }).notNull().$type<Record<string, string>>(),
    expires_at: text("expires_at"),
    revoked_at: text("revoked_at"),
    last_used_at: text("last_used_at"),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("api_keys_hash_unique").on(t.key_hash), index("api_keys_club_idx").on(t.club_id)],
);

/** Dashboard sessions (email and password login); only the token's SHA-256 is stored. */
export const adminSessions = table("admin_sessions", {
  id: text("id").primaryKey(),
  admin_id: text("admin_id")
    .notNull()
    .references(() => admins.id),
  token_hash: text("token_hash").notNull().unique(),
  expires_at: text("expires_at").notNull(),
  created_at: text("created_at").notNull(),
});

/**
 * One-time sign-in links (lib/auth/sign-in-links): the first start prints one for the owner, and
 * `cli admins sign-in-link` makes a fresh one. Only the token's SHA-256 is stored; `used_at` is
 * set by the one conditional write that spends it, so a link signs in once, whoever races.
 */
export const adminSignInLinks = table(
  "admin_sign_in_links",
  {
    id: text("id").primaryKey(),
    admin_id: text("admin_id")
      .notNull()
      .references(() => admins.id),
    token_hash: text("token_hash").notNull(),
    expires_at: text("expires_at").notNull(),
    used_at: text("used_at"),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("admin_sign_in_links_hash_unique").on(t.token_hash), index("admin_sign_in_links_admin_idx").on(t.admin_id)],
);

export const auditLog = table(
  "audit_log",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    admin_id: text("admin_id"),
    key_prefix: text("key_prefix"),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    duration_ms: real("duration_ms").notNull(),
    ip: text("ip"),
    via: text("via").notNull(),
    /** The MCP tool called, resource URI read or prompt got. */
    tool: text("tool"),
    /** An MCP request's JSON-RPC method(s), comma-separated for a batch; `stream` for a GET opening the event stream. */
    mcp_method: text("mcp_method"),
    created_at: text("created_at").notNull(),
    /** The answer's `X-Request-Id` (the client's when it sent a sane one): finds the row of a request a client reports. */
    request_id: text("request_id"),
    /** JSON `[{field, old, new}]`: the club settings the request changed that are audited by value (the accounting fields, lib/clubs). */
    changes: text("changes"),
  },
  (t) => [index("audit_log_club_time_idx").on(t.club_id, t.created_at)],
);

/**
 * Background work written in the same transaction as the change that causes it (no I/O inside a
 * transaction: DESIGN.md section 1), run after commit by lib/jobs, surviving restarts.
 */
export const jobs = table(
  "jobs",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    kind: text("kind").notNull(),
    payload: text("payload", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    run_after: text("run_after").notNull(),
    last_error: text("last_error"),
    /** What the last attempt's far end answered (a delivery's outcome: "APNs 200", "HTTP 404 ..."). */
    outcome: text("outcome"),
    created_at: text("created_at").notNull(),
    finished_at: text("finished_at"),
    /**
     * The claim of the process running the job (several processes share one queue): until
     * `lease_until` no other process takes it; a process that died lets it lapse, and another
     * runs the job (lib/jobs claimJobs).
     */
    lease_owner: text("lease_owner"),
    lease_until: text("lease_until"),
  },
  (t) => [
    index("jobs_status_run_after_idx").on(t.status, t.run_after),
    // One pending run of each recurring job (club ''), however many processes start at once.
    uniqueIndex("jobs_recurring_pending_unique").on(t.kind).where(sql`status = 'pending' and club_id = ''`),
    // A club's webhook events not yet fanned out to their deliveries (lib/webhooks/emit): only
    // those rows, briefly, so that the expansion and a read of the delivery log find them without
    // passing every pending delivery.
    index("jobs_webhook_fanout_pending_idx").on(t.club_id, t.run_after).where(sql`kind = 'webhook_fanout' and status = 'pending'`),
  ],
);

// ---- Members, tiers, payments (members issue) ----------------------------------------------

export const tiers = table(
  "tiers",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    name: text("name").notNull(),
    description: text("description"),
    price_cents: integer("price_cents").notNull(),
    currency: text("currency").notNull(),
    duration_months: integer("duration_months").notNull(),
    /** false is the soft delete (SPEC rule 4). */
    is_active: integer("is_active", { mode: "boolean" }).notNull().default(true),
    sort_order: integer("sort_order").notNull().default(0),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [index("tiers_club_idx").on(t.club_id, t.sort_order)],
);

export const members = table(
  "members",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    first_name: text("first_name").notNull(),
    last_name: text("last_name").notNull(),
    /** Stored lower-cased: unique per club. */
    email: text("email").notNull(),
    /** YYYY-MM-DD */
    membership_start: text("membership_start").notNull(),
    /** YYYY-MM-DD, last day of validity (inclusive). */
    membership_end: text("membership_end").notNull(),
    /** `pending`, `paid` or `suspended` (DESIGN.md section 6). */
    payment_status: text("payment_status").notNull(),
    /** The stored status a suspension will return to on reactivate. */
    status_before_suspension: text("status_before_suspension"),
    payment_method: text("payment_method"),
    pass_serial_number: text("pass_serial_number").notNull(),
    /** What the wallet QR code carries: short, upper-case, unique per club. */
    referral_code: text("referral_code").notNull(),
    /** SHA-256 (hex) of the token of the member's page (/m/<token>): the token itself is only in the answer or mail that carried it. */
    manage_token: text("manage_token"),
    /** SHA-256 (hex) of the page's address an admin last opened from the dashboard: a second address, so that opening it ends no link the member was mailed. */
    admin_page_token: text("admin_page_token"),
    tier_id: text("tier_id").references(() => tiers.id),
    pending_tier_id: text("pending_tier_id").references(() => tiers.id),
    pending_tier_change_at: text("pending_tier_change_at"),
    is_manual: integer("is_manual", { mode: "boolean" }).notNull().default(false),
    payment_mode: text("payment_mode").notNull().default("one_time"),
    invoice_company_name: text("invoice_company_name"),
    referral_count: integer("referral_count").notNull().default(0),
    referral_credit_cents: integer("referral_credit_cents").notNull().default(0),
    acquisition_source: text("acquisition_source"),
    referred_by_member_id: text("referred_by_member_id"),
    custom_fields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
    profile_complete: integer("profile_complete", { mode: "boolean" }).notNull().default(true),
    has_wallet_a: integer("has_wallet_a", { mode: "boolean" }).notNull().default(false),
    has_wallet_b: integer("has_wallet_b", { mode: "boolean" }).notNull().default(false),
    has_web: integer("has_web", { mode: "boolean" }).notNull().default(false),
    card_email_sent_at: text("card_email_sent_at"),
    card_email_reminder_sent_at: text("card_email_reminder_sent_at"),
    card_installed_at: text("card_installed_at"),
    renewal_opt_out_at: text("renewal_opt_out_at"),
    /** When what the wallet pass shows last changed (its Last-Modified; lib/cards/pass-updates). */
    pass_updated_at: text("pass_updated_at"),
    /** Apple Wallet: the pass's `authenticationToken` (lib/cards/apple), made when first needed. */
    pass_auth_token: text("pass_auth_token"),
    /** Lower-cased, accent-free "first last email code": what `search` matches. */
    search_text: text("search_text").notNull(),
    /** Last then first name, folded (db/text sortNameOf): the name sort and the PDF roster's order. */
    sort_name: text("sort_name").notNull().default(""),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
    /** When the member asked, from their page, to be erased (the admin decides: DELETE members/<id>). */
    erasure_requested_at: text("erasure_requested_at"),
    /** An email change asked from the member's page, until confirmed by the code mailed to it. */
    pending_email: text("pending_email"),
    /** SHA-256 (hex) of that code: the code itself is only in the mail. */
    pending_email_code_hash: text("pending_email_code_hash"),
    pending_email_expires_at: text("pending_email_expires_at"),
    /** `pending_approval` while an applicant (a club in `application` mode) waits for the admin's decision; else null. */
    application_status: text("application_status"),
    /** What the member owes for the period they joined for (price less discounts), until paid; null when nothing is owed or not joined online. */
    amount_due_cents: integer("amount_due_cents"),
    /** Stripe's customer (`cus_...`) and subscription (`sub_...`) of a member who pays by card on automatic renewal (lib/stripe). */
    stripe_customer_id: text("stripe_customer_id"),
    stripe_subscription_id: text("stripe_subscription_id"),
    /** When the member said no to mailings (one-click unsubscribe, or their page); null: mailings reach them. Service mails go anyway. */
    mailing_opt_out_at: text("mailing_opt_out_at"),
    /**
     * When a mailing to `email_bounced_address` got a permanent refusal (SMTP 5xx). It holds while
     * the member's email is still that address: a changed email is mailed again (lib/mailings).
     */
    email_bounced_at: text("email_bounced_at"),
    email_bounced_address: text("email_bounced_address"),
  },
  (t) => [
    uniqueIndex("members_club_email_unique").on(t.club_id, t.email),
    uniqueIndex("members_club_referral_code_unique").on(t.club_id, t.referral_code),
    uniqueIndex("members_pass_serial_unique").on(t.pass_serial_number),
    // With the id: the default list order (registered, then id) is read from the index, no sort.
    // With the search text: a search's page in that order tests each member in the index and
    // reads only the rows it shows (SQLite: 70 µs for the 500 members of a page of "zolc" at
    // 100,000 members, against 170 reading each row), and its count is read from the index alone,
    // not from rows visited in another index's order (110 ms to 7 ms), as the index of club and
    // search text it replaces did.
    index("members_club_created_idx").on(t.club_id, t.created_at, t.id, t.search_text),
    // With the search text too: a search by name tests each member in the index and reads only
    // the rows it shows (0.3 µs a member tested, where reading each row at random took 1.8-2 µs:
    // a name term's matches lie together in the name order, far from its start).
    index("members_club_sort_name_idx").on(t.club_id, t.sort_name, t.id, t.search_text),
    index("members_club_end_idx").on(t.club_id, t.membership_end),
    index("members_club_status_end_idx").on(t.club_id, t.payment_status, t.membership_end),
    // A tier's members (its `member_count` in every list of tiers, a rename's pass updates): the
    // count read every member of every club (55 ms at 100,000 members; 5 ms from this index).
    // Partial: a member without a tier, written often (a join, an import), does not pay for it.
    index("members_tier_idx").on(t.tier_id).where(sql`tier_id is not null`),
    // The members a member referred, asked by an import's undo of each batch of members it
    // created (46 ms a batch of 500 at 100,000 members, reading them all). Partial, as the tier's.
    index("members_referred_by_idx").on(t.referred_by_member_id).where(sql`referred_by_member_id is not null`),
    // The member's page is found by its token (/m/<manage_token>).
    uniqueIndex("members_manage_token_unique").on(t.manage_token),
    // The page tokens an older version kept in clear, asked at every start (lib/member-page
    // hashClearPageTokens): empty once hashed, where the ask read every member (45 ms at 100,000).
    index("members_clear_page_token_idx").on(t.id).where(sql`length(manage_token) <> 64`),
    uniqueIndex("members_admin_page_token_unique").on(t.admin_page_token),
  ],
);

/**
 * A club's members version: raised in the same transaction as any write to its members' rows, to
 * a tier's name or to its grace period (by triggers: db/sqlite.ts, the PostgreSQL migrations), so
 * a count or a page of the list kept with the version it was read at is exact while the version
 * stands (lib/members/kept.ts). The version is the sum of the club's rows, one per `stripe`:
 * PostgreSQL's writers raise the row of their connection's stripe, so that writers side by side
 * do not wait on one row's lock until each other's commit; SQLite's one writer raises stripe 0.
 */
export const memberVersions = table(
  "member_versions",
  {
    club_id: text("club_id").notNull(),
    stripe: integer("stripe").notNull().default(0),
    version: integer("version").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.club_id, t.stripe] })],
);

/** One row per transition of a member: who, when, what, why (DESIGN.md section 6). */
export const memberHistory = table(
  "member_history",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    /**
     * No foreign key: an erased member's row is deleted (GDPR art. 17) while its history stays,
     * attached to the anonymous member its id now names (lib/members/erase.ts).
     */
    member_id: text("member_id").notNull(),
    action: text("action").notNull(),
    from_status: text("from_status"),
    to_status: text("to_status"),
    from_end: text("from_end"),
    to_end: text("to_end"),
    reason: text("reason"),
    admin_id: text("admin_id"),
    key_prefix: text("key_prefix"),
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>(),
    created_at: text("created_at").notNull(),
    /** `member` when the member did it from their page (DESIGN.md section 14); null: the admin or key above, else the system. */
    actor: text("actor"),
  },
  (t) => [index("member_history_member_idx").on(t.member_id, t.created_at)],
);

/**
 * Money received: membership payments (manual or through the payment provider) and event
 * tickets. Stats (DESIGN.md section 10) are computed from these rows.
 */
export const payments = table(
  "payments",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    /** No foreign key: kept, as the anonymous member's, when the member is erased (lib/members/erase.ts). */
    member_id: text("member_id"),
    /** `membership` or `event`. */
    kind: text("kind").notNull(),
    /** Set for `event` payments (events issue). */
    registration_id: text("registration_id"),
    amount_cents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    method: text("method").notNull(),
    /** `manual` (recorded by an admin: no provider fee) or `provider`. */
    source: text("source").notNull(),
    provider_fee_cents: integer("provider_fee_cents").notNull().default(0),
    platform_commission_cents: integer("platform_commission_cents").notNull().default(0),
    reason: text("reason"),
    admin_id: text("admin_id"),
    paid_at: text("paid_at").notNull(),
    created_at: text("created_at").notNull(),
    /** The provider's payment (Stripe's PaymentIntent `pi_...`) a `provider` row records; its refunds name it too. */
    provider_payment_id: text("provider_payment_id"),
    /** The bank statement line it was imported from (lib/payments/import.ts): one line records one payment, however often the statement is imported. */
    statement_line_key: text("statement_line_key"),
    /** The invoice it pays (lib/invoices/pay.ts), else null. */
    invoice_id: text("invoice_id"),
  },
  (t) => [
    index("payments_club_paid_idx").on(t.club_id, t.paid_at),
    index("payments_invoice_idx").on(t.invoice_id),
    index("payments_member_idx").on(t.member_id),
    index("payments_provider_payment_idx").on(t.provider_payment_id),
    uniqueIndex("payments_club_statement_line_unique").on(t.club_id, t.statement_line_key),
    // A registration's payments (what was paid for it, at each confirmation, cancellation and
    // refund, in the writer's transaction): they were found among every payment of the club.
    // Partial: a membership's payment does not pay for it.
    index("payments_registration_idx").on(t.registration_id).where(sql`registration_id is not null`),
  ],
);

/**
 * Money a payment provider paid out to the club's bank (Stripe's `payout.paid`, lib/books/payouts):
 * the journal books it from the passage account to the bank (DESIGN.md section 21). One row per
 * club and provider payout: a payout of several clubs' payments is split by their payments.
 */
export const payouts = table(
  "payouts",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    /** The provider's payout (Stripe's `po_...`). */
    provider_payout_id: text("provider_payout_id").notNull(),
    /** What of it was this club's: the net of its payments and refunds the payout holds. */
    amount_cents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    /** When it reached the bank (Stripe's `arrival_date`). */
    paid_at: text("paid_at").notNull(),
    created_at: text("created_at").notNull(),
    /** The bank statement line that shows it arriving (lib/bank/import.ts): one line, one payout. */
    statement_line_key: text("statement_line_key"),
  },
  (t) => [
    uniqueIndex("payouts_club_provider_unique").on(t.club_id, t.provider_payout_id),
    index("payouts_club_paid_idx").on(t.club_id, t.paid_at),
    uniqueIndex("payouts_club_statement_line_unique").on(t.club_id, t.statement_line_key),
  ],
);

/**
 * Stripe events already handled (lib/stripe-events): the row is inserted in the transaction that
 * applies the event, and its key makes a second copy, even one arriving at the same moment, a no-op.
 */
export const stripeEvents = table("stripe_events", {
  /** Stripe's event id (`evt_...`). */
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  /** The club the event was for; null when it named none of ours (acknowledged, nothing done). */
  club_id: text("club_id"),
  /** What handling it did (`paid`, `renewed`, `ignored: ...`). */
  outcome: text("outcome").notNull(),
  received_at: text("received_at").notNull(),
});

/**
 * Payments a provider reported that are not what the product asked for (another currency or
 * another amount than its Checkout, a refund beyond its payment): recorded here and not applied
 * (lib/stripe-events), for the treasurer to look at (GET .../payments/flagged). Kept apart from
 * `payments`, which every total, receipt and export reads: nothing here counts until an admin acts.
 */
export const flaggedPayments = table(
  "flagged_payments",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    /** The provider's event that reported it (`evt_...`) and its type. */
    provider_event_id: text("provider_event_id").notNull(),
    event_type: text("event_type").notNull(),
    /** `membership`, `event` or `refund`. */
    purpose: text("purpose").notNull(),
    /** No foreign key, as for payments: kept, as the anonymous member's, when the member is erased. */
    member_id: text("member_id"),
    registration_id: text("registration_id"),
    /** What the provider says was paid (refunded, for `refund`). */
    amount_cents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    /** What was asked; null when it is not known (an amount of a Checkout opened before this was recorded). */
    expected_amount_cents: integer("expected_amount_cents"),
    expected_currency: text("expected_currency"),
    /** The provider's payment (Stripe's PaymentIntent `pi_...`), when the event names one. */
    provider_payment_id: text("provider_payment_id"),
    created_at: text("created_at").notNull(),
  },
  (t) => [
    index("flagged_payments_club_created_idx").on(t.club_id, t.created_at),
    // The flags naming a member (an import's undo of the members it created).
    index("flagged_payments_member_idx").on(t.member_id).where(sql`member_id is not null`),
  ],
);

// ---- Cards: scans of members' cards (cards issue) ------------------------------------------

/**
 * One row per verification of a card (GET /api/verify/<serial>, MCP verify_card), whatever the
 * verdict: an unknown code is stored too (DESIGN.md section 9). Attendance is read from here.
 */
export const scans = table(
  "scans",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    /** null when the code matched no member of the club. No foreign key: kept when the member is erased. */
    member_id: text("member_id"),
    /** The serial or referral code as scanned. */
    code: text("code").notNull(),
    /** `active`, `expired`, `suspended`, `pending` or `unknown`, at the time of the scan. */
    status: text("status").notNull(),
    key_prefix: text("key_prefix"),
    admin_id: text("admin_id"),
    scanned_at: text("scanned_at").notNull(),
  },
  (t) => [index("scans_club_time_idx").on(t.club_id, t.scanned_at), index("scans_member_idx").on(t.member_id)],
);

// ---- Events, tickets, registrations, check-ins, promo codes (events issue) ------------------

/** A club event (DESIGN.md section 8): `draft`, `published` or `cancelled`. */
export const events = table(
  "events",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    title: text("title").notNull(),
    /** Unique per club; part of the public address. */
    slug: text("slug").notNull(),
    description: text("description"),
    image_url: text("image_url"),
    location_name: text("location_name"),
    location_address: text("location_address"),
    starts_at: text("starts_at").notNull(),
    ends_at: text("ends_at"),
    registration_opens_at: text("registration_opens_at"),
    registration_closes_at: text("registration_closes_at"),
    capacity: integer("capacity"),
    listed: integer("listed", { mode: "boolean" }).notNull().default(true),
    /** `public` or `members`. */
    access: text("access").notNull().default("public"),
    status: text("status").notNull().default("published"),
    currency: text("currency").notNull(),
    reminder_enabled: integer("reminder_enabled", { mode: "boolean" }).notNull().default(true),
    show_attendees: integer("show_attendees", { mode: "boolean" }).notNull().default(true),
    attendees_min: integer("attendees_min").notNull().default(3),
    attendees_nominative: integer("attendees_nominative", { mode: "boolean" }).notNull().default(false),
    story_text: text("story_text"),
    story_text_size: text("story_text_size").notNull().default("m"),
    custom_fields_schema: text("custom_fields_schema", { mode: "json" }).notNull().$type<Record<string, unknown>[]>(),
    /** A full event or ticket takes `waitlisted` registrations, promoted as places free up. */
    waitlist_enabled: integer("waitlist_enabled", { mode: "boolean" }).notNull().default(false),
    /** Registrations one email address may hold at once (confirmed, pending, waitlisted), 1..100. */
    max_per_email: integer("max_per_email").notNull().default(1),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("events_club_slug_unique").on(t.club_id, t.slug), index("events_club_starts_idx").on(t.club_id, t.starts_at)],
);

export const eventTickets = table(
  "event_tickets",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    event_id: text("event_id")
      .notNull()
      .references(() => events.id),
    name: text("name").notNull(),
    member_price_cents: integer("member_price_cents").notNull().default(0),
    /** tier id -> price in cents for members of that tier. */
    tier_prices: text("tier_prices", { mode: "json" }).$type<Record<string, number>>(),
    /** null: the ticket is for members only. */
    non_member_price_cents: integer("non_member_price_cents"),
    quantity_max: integer("quantity_max"),
    /** false: removed from the event while registrations still point at it. */
    is_active: integer("is_active", { mode: "boolean" }).notNull().default(true),
    sort_order: integer("sort_order").notNull().default(0),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [index("event_tickets_event_idx").on(t.event_id, t.sort_order)],
);

/** `confirmed`, `pending` (awaiting payment) or `cancelled` (DESIGN.md section 8). */
export const eventRegistrations = table(
  "event_registrations",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    event_id: text("event_id")
      .notNull()
      .references(() => events.id),
    ticket_id: text("ticket_id")
      .notNull()
      .references(() => eventTickets.id),
    /** No foreign key: kept, as the anonymous member's, when the member is erased (lib/members/erase.ts). */
    member_id: text("member_id"),
    first_name: text("first_name").notNull(),
    last_name: text("last_name").notNull(),
    email: text("email"),
    is_member: integer("is_member", { mode: "boolean" }).notNull().default(false),
    /** What the ticket's QR code carries: random, unguessable. */
    qr_token: text("qr_token").notNull(),
    status: text("status").notNull(),
    amount_cents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    promo_code_id: text("promo_code_id"),
    discount_cents: integer("discount_cents").notNull().default(0),
    checked_in_at: text("checked_in_at"),
    wallet_a_at: text("wallet_a_at"),
    wallet_b_at: text("wallet_b_at"),
    ics_at: text("ics_at"),
    custom_fields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>(),
    source: text("source"),
    cancelled_at: text("cancelled_at"),
    cancel_reason: text("cancel_reason"),
    /** The email as compared for `max_per_email` (lib/registrations/email-key.ts): several spellings, one mailbox. */
    email_key: text("email_key"),
    /** A `pending` public registration is cancelled at this time unless paid (lib/registrations/expiry.ts). */
    hold_expires_at: text("hold_expires_at"),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("event_registrations_qr_unique").on(t.qr_token),
    index("event_registrations_email_key_idx").on(t.event_id, t.email_key),
    index("event_registrations_event_idx").on(t.event_id, t.status),
    index("event_registrations_ticket_idx").on(t.ticket_id, t.status),
    index("event_registrations_member_idx").on(t.event_id, t.member_id),
    // A member's registrations in every event, linked to them or made with their address (their
    // data's export and erasure, the erasure inside the writer's transaction; an import's undo):
    // each read every registration of the club (95 ms at 210,000).
    index("event_registrations_of_member_idx").on(t.member_id).where(sql`member_id is not null`),
    index("event_registrations_lower_email_idx").on(sql`lower(${t.email})`),
  ],
);

/** Every check-in scan, accepted or refused, with who scanned and the client's retry nonce. */
export const checkIns = table(
  "check_ins",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    event_id: text("event_id")
      .notNull()
      .references(() => events.id),
    registration_id: text("registration_id"),
    code: text("code").notNull(),
    /** `valid`, `already` or `not_registered`. */
    verdict: text("verdict").notNull(),
    nonce: text("nonce"),
    admin_id: text("admin_id"),
    key_prefix: text("key_prefix"),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("check_ins_event_nonce_unique").on(t.event_id, t.nonce), index("check_ins_event_idx").on(t.event_id, t.created_at)],
);

/** DESIGN.md section 7. `code_key` is the upper-cased code: unique per club, case-insensitively. */
export const promoCodes = table(
  "promo_codes",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    code: text("code").notNull(),
    code_key: text("code_key").notNull(),
    /** `percent` or `amount`. */
    discount_type: text("discount_type").notNull(),
    discount_value: integer("discount_value").notNull(),
    currency: text("currency"),
    applies_to_tier_ids: text("applies_to_tier_ids", { mode: "json" }).$type<string[]>(),
    event_id: text("event_id").references(() => events.id),
    /** `membership` or `event`. */
    scope: text("scope").notNull(),
    max_uses: integer("max_uses"),
    used_count: integer("used_count").notNull().default(0),
    valid_from: text("valid_from"),
    valid_until: text("valid_until"),
    is_active: integer("is_active", { mode: "boolean" }).notNull().default(true),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("promo_codes_club_code_unique").on(t.club_id, t.code_key), index("promo_codes_event_idx").on(t.event_id)],
);

export const promoRedemptions = table(
  "promo_redemptions",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    promo_code_id: text("promo_code_id")
      .notNull()
      .references(() => promoCodes.id),
    registration_id: text("registration_id"),
    member_id: text("member_id"),
    discount_cents: integer("discount_cents").notNull(),
    created_at: text("created_at").notNull(),
    /** A membership code given at join, counted in used_count only once the member pays (DESIGN.md section 13). */
    awaiting_payment: integer("awaiting_payment", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("promo_redemptions_code_idx").on(t.promo_code_id), index("promo_redemptions_member_idx").on(t.member_id)],
);

// ---- Apple Wallet (cards issue) ------------------------------------------------------------

/**
 * A device that added a member's Apple Wallet pass and asked for its updates (PassKit web
 * service "register a device"): one row per device and pass, with the device's push token.
 */
export const appleRegistrations = table(
  "apple_registrations",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    member_id: text("member_id")
      .notNull()
      .references(() => members.id),
    device_library_id: text("device_library_id").notNull(),
    pass_type_id: text("pass_type_id").notNull(),
    push_token: text("push_token").notNull(),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("apple_registrations_device_pass_unique").on(t.device_library_id, t.pass_type_id, t.member_id),
    index("apple_registrations_club_member_idx").on(t.club_id, t.member_id),
    // A member's devices, counted by member alone when one registers or leaves (has_wallet_a)
    // and asked by an import's undo: the index by club cannot serve them.
    index("apple_registrations_member_idx").on(t.member_id),
    index("apple_registrations_push_token_idx").on(t.push_token),
  ],
);

// ---- Voided wallet passes of erased members (issue 12) ------------------------------------

/**
 * The tombstone of an erased member's Apple Wallet pass (docs/decisions.md, "Voided passes"):
 * what the phone's copy needs to be told once that it is void, and nothing about whom it was.
 * Deleted with its devices after VOIDED_KEEP_DAYS (lib/passes/voided).
 */
export const voidedPasses = table("voided_passes", {
  serial: text("serial").primaryKey(),
  club_id: text("club_id").notNull(),
  /** sha256 of the pass's authentication token: a device still proves itself with the token. */
  auth_token_hash: text("auth_token_hash").notNull(),
  voided_at: text("voided_at").notNull(),
});

/** The devices that held a voided pass (moved from apple_registrations), kept for its push only. */
export const voidedPassDevices = table(
  "voided_pass_devices",
  {
    serial: text("serial")
      .notNull()
      .references(() => voidedPasses.serial, { onDelete: "cascade" }),
    device_library_id: text("device_library_id").notNull(),
    pass_type_id: text("pass_type_id").notNull(),
    push_token: text("push_token").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.device_library_id, t.pass_type_id, t.serial] }),
    index("voided_pass_devices_serial_idx").on(t.serial),
    index("voided_pass_devices_push_token_idx").on(t.push_token),
  ],
);

// ---- Member imports in short transactions (issue 18) --------------------------------------

/**
 * A member import that writes (lib/members/import.ts), from its first batch until it is done or
 * undone. A `running` row is the club's import lock (one per club at a time) and tells a later
 * start which imports a crash cut short: their owner (`host`, `pid`) is gone.
 */
export const memberImports = table(
  "member_imports",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    /** `running`, `done` or `undone`. */
    status: text("status").notNull(),
    host: text("host").notNull(),
    pid: integer("pid").notNull(),
    started_at: text("started_at").notNull(),
    finished_at: text("finished_at"),
    /**
     * Until when the running import's process vouches for it, renewed while it runs: a process on
     * another machine, whose pid cannot be looked at, is taken as gone once this has passed.
     */
    lease_until: text("lease_until"),
  },
  (t) => [uniqueIndex("member_imports_running_unique").on(t.club_id).where(sql`status = 'running'`)],
);

/**
 * What undoes a running import, one row per batch it wrote: `entries`, per member, its id, the
 * history row it added and the member as it was before (null for a member it created); and when
 * the batch wrote them. Deleted once the import is done or undone. `member_id` and `history_id`
 * name the batch's first member; rows of the earlier form (no `entries`) held one member each, in
 * `member_id`, `history_id` and `before`: they are still read.
 */
export const memberImportUndo = table(
  "member_import_undo",
  {
    seq: serialKey("seq"),
    import_id: text("import_id").notNull(),
    member_id: text("member_id").notNull(),
    history_id: text("history_id").notNull(),
    before: text("before", { mode: "json" }).$type<Record<string, unknown>>(),
    written_at: text("written_at").notNull(),
    entries: text("entries", { mode: "json" }).$type<[string, string, Record<string, unknown> | null][]>(),
  },
  (t) => [index("member_import_undo_import_idx").on(t.import_id, t.seq)],
);

// ---- Idempotency keys (issue 12) ---------------------------------------------------------

/**
 * The answer of a write made with an `Idempotency-Key` (HTTP header, or an MCP tool's
 * `idempotency_key`), kept 24 h per caller (lib/idempotency): what was asked (method, path,
 * SHA-256 of the body) and what was answered, to replay. A key whose request runs is held in
 * memory, not here.
 */
export const idempotencyKeys = table(
  "idempotency_keys",
  {
    /** Whose key: `key:<api key id>` or `admin:<admin id>` (a dashboard session); two callers' keys never meet. */
    owner: text("owner").notNull(),
    key: text("key").notNull(),
    club_id: text("club_id").notNull(),
    /** HTTP method, or `MCP` for a tool call. */
    method: text("method").notNull(),
    /** Path and query, or the MCP tool's name. */
    path: text("path").notNull(),
    /** SHA-256 of the body (a tool call's arguments), hex. */
    request_hash: text("request_hash").notNull(),
    status: integer("status").notNull(),
    /** The answer's headers that describe its body (content-type, location...). */
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
    body: blob("body", { mode: "buffer" }),
    created_at: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.owner, t.key] }), index("idempotency_keys_created_idx").on(t.created_at)],
);

// ---- Reminders (DESIGN.md section 14) -------------------------------------------------------

/**
 * One row per reminder sent: (subject, kind, period) is unique, and the row is written in the
 * same transaction as the mail job, so a reminder goes out at most once whatever restarts or
 * crashes (lib/reminders). `subject_id` is the member (renewal, expiry) or the registration
 * (event); `period` names what the reminder is about (the membership end and the day, the event).
 */
export const remindersSent = table(
  "reminders_sent",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    /** No foreign key: kept (anonymous) when the member is erased. */
    subject_id: text("subject_id").notNull(),
    /** `renewal`, `expiry`, `event`, or `renewal_transfer` (the transfer details a member asked for on their page, once a day per amount). */
    kind: text("kind").notNull(),
    period: text("period").notNull(),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("reminders_sent_unique").on(t.subject_id, t.kind, t.period), index("reminders_sent_club_idx").on(t.club_id, t.created_at)],
);

// ---- Bots (issue 18) --------------------------------------------------------------------------

/**
 * Form challenges already answered (lib/forms): each is accepted once. Kept until the challenge
 * expires (a later answer is refused as expired anyway), then deleted.
 */
export const formChallengesUsed = table(
  "form_challenges_used",
  {
    id: text("id").primaryKey(),
    expires_at: text("expires_at").notNull(),
  },
  (t) => [index("form_challenges_used_expires_idx").on(t.expires_at)],
);

/** Secrets the server makes itself on first use and keeps across restarts (the form challenges' HMAC key). */
export const serverSecrets = table("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  created_at: text("created_at").notNull(),
});

// ---- Webhooks (issue 15, DESIGN.md section 15) ----------------------------------------------

/**
 * A club's webhook endpoint. `secret` is kept as given (`whsec_...`): signing needs it, so only a
 * hash would not do; `previous_secret` still signs until `previous_secret_expires_at` after a
 * rotation. `failing_since`: the first failed attempt of the current run of failures (cleared by
 * a success), which disables the endpoint once it is 3 days old. `timeouts`: the attempts in a
 * row that got no answer in time (any answer resets it); from the second, deliveries wait until
 * `paused_until` (lib/webhooks/deliver), so an endpoint that hangs does not hold the workers.
 */
export const webhookEndpoints = table(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    url: text("url").notNull(),
    description: text("description"),
    events: text("events", { mode: "json" }).notNull().$type<string[]>(),
    secret: text("secret").notNull(),
    previous_secret: text("previous_secret"),
    previous_secret_expires_at: text("previous_secret_expires_at"),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    disabled_reason: text("disabled_reason"),
    disabled_at: text("disabled_at"),
    failing_since: text("failing_since"),
    timeouts: integer("timeouts").notNull().default(0),
    paused_until: text("paused_until"),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [index("webhook_endpoints_club_idx").on(t.club_id, t.enabled)],
);

/**
 * The outbox: one row per event and endpoint, written in the transaction of the change. `payload`
 * is the exact body signed and sent; `msg_id` (the `webhook-id` header) is shared by the
 * endpoints of one event. `job_id`: the job that may deliver it now (a manual retry queues a new
 * one, and an older job finding another id does nothing).
 */
export const webhookDeliveries = table(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    endpoint_id: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    msg_id: text("msg_id").notNull(),
    type: text("type").notNull(),
    payload: text("payload").notNull(),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull(),
    next_attempt_at: text("next_attempt_at"),
    last_status_code: integer("last_status_code"),
    job_id: text("job_id"),
    created_at: text("created_at").notNull(),
    finished_at: text("finished_at"),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpoint_id, t.created_at),
    // The daily purge of the deliveries finished a month ago (lib/webhooks/deliver): it read the
    // whole log, payloads and all (0.33 s at 300,000 deliveries with none to delete).
    index("webhook_deliveries_finished_idx").on(t.finished_at).where(sql`finished_at is not null`),
  ],
);

/** One attempt at a delivery: what the far end answered (status, first 1 KB) and how long it took. */
export const webhookAttempts = table(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    delivery_id: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    status_code: integer("status_code"),
    duration_ms: integer("duration_ms").notNull(),
    response_body: text("response_body"),
    error: text("error"),
    created_at: text("created_at").notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.delivery_id, t.created_at)],
);

// ---- OAuth for remote MCP clients (DESIGN.md section 17) ---------------------------------------

/**
 * An OAuth client: registered through RFC 7591 (`kind: registered`, client_id ours) or known by
 * its client ID metadata document (`kind: metadata_document`, client_id the document's https
 * URL, the document cached here and fetched again once stale). Public clients only: no secret.
 */
export const oauthClients = table("oauth_clients", {
  client_id: text("client_id").primaryKey(),
  kind: text("kind").notNull(),
  client_name: text("client_name").notNull(),
  client_uri: text("client_uri"),
  redirect_uris: text("redirect_uris", { mode: "json" }).notNull().$type<string[]>(),
  /** A metadata document's last fetch; null for a registered client. */
  fetched_at: text("fetched_at"),
  created_at: text("created_at").notNull(),
});

/** An authorization code: single use, short-lived, bound to its client, redirect URI, PKCE challenge and resource. Only its hash is kept. */
export const oauthCodes = table("oauth_codes", {
  id: text("id").primaryKey(),
  code_hash: text("code_hash").notNull().unique(),
  club_id: text("club_id").notNull(),
  admin_id: text("admin_id")
    .notNull()
    .references(() => admins.id),
  client_id: text("client_id").notNull(),
  client_name: text("client_name").notNull(),
  scopes: text("scopes", { mode: "json" }).notNull().$type<Record<string, string>>(),
  resource: text("resource").notNull(),
  redirect_uri: text("redirect_uri").notNull(),
  /** The request named `redirect_uri` (it may be left out when the client has one): the token request must name it too (RFC 6749 section 4.1.3). */
  redirect_uri_given: integer("redirect_uri_given", { mode: "boolean" }).notNull().default(false),
  code_challenge: text("code_challenge").notNull(),
  expires_at: text("expires_at").notNull(),
  used_at: text("used_at"),
  /** The grant its exchange made: a second use of the code revokes it (RFC 6749 section 4.1.2). */
  grant_id: text("grant_id"),
  created_at: text("created_at").notNull(),
});

/** What an admin allowed a client: its scopes on one resource, until revoked. Listed with the API keys. */
export const oauthGrants = table(
  "oauth_grants",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    admin_id: text("admin_id")
      .notNull()
      .references(() => admins.id),
    client_id: text("client_id").notNull(),
    /** The client's name when the admin allowed it (what the consent page showed). */
    client_name: text("client_name").notNull(),
    scopes: text("scopes", { mode: "json" }).notNull().$type<Record<string, string>>(),
    resource: text("resource").notNull(),
    created_at: text("created_at").notNull(),
    last_used_at: text("last_used_at"),
    revoked_at: text("revoked_at"),
    /** `revoked` (by an admin, the CLI or the client), `refresh_token_reused`, `code_reused`. */
    revoked_reason: text("revoked_reason"),
  },
  (t) => [index("oauth_grants_club_idx").on(t.club_id)],
);

/** Access and refresh tokens of a grant, as SHA-256 hashes. A refresh token is used once: `rotated_at` marks it spent. */
export const oauthTokens = table(
  "oauth_tokens",
  {
    id: text("id").primaryKey(),
    grant_id: text("grant_id")
      .notNull()
      .references(() => oauthGrants.id),
    kind: text("kind").notNull(),
    token_hash: text("token_hash").notNull().unique(),
    /** An access token's scopes when a refresh asked for fewer than the grant's (RFC 6749 section 6); null: the grant's. */
    scopes: text("scopes", { mode: "json" }).$type<Record<string, string>>(),
    expires_at: text("expires_at").notNull(),
    rotated_at: text("rotated_at"),
    created_at: text("created_at").notNull(),
  },
  (t) => [index("oauth_tokens_grant_idx").on(t.grant_id)],
);

// ---- The club's logo (issue 32) -------------------------------------------------------------

/**
 * The club's uploaded logo, one row per rendition (lib/clubs/logo.ts: `logo`, `square`,
 * `horizontal` and the wallet's sizes), each a PNG made at upload from what the admin sent. Kept
 * here rather than on a disk so that every server process, on any machine, serves the same file.
 * `etag` is a hash of `data`: the public URL carries it (`?v=`), so a new logo is a new address.
 */
export const clubLogos = table(
  "club_logos",
  {
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    variant: text("variant").notNull(),
    content_type: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    data: blob("data", { mode: "buffer" }).notNull(),
    etag: text("etag").notNull(),
    created_at: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.club_id, t.variant] })],
);

// ---- Request rates shared by every process (issue 26) ---------------------------------------

/**
 * The requests let through per rate scope and key (an API key, a client address), counted per
 * slot of a sixtieth of the window (a second of a minute's window), on PostgreSQL: several server
 * processes count together, so N processes do not allow N times the limit (lib/ratelimit). One
 * row per slot in which the key was let through, its count raised by one statement per request.
 * SQLite's single server process counts in memory and leaves this empty. `at`: the slot's start,
 * `gone_at`: when it has left the window (the hourly purge's), both epoch milliseconds.
 */
export const rateCounts = table(
  "rate_counts",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    at: integer("at").notNull(),
    n: integer("n").notNull(),
    gone_at: integer("gone_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key, t.at] }), index("rate_counts_gone_at_idx").on(t.gone_at)],
);

/**
 * Sign-in failures (lib/ratelimit SignInBackoff) on PostgreSQL, where several processes take
 * sign-ins: one row per count (`key`: `address:<account>\n<address group>` or `account:<account>`),
 * its failures and the last one's time (epoch ms). SQLite's one process keeps them in memory.
 */
export const signInFailures = table("sign_in_failures", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull(),
  last_at: integer("last_at").notNull(),
});

/** The addresses (groups) an account signed in from, with the last time (epoch ms): PostgreSQL's twin of the backoff's memory. */
export const signInAddresses = table(
  "sign_in_addresses",
  {
    account: text("account").notNull(),
    address: text("address").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.address] })],
);

// ---- Invoices (issue 27, DESIGN.md section 20) ---------------------------------------------------

/** One line of an invoice: what it is for and its amount (negative: a discount). */
export type InvoiceLine = { label: string; amount_cents: number };

/**
 * An invoice to a member (lib/invoices). `number` is `YYYY-NNNN`, per club and year in order
 * without gaps (invoice_counters); `reference` is what the member's bank transfer quotes (QRR or
 * RF), unique in the club.
 */
export const invoices = table(
  "invoices",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    number: text("number").notNull(),
    /** No foreign key, as for payments: an invoice is kept (the anonymous member's) when the member is erased. */
    member_id: text("member_id").notNull(),
    registration_id: text("registration_id"),
    /** `membership`, `event` or `other`. */
    kind: text("kind").notNull(),
    lines: text("lines", { mode: "json" }).notNull().$type<InvoiceLine[]>(),
    amount_cents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    /** YYYY-MM-DD */
    issued_on: text("issued_on").notNull(),
    due_on: text("due_on").notNull(),
    /** `open`, `paid` or `cancelled`. */
    status: text("status").notNull(),
    paid_cents: integer("paid_cents").notNull().default(0),
    reference: text("reference").notNull(),
    /** The tier whose fee the invoice asks, when it was made from one. */
    tier_id: text("tier_id"),
    dunning_level: integer("dunning_level").notNull().default(0),
    last_reminded_at: text("last_reminded_at"),
    /**
     * A membership invoice of the dues run or a renewal reminder (lib/invoices/run.ts): the first
     * day of the period it asks for (the day after the member's membership_end then). One open or
     * paid invoice per member and period: the unique key below.
     */
    period_start: text("period_start"),
    cancelled_at: text("cancelled_at"),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("invoices_club_number_unique").on(t.club_id, t.number),
    uniqueIndex("invoices_club_reference_unique").on(t.club_id, t.reference),
    index("invoices_club_issued_idx").on(t.club_id, t.issued_on),
    index("invoices_member_idx").on(t.member_id),
    uniqueIndex("invoices_member_period_unique").on(t.club_id, t.member_id, t.period_start).where(sql`status <> 'cancelled' and period_start is not null`),
    // The dunning run reads the club's open invoices past their due date.
    index("invoices_club_status_due_idx").on(t.club_id, t.status, t.due_on),
  ],
);

/**
 * The last invoice number given per club and year: the invoice's transaction adds one to it
 * (`UPDATE ... RETURNING`, which holds the row until the commit on PostgreSQL), so numbers follow
 * each other without gaps, a rolled back invoice giving its number back.
 */
export const invoiceCounters = table(
  "invoice_counters",
  {
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    year: integer("year").notNull(),
    last: integer("last").notNull(),
  },
  (t) => [primaryKey({ columns: [t.club_id, t.year] })],
);

// ---- Mailings (issue 29, DESIGN.md section 22) ----------------------------------------------

/** What a mailing's audience names (every part optional; none: every member). */
export type MailingAudience = { statuses?: string[]; tier_ids?: string[]; event_id?: string; registration_statuses?: string[] };

/**
 * A mailing a club writes to its members. Its counts are not stored: they are read from its
 * recipients' states (lib/mailings), so they always add up.
 */
export const mailings = table(
  "mailings",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id")
      .notNull()
      .references(() => clubs.id),
    subject: text("subject").notNull(),
    body_markdown: text("body_markdown").notNull(),
    audience: text("audience", { mode: "json" }).notNull().$type<MailingAudience>(),
    /** `draft`, `scheduled`, `sending`, `sent` or `cancelled`. */
    status: text("status").notNull(),
    send_at: text("send_at"),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
    sent_at: text("sent_at"),
    cancelled_at: text("cancelled_at"),
  },
  (t) => [index("mailings_club_created_idx").on(t.club_id, t.created_at)],
);

/**
 * One member of a mailing's audience, taken when sending starts, with their delivery's state:
 * `pending`, `sending` (claimed by a worker: `claim_token` until `claimed_until`), `sent`,
 * `failed`, `bounced` or `skipped_opt_out`. The claim is a conditional write (`pending` to
 * `sending`), so each recipient is mailed by one worker at most, whatever runs at once.
 */
export const mailingRecipients = table(
  "mailing_recipients",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    mailing_id: text("mailing_id")
      .notNull()
      .references(() => mailings.id),
    /** No foreign key: the row stays (its delivery's record) when the member is erased. */
    member_id: text("member_id").notNull(),
    email: text("email").notNull(),
    state: text("state").notNull(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    /** A temporary refusal (SMTP 4xx): not tried again before this time. */
    retry_at: text("retry_at"),
    claim_token: text("claim_token"),
    claimed_until: text("claimed_until"),
    /** The one-click unsubscribe link's key (random, unguessable): it opts this member out of mailings. */
    unsubscribe_token: text("unsubscribe_token").notNull(),
    created_at: text("created_at").notNull(),
    sent_at: text("sent_at"),
  },
  (t) => [
    uniqueIndex("mailing_recipients_mailing_member_unique").on(t.mailing_id, t.member_id),
    uniqueIndex("mailing_recipients_unsubscribe_unique").on(t.unsubscribe_token),
    index("mailing_recipients_state_idx").on(t.mailing_id, t.state),
    // A member's mailings: their data's export (art. 15, also from their own page), their erasure
    // and an import's undo read them by member. With 1,000,000 recipients, one member's took
    // 254 ms and an undo's batch 155 ms, reading every row, the erasure holding the writer.
    index("mailing_recipients_member_idx").on(t.member_id),
  ],
);

/**
 * A long MCP tool call run as a task (MCP tasks, DESIGN.md section 23; lib/mcp-tasks): the
 * endpoint is stateless and several processes serve it, so whichever answers `tasks/get` reads the
 * task here. Only its owner (`key:<id>` or `admin:<id>`, as idempotency keys) in its club sees it.
 * `result` is the call's result as the tool answered it. The process running it holds a lease
 * (`lease_owner`, `lease_until`) it renews; a task still working past its lease lost its runner and
 * is failed when next read. Forgotten after `expires_at` (its ttl).
 */
export const mcpTasks = table(
  "mcp_tasks",
  {
    id: text("id").primaryKey(),
    club_id: text("club_id").notNull(),
    owner: text("owner").notNull(),
    tool: text("tool").notNull(),
    /** working, completed, failed or cancelled (MCP's words; input_required is never stored: a call is confirmed before it becomes a task). */
    status: text("status").notNull(),
    status_message: text("status_message"),
    progress: integer("progress"),
    total: integer("total"),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>(),
    ttl_ms: integer("ttl_ms").notNull(),
    created_at: text("created_at").notNull(),
    updated_at: text("updated_at").notNull(),
    expires_at: text("expires_at").notNull(),
    lease_owner: text("lease_owner"),
    lease_until: text("lease_until"),
  },
  (t) => [index("mcp_tasks_owner_idx").on(t.club_id, t.owner, t.created_at), index("mcp_tasks_expires_idx").on(t.expires_at)],
);
