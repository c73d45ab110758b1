CREATE TABLE `member_versions` (
	`club_id` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
