CREATE TABLE `sign_in_addresses` (
	`account` text NOT NULL,
	`address` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`account`, `address`)
);
--> statement-breakpoint
CREATE TABLE `sign_in_failures` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`last_at` integer NOT NULL
);
