CREATE TABLE `check_ins` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`event_id` text NOT NULL,
	`registration_id` text,
	`code` text NOT NULL,
	`verdict` text NOT NULL,
	`nonce` text,
	`admin_id` text,
	`key_prefix` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `check_ins_event_nonce_unique` ON `check_ins` (`event_id`,`nonce`);--> statement-breakpoint
CREATE INDEX `check_ins_event_idx` ON `check_ins` (`event_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `event_registrations` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`event_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`member_id` text,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text,
	`is_member` integer DEFAULT false NOT NULL,
	`qr_token` text NOT NULL,
	`status` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`promo_code_id` text,
	`discount_cents` integer DEFAULT 0 NOT NULL,
	`checked_in_at` text,
	`wallet_a_at` text,
	`wallet_b_at` text,
	`ics_at` text,
	`custom_fields` text,
	`source` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_id`) REFERENCES `event_tickets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `event_registrations_qr_unique` ON `event_registrations` (`qr_token`);--> statement-breakpoint
CREATE INDEX `event_registrations_event_idx` ON `event_registrations` (`event_id`,`status`);--> statement-breakpoint
CREATE INDEX `event_registrations_ticket_idx` ON `event_registrations` (`ticket_id`,`status`);--> statement-breakpoint
CREATE INDEX `event_registrations_member_idx` ON `event_registrations` (`event_id`,`member_id`);--> statement-breakpoint
CREATE TABLE `event_tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`event_id` text NOT NULL,
	`name` text NOT NULL,
	`member_price_cents` integer DEFAULT 0 NOT NULL,
	`tier_prices` text,
	`non_member_price_cents` integer,
	`quantity_max` integer,
	`is_active` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `event_tickets_event_idx` ON `event_tickets` (`event_id`,`sort_order`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`image_url` text,
	`location_name` text,
	`location_address` text,
	`starts_at` text NOT NULL,
	`ends_at` text,
	`registration_opens_at` text,
	`registration_closes_at` text,
	`capacity` integer,
	`listed` integer DEFAULT true NOT NULL,
	`access` text DEFAULT 'public' NOT NULL,
	`status` text DEFAULT 'published' NOT NULL,
	`currency` text NOT NULL,
	`reminder_enabled` integer DEFAULT true NOT NULL,
	`show_attendees` integer DEFAULT true NOT NULL,
	`attendees_min` integer DEFAULT 3 NOT NULL,
	`attendees_nominative` integer DEFAULT false NOT NULL,
	`story_text` text,
	`story_text_size` text DEFAULT 'm' NOT NULL,
	`custom_fields_schema` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_club_slug_unique` ON `events` (`club_id`,`slug`);--> statement-breakpoint
CREATE INDEX `events_club_starts_idx` ON `events` (`club_id`,`starts_at`);--> statement-breakpoint
CREATE TABLE `promo_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`code` text NOT NULL,
	`code_key` text NOT NULL,
	`discount_type` text NOT NULL,
	`discount_value` integer NOT NULL,
	`currency` text,
	`applies_to_tier_ids` text,
	`event_id` text,
	`scope` text NOT NULL,
	`max_uses` integer,
	`used_count` integer DEFAULT 0 NOT NULL,
	`valid_from` text,
	`valid_until` text,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promo_codes_club_code_unique` ON `promo_codes` (`club_id`,`code_key`);--> statement-breakpoint
CREATE INDEX `promo_codes_event_idx` ON `promo_codes` (`event_id`);--> statement-breakpoint
CREATE TABLE `promo_redemptions` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`promo_code_id` text NOT NULL,
	`registration_id` text,
	`member_id` text,
	`discount_cents` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`promo_code_id`) REFERENCES `promo_codes`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `promo_redemptions_code_idx` ON `promo_redemptions` (`promo_code_id`);