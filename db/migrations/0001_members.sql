CREATE TABLE `member_history` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`member_id` text NOT NULL,
	`action` text NOT NULL,
	`from_status` text,
	`to_status` text,
	`from_end` text,
	`to_end` text,
	`reason` text,
	`admin_id` text,
	`key_prefix` text,
	`details` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `member_history_member_idx` ON `member_history` (`member_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `members` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`email` text NOT NULL,
	`membership_start` text NOT NULL,
	`membership_end` text NOT NULL,
	`payment_status` text NOT NULL,
	`status_before_suspension` text,
	`payment_method` text,
	`pass_serial_number` text NOT NULL,
	`referral_code` text NOT NULL,
	`manage_token` text,
	`tier_id` text,
	`pending_tier_id` text,
	`pending_tier_change_at` text,
	`is_manual` integer DEFAULT false NOT NULL,
	`payment_mode` text DEFAULT 'one_time' NOT NULL,
	`invoice_company_name` text,
	`referral_count` integer DEFAULT 0 NOT NULL,
	`referral_credit_cents` integer DEFAULT 0 NOT NULL,
	`acquisition_source` text,
	`referred_by_member_id` text,
	`custom_fields` text,
	`profile_complete` integer DEFAULT true NOT NULL,
	`has_wallet_a` integer DEFAULT false NOT NULL,
	`has_wallet_b` integer DEFAULT false NOT NULL,
	`has_web` integer DEFAULT false NOT NULL,
	`card_email_sent_at` text,
	`card_email_reminder_sent_at` text,
	`card_installed_at` text,
	`renewal_opt_out_at` text,
	`search_text` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tier_id`) REFERENCES `tiers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`pending_tier_id`) REFERENCES `tiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `members_club_email_unique` ON `members` (`club_id`,`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `members_club_referral_code_unique` ON `members` (`club_id`,`referral_code`);--> statement-breakpoint
CREATE UNIQUE INDEX `members_pass_serial_unique` ON `members` (`pass_serial_number`);--> statement-breakpoint
CREATE INDEX `members_club_created_idx` ON `members` (`club_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `members_club_name_idx` ON `members` (`club_id`,`last_name`,`first_name`);--> statement-breakpoint
CREATE INDEX `members_club_end_idx` ON `members` (`club_id`,`membership_end`);--> statement-breakpoint
CREATE INDEX `members_club_status_end_idx` ON `members` (`club_id`,`payment_status`,`membership_end`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`member_id` text,
	`kind` text NOT NULL,
	`registration_id` text,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`method` text NOT NULL,
	`source` text NOT NULL,
	`provider_fee_cents` integer DEFAULT 0 NOT NULL,
	`platform_commission_cents` integer DEFAULT 0 NOT NULL,
	`reason` text,
	`admin_id` text,
	`paid_at` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payments_club_paid_idx` ON `payments` (`club_id`,`paid_at`);--> statement-breakpoint
CREATE INDEX `payments_member_idx` ON `payments` (`member_id`);--> statement-breakpoint
CREATE TABLE `tiers` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`price_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`duration_months` integer NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tiers_club_idx` ON `tiers` (`club_id`,`sort_order`);