CREATE TABLE "rate_counts" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"at" bigint NOT NULL,
	"n" bigint NOT NULL,
	"gone_at" bigint NOT NULL,
	CONSTRAINT "rate_counts_scope_key_at_pk" PRIMARY KEY("scope","key","at")
);
--> statement-breakpoint
DROP TABLE "rate_hits" CASCADE;--> statement-breakpoint
CREATE INDEX "rate_counts_gone_at_idx" ON "rate_counts" USING btree ("gone_at");