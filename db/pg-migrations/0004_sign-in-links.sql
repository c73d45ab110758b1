CREATE TABLE "admin_sign_in_links" (
	"id" text PRIMARY KEY NOT NULL,
	"admin_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" text NOT NULL,
	"used_at" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_sign_in_links" ADD CONSTRAINT "admin_sign_in_links_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_sign_in_links_hash_unique" ON "admin_sign_in_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "admin_sign_in_links_admin_idx" ON "admin_sign_in_links" USING btree ("admin_id");