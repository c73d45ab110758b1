ALTER TABLE `payments` ADD `statement_line_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_club_statement_line_unique` ON `payments` (`club_id`,`statement_line_key`);--> statement-breakpoint
ALTER TABLE `promo_redemptions` ADD `awaiting_payment` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `promo_redemptions_member_idx` ON `promo_redemptions` (`member_id`);