CREATE TABLE `invoice_counters` (
	`club_id` text NOT NULL,
	`year` integer NOT NULL,
	`last` integer NOT NULL,
	PRIMARY KEY(`club_id`, `year`),
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`number` text NOT NULL,
	`member_id` text NOT NULL,
	`registration_id` text,
	`kind` text NOT NULL,
	`lines` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`issued_on` text NOT NULL,
	`due_on` text NOT NULL,
	`status` text NOT NULL,
	`paid_cents` integer DEFAULT 0 NOT NULL,
	`reference` text NOT NULL,
	`tier_id` text,
	`dunning_level` integer DEFAULT 0 NOT NULL,
	`last_reminded_at` text,
	`cancelled_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_club_number_unique` ON `invoices` (`club_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_club_reference_unique` ON `invoices` (`club_id`,`reference`);--> statement-breakpoint
CREATE INDEX `invoices_club_issued_idx` ON `invoices` (`club_id`,`issued_on`);--> statement-breakpoint
CREATE INDEX `invoices_member_idx` ON `invoices` (`member_id`);