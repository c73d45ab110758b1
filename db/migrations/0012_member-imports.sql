CREATE TABLE `member_import_undo` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` text NOT NULL,
	`member_id` text NOT NULL,
	`history_id` text NOT NULL,
	`before` text,
	`written_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `member_import_undo_import_idx` ON `member_import_undo` (`import_id`,`seq`);--> statement-breakpoint
CREATE TABLE `member_imports` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`status` text NOT NULL,
	`host` text NOT NULL,
	`pid` integer NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `member_imports_running_unique` ON `member_imports` (`club_id`) WHERE status = 'running';