CREATE TABLE `scans` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`member_id` text,
	`code` text NOT NULL,
	`status` text NOT NULL,
	`key_prefix` text,
	`admin_id` text,
	`scanned_at` text NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`member_id`) REFERENCES `members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `scans_club_time_idx` ON `scans` (`club_id`,`scanned_at`);--> statement-breakpoint
CREATE INDEX `scans_member_idx` ON `scans` (`member_id`);