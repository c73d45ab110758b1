ALTER TABLE "members" ADD COLUMN "admin_page_token" text;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD COLUMN "redirect_uri_given" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD COLUMN "scopes" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "timeouts" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "paused_until" text;--> statement-breakpoint
CREATE UNIQUE INDEX "members_admin_page_token_unique" ON "members" USING btree ("admin_page_token");