ALTER TABLE "payments" ADD COLUMN "invoice_id" text;--> statement-breakpoint
CREATE INDEX "payments_invoice_idx" ON "payments" USING btree ("invoice_id");