CREATE TABLE "admin_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"admin_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "admin_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "admins" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"role" text DEFAULT 'admin' NOT NULL,
	"is_superadmin" boolean DEFAULT false NOT NULL,
	"read_only" boolean DEFAULT false NOT NULL,
	"access_expires_at" text,
	"password_hash" text,
	"referral_code" text,
	"referral_unlocked" boolean DEFAULT false NOT NULL,
	"onboarding_step" text DEFAULT 'created' NOT NULL,
	"onboarding" text DEFAULT '{}' NOT NULL,
	"removed_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"admin_id" text NOT NULL,
	"name" text,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"scopes" text NOT NULL,
	"expires_at" text,
	"revoked_at" text,
	"last_used_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "apple_registrations" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"member_id" text NOT NULL,
	"device_library_id" text NOT NULL,
	"pass_type_id" text NOT NULL,
	"push_token" text NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"admin_id" text,
	"key_prefix" text,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" bigint NOT NULL,
	"duration_ms" double precision NOT NULL,
	"ip" text,
	"via" text NOT NULL,
	"tool" text,
	"mcp_method" text,
	"created_at" text NOT NULL,
	"request_id" text
);
--> statement-breakpoint
CREATE TABLE "check_ins" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"event_id" text NOT NULL,
	"registration_id" text,
	"code" text NOT NULL,
	"verdict" text NOT NULL,
	"nonce" text,
	"admin_id" text,
	"key_prefix" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clubs" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"primary_color" text NOT NULL,
	"secondary_color" text NOT NULL,
	"membership_fee_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"membership_duration_months" bigint NOT NULL,
	"pricing_plan" text NOT NULL,
	"logo_horizontal_url" text,
	"logo_square_url" text,
	"logo_circular_url" text,
	"checkout_color" text,
	"checkout_color_dark" text,
	"cover_photo_url" text,
	"description" text,
	"price_display_mode" text NOT NULL,
	"show_member_count" boolean NOT NULL,
	"commission_rate_percent" double precision,
	"fee_fixed_cents" bigint NOT NULL,
	"payment_provider" text,
	"payment_provider_next" text,
	"payments_available" boolean NOT NULL,
	"payments_connected" boolean NOT NULL,
	"payments_ready" boolean NOT NULL,
	"fee_model" text NOT NULL,
	"psp_rate_percent" double precision,
	"psp_rate_fixed_cents" bigint,
	"psp_label" text,
	"psp_pricing_url" text,
	"fee_policy" text NOT NULL,
	"payment_methods_enabled" text NOT NULL,
	"provider_organization_id" text,
	"provider_profile_id" text,
	"payout_iban" text,
	"payout_bic" text,
	"payout_beneficiary_name" text,
	"payout_bank_name" text,
	"card_custom_link_label" text,
	"card_custom_link_url" text,
	"card_custom_link_updated_at" text,
	"card_theme" text NOT NULL,
	"card_label_color" text NOT NULL,
	"card_strip_image_url" text,
	"card_thumbnail_url" text,
	"card_welcome_message" text,
	"card_barcode_format" text NOT NULL,
	"card_sharing_prohibited" boolean NOT NULL,
	"card_hide_branding" boolean NOT NULL,
	"card_update_notifications" boolean NOT NULL,
	"card_geolocation_enabled" boolean NOT NULL,
	"last_wallet_push_at" text,
	"card_back_fields" text,
	"card_locations" text,
	"card_slot_secondary" text NOT NULL,
	"card_slot_auxiliary" text NOT NULL,
	"card_custom_source" text,
	"card_custom_field_key" text,
	"card_custom_constant_value" text,
	"card_custom_label" text,
	"social_facebook_url" text,
	"social_instagram_url" text,
	"social_linkedin_url" text,
	"social_x_url" text,
	"social_tiktok_url" text,
	"social_youtube_url" text,
	"social_strava_url" text,
	"social_whatsapp_url" text,
	"social_website_url" text,
	"partners" text,
	"allow_subscription" boolean NOT NULL,
	"subscription_default" boolean NOT NULL,
	"subscription_only" boolean NOT NULL,
	"referral_free_until" text,
	"legal_name" text,
	"address" text,
	"postal_code" text,
	"city" text,
	"country" text,
	"vat_number" text,
	"contact_email" text,
	"latitude" double precision,
	"longitude" double precision,
	"membership_mode" text NOT NULL,
	"application_instructions" text,
	"locale" text NOT NULL,
	"date_format" text NOT NULL,
	"date_format_effective" text NOT NULL,
	"number_format" text NOT NULL,
	"number_format_effective" text NOT NULL,
	"member_referral_enabled" boolean NOT NULL,
	"member_referral_reward_percent" bigint NOT NULL,
	"member_referral_max_credits_cents" bigint,
	"custom_fields_schema" text NOT NULL,
	"accounting_account_revenue" text NOT NULL,
	"accounting_account_fees" text NOT NULL,
	"accounting_account_bank" text NOT NULL,
	"accounting_account_events" text NOT NULL,
	"accounting_account_passage" text NOT NULL,
	"accounting_journal" text NOT NULL,
	"accounting_account_revenue_name" text NOT NULL,
	"accounting_account_fees_name" text NOT NULL,
	"accounting_account_bank_name" text NOT NULL,
	"accounting_account_events_name" text NOT NULL,
	"accounting_account_passage_name" text NOT NULL,
	"accounting_templates" text,
	"name_order" text,
	"payout_country" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"renewal_reminder_days" text DEFAULT '[30,7]' NOT NULL,
	"grace_period_days" bigint DEFAULT 0 NOT NULL,
	"expiry_notice" boolean DEFAULT true NOT NULL,
	"pending_hold_hours" bigint DEFAULT 48 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_registrations" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"event_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"member_id" text,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"is_member" boolean DEFAULT false NOT NULL,
	"qr_token" text NOT NULL,
	"status" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"promo_code_id" text,
	"discount_cents" bigint DEFAULT 0 NOT NULL,
	"checked_in_at" text,
	"wallet_a_at" text,
	"wallet_b_at" text,
	"ics_at" text,
	"custom_fields" text,
	"source" text,
	"cancelled_at" text,
	"cancel_reason" text,
	"email_key" text,
	"hold_expires_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_tickets" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"event_id" text NOT NULL,
	"name" text NOT NULL,
	"member_price_cents" bigint DEFAULT 0 NOT NULL,
	"tier_prices" text,
	"non_member_price_cents" bigint,
	"quantity_max" bigint,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" bigint DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"description" text,
	"image_url" text,
	"location_name" text,
	"location_address" text,
	"starts_at" text NOT NULL,
	"ends_at" text,
	"registration_opens_at" text,
	"registration_closes_at" text,
	"capacity" bigint,
	"listed" boolean DEFAULT true NOT NULL,
	"access" text DEFAULT 'public' NOT NULL,
	"status" text DEFAULT 'published' NOT NULL,
	"currency" text NOT NULL,
	"reminder_enabled" boolean DEFAULT true NOT NULL,
	"show_attendees" boolean DEFAULT true NOT NULL,
	"attendees_min" bigint DEFAULT 3 NOT NULL,
	"attendees_nominative" boolean DEFAULT false NOT NULL,
	"story_text" text,
	"story_text_size" text DEFAULT 'm' NOT NULL,
	"custom_fields_schema" text NOT NULL,
	"waitlist_enabled" boolean DEFAULT false NOT NULL,
	"max_per_email" bigint DEFAULT 1 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_challenges_used" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"owner" text NOT NULL,
	"key" text NOT NULL,
	"club_id" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" bigint NOT NULL,
	"headers" text,
	"body" "bytea",
	"created_at" text NOT NULL,
	CONSTRAINT "idempotency_keys_owner_key_pk" PRIMARY KEY("owner","key")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"kind" text NOT NULL,
	"payload" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"run_after" text NOT NULL,
	"last_error" text,
	"outcome" text,
	"created_at" text NOT NULL,
	"finished_at" text
);
--> statement-breakpoint
CREATE TABLE "member_history" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"member_id" text NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"from_end" text,
	"to_end" text,
	"reason" text,
	"admin_id" text,
	"key_prefix" text,
	"details" text,
	"created_at" text NOT NULL,
	"actor" text
);
--> statement-breakpoint
CREATE TABLE "member_import_undo" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "member_import_undo_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"import_id" text NOT NULL,
	"member_id" text NOT NULL,
	"history_id" text NOT NULL,
	"before" text,
	"written_at" text NOT NULL,
	"entries" text
);
--> statement-breakpoint
CREATE TABLE "member_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"status" text NOT NULL,
	"host" text NOT NULL,
	"pid" bigint NOT NULL,
	"started_at" text NOT NULL,
	"finished_at" text
);
--> statement-breakpoint
CREATE TABLE "member_versions" (
	"club_id" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"membership_start" text NOT NULL,
	"membership_end" text NOT NULL,
	"payment_status" text NOT NULL,
	"status_before_suspension" text,
	"payment_method" text,
	"pass_serial_number" text NOT NULL,
	"referral_code" text NOT NULL,
	"manage_token" text,
	"tier_id" text,
	"pending_tier_id" text,
	"pending_tier_change_at" text,
	"is_manual" boolean DEFAULT false NOT NULL,
	"payment_mode" text DEFAULT 'one_time' NOT NULL,
	"invoice_company_name" text,
	"referral_count" bigint DEFAULT 0 NOT NULL,
	"referral_credit_cents" bigint DEFAULT 0 NOT NULL,
	"acquisition_source" text,
	"referred_by_member_id" text,
	"custom_fields" text,
	"profile_complete" boolean DEFAULT true NOT NULL,
	"has_wallet_a" boolean DEFAULT false NOT NULL,
	"has_wallet_b" boolean DEFAULT false NOT NULL,
	"has_web" boolean DEFAULT false NOT NULL,
	"card_email_sent_at" text,
	"card_email_reminder_sent_at" text,
	"card_installed_at" text,
	"renewal_opt_out_at" text,
	"pass_updated_at" text,
	"pass_auth_token" text,
	"search_text" text NOT NULL,
	"sort_name" text DEFAULT '' NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"erasure_requested_at" text,
	"pending_email" text,
	"pending_email_code_hash" text,
	"pending_email_expires_at" text,
	"application_status" text,
	"amount_due_cents" bigint,
	"stripe_customer_id" text,
	"stripe_subscription_id" text
);
--> statement-breakpoint
CREATE TABLE "oauth_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"client_name" text NOT NULL,
	"client_uri" text,
	"redirect_uris" text NOT NULL,
	"fetched_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"club_id" text NOT NULL,
	"admin_id" text NOT NULL,
	"client_id" text NOT NULL,
	"client_name" text NOT NULL,
	"scopes" text NOT NULL,
	"resource" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"expires_at" text NOT NULL,
	"used_at" text,
	"grant_id" text,
	"created_at" text NOT NULL,
	CONSTRAINT "oauth_codes_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
