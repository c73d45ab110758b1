DROP INDEX `members_club_created_idx`;--> statement-breakpoint
CREATE INDEX `members_club_created_idx` ON `members` (`club_id`,`created_at`,`id`);