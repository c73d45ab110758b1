PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_event_registrations` (
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
	FOREIGN KEY (`ticket_id`) REFERENCES `event_tickets`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_event_registrations`("id", "club_id", "event_id", "ticket_id", "member_id", "first_name", "last_name", "email", "is_member", "qr_token", "status", "amount_cents", "currency", "promo_code_id", "discount_cents", "checked_in_at", "wallet_a_at", "wallet_b_at", "ics_at", "custom_fields", "source", "created_at", "updated_at") SELECT "id", "club_id", "event_id", "ticket_id", "member_id", "first_name", "last_name", "email", "is_member", "qr_token", "status", "amount_cents", "currency", "promo_code_id", "discount_cents", "checked_in_at", "wallet_a_at", "wallet_b_at", "ics_at", "custom_fields", "source", "created_at", "updated_at" FROM `event_registrations`;--> statement-breakpoint
DROP TABLE `event_registrations`;--> statement-breakpoint
ALTER TABLE `__new_event_registrations` RENAME TO `event_registrations`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `event_registrations_qr_unique` ON `event_registrations` (`qr_token`);--> statement-breakpoint
CREATE INDEX `event_registrations_event_idx` ON `event_registrations` (`event_id`,`status`);--> statement-breakpoint
CREATE INDEX `event_registrations_ticket_idx` ON `event_registrations` (`ticket_id`,`status`);--> statement-breakpoint
CREATE INDEX `event_registrations_member_idx` ON `event_registrations` (`event_id`,`member_id`);--> statement-breakpoint
CREATE TABLE `__new_member_history` (
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
	`created_at` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_member_history`("id", "club_id", "member_id", "action", "from_status", "to_status", "from_end", "to_end", "reason", "admin_id", "key_prefix", "details", "created_at") SELECT "id", "club_id", "member_id", "action", "from_status", "to_status", "from_end", "to_end", "reason", "admin_id", "key_prefix", "details", "created_at" FROM `member_history`;--> statement-breakpoint
DROP TABLE `member_history`;--> statement-breakpoint
ALTER TABLE `__new_member_history` RENAME TO `member_history`;--> statement-breakpoint
CREATE INDEX `member_history_member_idx` ON `member_history` (`member_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `__new_payments` (
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
	`created_at` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_payments`("id", "club_id", "member_id", "kind", "registration_id", "amount_cents", "currency", "method", "source", "provider_fee_cents", "platform_commission_cents", "reason", "admin_id", "paid_at", "created_at") SELECT "id", "club_id", "member_id", "kind", "registration_id", "amount_cents", "currency", "method", "source", "provider_fee_cents", "platform_commission_cents", "reason", "admin_id", "paid_at", "created_at" FROM `payments`;--> statement-breakpoint
DROP TABLE `payments`;--> statement-breakpoint
ALTER TABLE `__new_payments` RENAME TO `payments`;--> statement-breakpoint
CREATE INDEX `payments_club_paid_idx` ON `payments` (`club_id`,`paid_at`);--> statement-breakpoint
CREATE INDEX `payments_member_idx` ON `payments` (`member_id`);--> statement-breakpoint
CREATE TABLE `__new_scans` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`member_id` text,
	`code` text NOT NULL,
	`status` text NOT NULL,
	`key_prefix` text,
	`admin_id` text,
	`scanned_at` text NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_scans`("id", "club_id", "member_id", "code", "status", "key_prefix", "admin_id", "scanned_at") SELECT "id", "club_id", "member_id", "code", "status", "key_prefix", "admin_id", "scanned_at" FROM `scans`;--> statement-breakpoint
DROP TABLE `scans`;--> statement-breakpoint
ALTER TABLE `__new_scans` RENAME TO `scans`;--> statement-breakpoint
CREATE INDEX `scans_club_time_idx` ON `scans` (`club_id`,`scanned_at`);--> statement-breakpoint
CREATE INDEX `scans_member_idx` ON `scans` (`member_id`);