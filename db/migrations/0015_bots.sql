CREATE TABLE `form_challenges_used` (
	`id` text PRIMARY KEY NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `form_challenges_used_expires_idx` ON `form_challenges_used` (`expires_at`);--> statement-breakpoint
CREATE TABLE `server_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `clubs` ADD `pending_hold_hours` integer DEFAULT 48 NOT NULL;--> statement-breakpoint
ALTER TABLE `event_registrations` ADD `email_key` text;--> statement-breakpoint
ALTER TABLE `event_registrations` ADD `hold_expires_at` text;--> statement-breakpoint
CREATE INDEX `event_registrations_email_key_idx` ON `event_registrations` (`event_id`,`email_key`);--> statement-breakpoint
ALTER TABLE `events` ADD `max_per_email` integer DEFAULT 1 NOT NULL;