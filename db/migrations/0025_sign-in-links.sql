CREATE TABLE `admin_sign_in_links` (
	`id` text PRIMARY KEY NOT NULL,
	`admin_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`admin_id`) REFERENCES `admins`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `admin_sign_in_links_hash_unique` ON `admin_sign_in_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `admin_sign_in_links_admin_idx` ON `admin_sign_in_links` (`admin_id`);