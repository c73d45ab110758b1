ALTER TABLE `event_registrations` ADD `cancelled_at` text;--> statement-breakpoint
ALTER TABLE `event_registrations` ADD `cancel_reason` text;--> statement-breakpoint
ALTER TABLE `events` ADD `waitlist_enabled` integer DEFAULT false NOT NULL;