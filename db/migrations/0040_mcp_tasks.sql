CREATE TABLE `mcp_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`owner` text NOT NULL,
	`tool` text NOT NULL,
	`status` text NOT NULL,
	`status_message` text,
	`progress` integer,
	`total` integer,
	`result` text,
	`ttl_ms` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`lease_owner` text,
	`lease_until` text
);
--> statement-breakpoint
CREATE INDEX `mcp_tasks_owner_idx` ON `mcp_tasks` (`club_id`,`owner`,`created_at`);--> statement-breakpoint
CREATE INDEX `mcp_tasks_expires_idx` ON `mcp_tasks` (`expires_at`);