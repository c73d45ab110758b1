ALTER TABLE `payouts` ADD `statement_line_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_club_statement_line_unique` ON `payouts` (`club_id`,`statement_line_key`);