CREATE TABLE "oauth_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"admin_id" text NOT NULL,
	"client_id" text NOT NULL,
	"client_name" text NOT NULL,
	"scopes" text NOT NULL,
	"resource" text NOT NULL,
	"created_at" text NOT NULL,
	"last_used_at" text,
	"revoked_at" text,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "oauth_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"grant_id" text NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" text NOT NULL,
	"rotated_at" text,
	"created_at" text NOT NULL,
	CONSTRAINT "oauth_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"member_id" text,
	"kind" text NOT NULL,
	"registration_id" text,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"method" text NOT NULL,
	"source" text NOT NULL,
	"provider_fee_cents" bigint DEFAULT 0 NOT NULL,
	"platform_commission_cents" bigint DEFAULT 0 NOT NULL,
	"reason" text,
	"admin_id" text,
	"paid_at" text NOT NULL,
	"created_at" text NOT NULL,
	"provider_payment_id" text,
	"statement_line_key" text
);
--> statement-breakpoint
CREATE TABLE "promo_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"code" text NOT NULL,
	"code_key" text NOT NULL,
	"discount_type" text NOT NULL,
	"discount_value" bigint NOT NULL,
	"currency" text,
	"applies_to_tier_ids" text,
	"event_id" text,
	"scope" text NOT NULL,
	"max_uses" bigint,
	"used_count" bigint DEFAULT 0 NOT NULL,
	"valid_from" text,
	"valid_until" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promo_redemptions" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"promo_code_id" text NOT NULL,
	"registration_id" text,
	"member_id" text,
	"discount_cents" bigint NOT NULL,
	"created_at" text NOT NULL,
	"awaiting_payment" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminders_sent" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"subject_id" text NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scans" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"member_id" text,
	"code" text NOT NULL,
	"status" text NOT NULL,
	"key_prefix" text,
	"admin_id" text,
	"scanned_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"club_id" text,
	"outcome" text NOT NULL,
	"received_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tiers" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"price_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"duration_months" bigint NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" bigint DEFAULT 0 NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voided_pass_devices" (
	"serial" text NOT NULL,
	"device_library_id" text NOT NULL,
	"pass_type_id" text NOT NULL,
	"push_token" text NOT NULL,
	CONSTRAINT "voided_pass_devices_device_library_id_pass_type_id_serial_pk" PRIMARY KEY("device_library_id","pass_type_id","serial")
);
--> statement-breakpoint
CREATE TABLE "voided_passes" (
	"serial" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"auth_token_hash" text NOT NULL,
	"voided_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"status_code" bigint,
	"duration_ms" bigint NOT NULL,
	"response_body" text,
	"error" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"msg_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" text NOT NULL,
	"status" text NOT NULL,
	"attempts" bigint NOT NULL,
	"next_attempt_at" text,
	"last_status_code" bigint,
	"job_id" text,
	"created_at" text NOT NULL,
	"finished_at" text
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"events" text NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" text,
	"enabled" boolean NOT NULL,
	"disabled_reason" text,
	"disabled_at" text,
	"failing_since" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_sessions" ADD CONSTRAINT "admin_sessions_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admins" ADD CONSTRAINT "admins_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apple_registrations" ADD CONSTRAINT "apple_registrations_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apple_registrations" ADD CONSTRAINT "apple_registrations_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_ticket_id_event_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."event_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_tickets" ADD CONSTRAINT "event_tickets_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_imports" ADD CONSTRAINT "member_imports_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_tier_id_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_pending_tier_id_tiers_id_fk" FOREIGN KEY ("pending_tier_id") REFERENCES "public"."tiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD CONSTRAINT "oauth_grants_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tiers" ADD CONSTRAINT "tiers_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voided_pass_devices" ADD CONSTRAINT "voided_pass_devices_serial_voided_passes_serial_fk" FOREIGN KEY ("serial") REFERENCES "public"."voided_passes"("serial") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admins_email_unique" ON "admins" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_unique" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_club_idx" ON "api_keys" USING btree ("club_id");--> statement-breakpoint
CREATE UNIQUE INDEX "apple_registrations_device_pass_unique" ON "apple_registrations" USING btree ("device_library_id","pass_type_id","member_id");--> statement-breakpoint
CREATE INDEX "apple_registrations_club_member_idx" ON "apple_registrations" USING btree ("club_id","member_id");--> statement-breakpoint
CREATE INDEX "apple_registrations_push_token_idx" ON "apple_registrations" USING btree ("push_token");--> statement-breakpoint
CREATE INDEX "audit_log_club_time_idx" ON "audit_log" USING btree ("club_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "check_ins_event_nonce_unique" ON "check_ins" USING btree ("event_id","nonce");--> statement-breakpoint
CREATE INDEX "check_ins_event_idx" ON "check_ins" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "clubs_slug_unique" ON "clubs" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "event_registrations_qr_unique" ON "event_registrations" USING btree ("qr_token");--> statement-breakpoint
CREATE INDEX "event_registrations_email_key_idx" ON "event_registrations" USING btree ("event_id","email_key");--> statement-breakpoint
CREATE INDEX "event_registrations_event_idx" ON "event_registrations" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "event_registrations_ticket_idx" ON "event_registrations" USING btree ("ticket_id","status");--> statement-breakpoint
CREATE INDEX "event_registrations_member_idx" ON "event_registrations" USING btree ("event_id","member_id");--> statement-breakpoint
CREATE INDEX "event_tickets_event_idx" ON "event_tickets" USING btree ("event_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "events_club_slug_unique" ON "events" USING btree ("club_id","slug");--> statement-breakpoint
CREATE INDEX "events_club_starts_idx" ON "events" USING btree ("club_id","starts_at");--> statement-breakpoint
CREATE INDEX "form_challenges_used_expires_idx" ON "form_challenges_used" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "jobs_status_run_after_idx" ON "jobs" USING btree ("status","run_after");--> statement-breakpoint
CREATE INDEX "member_history_member_idx" ON "member_history" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE INDEX "member_import_undo_import_idx" ON "member_import_undo" USING btree ("import_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "member_imports_running_unique" ON "member_imports" USING btree ("club_id") WHERE status = 'running';--> statement-breakpoint
CREATE UNIQUE INDEX "members_club_email_unique" ON "members" USING btree ("club_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "members_club_referral_code_unique" ON "members" USING btree ("club_id","referral_code");--> statement-breakpoint
CREATE UNIQUE INDEX "members_pass_serial_unique" ON "members" USING btree ("pass_serial_number");--> statement-breakpoint
CREATE INDEX "members_club_created_idx" ON "members" USING btree ("club_id","created_at","id");--> statement-breakpoint
CREATE INDEX "members_club_sort_name_idx" ON "members" USING btree ("club_id","sort_name","id");--> statement-breakpoint
CREATE INDEX "members_club_search_idx" ON "members" USING btree ("club_id","search_text");--> statement-breakpoint
CREATE INDEX "members_club_end_idx" ON "members" USING btree ("club_id","membership_end");--> statement-breakpoint
CREATE INDEX "members_club_status_end_idx" ON "members" USING btree ("club_id","payment_status","membership_end");--> statement-breakpoint
CREATE UNIQUE INDEX "members_manage_token_unique" ON "members" USING btree ("manage_token");--> statement-breakpoint
CREATE INDEX "oauth_grants_club_idx" ON "oauth_grants" USING btree ("club_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_grant_idx" ON "oauth_tokens" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "payments_club_paid_idx" ON "payments" USING btree ("club_id","paid_at");--> statement-breakpoint
CREATE INDEX "payments_member_idx" ON "payments" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "payments_provider_payment_idx" ON "payments" USING btree ("provider_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_club_statement_line_unique" ON "payments" USING btree ("club_id","statement_line_key");--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_club_code_unique" ON "promo_codes" USING btree ("club_id","code_key");--> statement-breakpoint
CREATE INDEX "promo_codes_event_idx" ON "promo_codes" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "promo_redemptions_code_idx" ON "promo_redemptions" USING btree ("promo_code_id");--> statement-breakpoint
CREATE INDEX "promo_redemptions_member_idx" ON "promo_redemptions" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reminders_sent_unique" ON "reminders_sent" USING btree ("subject_id","kind","period");--> statement-breakpoint
CREATE INDEX "reminders_sent_club_idx" ON "reminders_sent" USING btree ("club_id","created_at");--> statement-breakpoint
CREATE INDEX "scans_club_time_idx" ON "scans" USING btree ("club_id","scanned_at");--> statement-breakpoint
CREATE INDEX "scans_member_idx" ON "scans" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "tiers_club_idx" ON "tiers" USING btree ("club_id","sort_order");--> statement-breakpoint
CREATE INDEX "voided_pass_devices_serial_idx" ON "voided_pass_devices" USING btree ("serial");--> statement-breakpoint
CREATE INDEX "voided_pass_devices_push_token_idx" ON "voided_pass_devices" USING btree ("push_token");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_club_idx" ON "webhook_endpoints" USING btree ("club_id","enabled");