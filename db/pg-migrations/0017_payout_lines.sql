ALTER TABLE "payouts" ADD COLUMN "statement_line_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_club_statement_line_unique" ON "payouts" USING btree ("club_id","statement_line_key");