ALTER TABLE "jobs" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "lease_until" text;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_recurring_pending_unique" ON "jobs" USING btree ("kind") WHERE status = 'pending' and club_id = '';