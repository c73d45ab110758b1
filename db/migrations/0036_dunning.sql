ALTER TABLE `clubs` ADD `dunning_days` text DEFAULT '[10,30]' NOT NULL;--> statement-breakpoint
ALTER TABLE `clubs` ADD `dunning_fee_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `clubs` ADD `suspend_after_dunning` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `clubs` ADD `renewal_invoices` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `period_start` text;--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_member_period_unique` ON `invoices` (`club_id`,`member_id`,`period_start`) WHERE status <> 'cancelled' and period_start is not null;--> statement-breakpoint
CREATE INDEX `invoices_club_status_due_idx` ON `invoices` (`club_id`,`status`,`due_on`);