ALTER TABLE "clubs" ADD COLUMN "dunning_days" text DEFAULT '[10,30]' NOT NULL;--> statement-breakpoint
ALTER TABLE "clubs" ADD COLUMN "dunning_fee_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "clubs" ADD COLUMN "suspend_after_dunning" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clubs" ADD COLUMN "renewal_invoices" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "period_start" text;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_member_period_unique" ON "invoices" USING btree ("club_id","member_id","period_start") WHERE status <> 'cancelled' and period_start is not null;--> statement-breakpoint
CREATE INDEX "invoices_club_status_due_idx" ON "invoices" USING btree ("club_id","status","due_on");