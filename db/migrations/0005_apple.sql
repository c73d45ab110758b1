CREATE TABLE `apple_registrations` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`member_id` text NOT NULL,
	`device_library_id` text NOT NULL,
	`pass_type_id` text NOT NULL,
	`push_token` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `apple_registrations_device_pass_unique` ON `apple_registrations` (`device_library_id`,`pass_type_id`,`member_id`);--> statement-breakpoint
CREATE INDEX `apple_registrations_club_member_idx` ON `apple_registrations` (`club_id`,`member_id`);--> statement-breakpoint
CREATE INDEX `apple_registrations_push_token_idx` ON `apple_registrations` (`push_token`);--> statement-breakpoint
ALTER TABLE `members` ADD `pass_auth_token` text;