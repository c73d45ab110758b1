CREATE TABLE `idempotency_keys` (
	`owner` text NOT NULL,
	`key` text NOT NULL,
	`club_id` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer NOT NULL,
	`headers` text,
	`body` blob,
	`created_at` text NOT NULL,
	PRIMARY KEY(`owner`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
ALTER TABLE `audit_log` ADD `request_id` text;