CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`club_id` text,
	`outcome` text NOT NULL,
	`received_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `members` ADD `stripe_customer_id` text;--> statement-breakpoint
ALTER TABLE `members` ADD `stripe_subscription_id` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_payment_id` text;--> statement-breakpoint
CREATE INDEX `payments_provider_payment_idx` ON `payments` (`provider_payment_id`);