CREATE TABLE "flagged_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"provider_event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"purpose" text NOT NULL,
	"member_id" text,
	"registration_id" text,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"expected_amount_cents" bigint,
	"expected_currency" text,
	"provider_payment_id" text,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "flagged_payments_club_created_idx" ON "flagged_payments" USING btree ("club_id","created_at");