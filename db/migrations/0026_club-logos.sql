CREATE TABLE `club_logos` (
	`club_id` text NOT NULL,
	`variant` text NOT NULL,
	`content_type` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`data` blob NOT NULL,
	`etag` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`club_id`, `variant`),
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
