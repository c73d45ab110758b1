CREATE TABLE `rate_counts` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL,
	`n` integer NOT NULL,
	`gone_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `key`, `at`)
);
--> statement-breakpoint
CREATE INDEX `rate_counts_gone_at_idx` ON `rate_counts` (`gone_at`);--> statement-breakpoint
DROP TABLE `rate_hits`;