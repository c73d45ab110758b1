ALTER TABLE `jobs` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_until` text;--> statement-breakpoint
DELETE FROM `jobs` WHERE `club_id` = '' AND `status` = 'pending' AND rowid NOT IN (SELECT min(rowid) FROM `jobs` WHERE `club_id` = '' AND `status` = 'pending' GROUP BY `kind`);--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_recurring_pending_unique` ON `jobs` (`kind`) WHERE status = 'pending' and club_id = '';