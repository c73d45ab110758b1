CREATE TABLE "invoice_counters" (
	"club_id" text NOT NULL,
	"year" bigint NOT NULL,
	"last" bigint NOT NULL,
	CONSTRAINT "invoice_counters_club_id_year_pk" PRIMARY KEY("club_id","year")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"number" text NOT NULL,
	"member_id" text NOT NULL,
	"registration_id" text,
	"kind" text NOT NULL,
	"lines" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"issued_on" text NOT NULL,
	"due_on" text NOT NULL,
	"status" text NOT NULL,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"reference" text NOT NULL,
	"tier_id" text,
	"dunning_level" bigint DEFAULT 0 NOT NULL,
	"last_reminded_at" text,
	"cancelled_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_club_number_unique" ON "invoices" USING btree ("club_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_club_reference_unique" ON "invoices" USING btree ("club_id","reference");--> statement-breakpoint
CREATE INDEX "invoices_club_issued_idx" ON "invoices" USING btree ("club_id","issued_on");--> statement-breakpoint
CREATE INDEX "invoices_member_idx" ON "invoices" USING btree ("member_id");