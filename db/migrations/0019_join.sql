ALTER TABLE `members` ADD `application_status` text;--> statement-breakpoint
ALTER TABLE `members` ADD `amount_due_cents` integer;