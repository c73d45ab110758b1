CREATE TABLE "rate_hits" (
	"id" text PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_hits_scope_key_at_idx" ON "rate_hits" USING btree ("scope","key","at");--> statement-breakpoint
CREATE INDEX "rate_hits_at_idx" ON "rate_hits" USING btree ("at");