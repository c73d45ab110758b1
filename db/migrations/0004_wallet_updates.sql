ALTER TABLE `jobs` ADD `outcome` text;--> statement-breakpoint
ALTER TABLE `members` ADD `pass_updated_at` text;