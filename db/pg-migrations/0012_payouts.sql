CREATE TABLE "payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"provider_payout_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"paid_at" text NOT NULL,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_club_provider_unique" ON "payouts" USING btree ("club_id","provider_payout_id");--> statement-breakpoint
CREATE INDEX "payouts_club_paid_idx" ON "payouts" USING btree ("club_id","paid_at");