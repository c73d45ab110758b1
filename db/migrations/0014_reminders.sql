CREATE TABLE `reminders_sent` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`subject_id` text NOT NULL,
	`kind` text NOT NULL,
	`period` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reminders_sent_unique` ON `reminders_sent` (`subject_id`,`kind`,`period`);--> statement-breakpoint
CREATE INDEX `reminders_sent_club_idx` ON `reminders_sent` (`club_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `clubs` ADD `renewal_reminder_days` text DEFAULT '[30,7]' NOT NULL;--> statement-breakpoint
ALTER TABLE `clubs` ADD `grace_period_days` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `clubs` ADD `expiry_notice` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `member_history` ADD `actor` text;--> statement-breakpoint
ALTER TABLE `members` ADD `erasure_requested_at` text;--> statement-breakpoint
ALTER TABLE `members` ADD `pending_email` text;--> statement-breakpoint
ALTER TABLE `members` ADD `pending_email_code_hash` text;--> statement-breakpoint
ALTER TABLE `members` ADD `pending_email_expires_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `members_manage_token_unique` ON `members` (`manage_token`);