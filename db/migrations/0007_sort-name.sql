DROP INDEX `members_club_name_idx`;--> statement-breakpoint
ALTER TABLE `members` ADD `sort_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `members_club_sort_name_idx` ON `members` (`club_id`,`sort_name`,`id`);