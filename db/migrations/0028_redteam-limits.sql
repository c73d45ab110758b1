ALTER TABLE `members` ADD `admin_page_token` text;--> statement-breakpoint
CREATE UNIQUE INDEX `members_admin_page_token_unique` ON `members` (`admin_page_token`);--> statement-breakpoint
ALTER TABLE `oauth_codes` ADD `redirect_uri_given` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `oauth_tokens` ADD `scopes` text;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `timeouts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhook_endpoints` ADD `paused_until` text;