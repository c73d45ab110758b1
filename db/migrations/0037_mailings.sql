CREATE TABLE `mailing_recipients` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`mailing_id` text NOT NULL,
	`member_id` text NOT NULL,
	`email` text NOT NULL,
	`state` text NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`retry_at` text,
	`claim_token` text,
	`claimed_until` text,
	`unsubscribe_token` text NOT NULL,
	`created_at` text NOT NULL,
	`sent_at` text,
	FOREIGN KEY (`mailing_id`) REFERENCES `mailings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mailing_recipients_mailing_member_unique` ON `mailing_recipients` (`mailing_id`,`member_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `mailing_recipients_unsubscribe_unique` ON `mailing_recipients` (`unsubscribe_token`);--> statement-breakpoint
CREATE INDEX `mailing_recipients_state_idx` ON `mailing_recipients` (`mailing_id`,`state`);--> statement-breakpoint
CREATE TABLE `mailings` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`subject` text NOT NULL,
	`body_markdown` text NOT NULL,
	`audience` text NOT NULL,
	`status` text NOT NULL,
	`send_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`sent_at` text,
	`cancelled_at` text,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `mailings_club_created_idx` ON `mailings` (`club_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `members` ADD `mailing_opt_out_at` text;--> statement-breakpoint
ALTER TABLE `members` ADD `email_bounced_at` text;--> statement-breakpoint
ALTER TABLE `members` ADD `email_bounced_address` text;