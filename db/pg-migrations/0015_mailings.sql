CREATE TABLE "mailing_recipients" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"mailing_id" text NOT NULL,
	"member_id" text NOT NULL,
	"email" text NOT NULL,
	"state" text NOT NULL,
	"error" text,
	"attempts" bigint DEFAULT 0 NOT NULL,
	"retry_at" text,
	"claim_token" text,
	"claimed_until" text,
	"unsubscribe_token" text NOT NULL,
	"created_at" text NOT NULL,
	"sent_at" text
);
--> statement-breakpoint
CREATE TABLE "mailings" (
	"id" text PRIMARY KEY NOT NULL,
	"club_id" text NOT NULL,
	"subject" text NOT NULL,
	"body_markdown" text NOT NULL,
	"audience" text NOT NULL,
	"status" text NOT NULL,
	"send_at" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	"sent_at" text,
	"cancelled_at" text
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "mailing_opt_out_at" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "email_bounced_at" text;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "email_bounced_address" text;--> statement-breakpoint
ALTER TABLE "mailing_recipients" ADD CONSTRAINT "mailing_recipients_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_recipients_mailing_member_unique" ON "mailing_recipients" USING btree ("mailing_id","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_recipients_unsubscribe_unique" ON "mailing_recipients" USING btree ("unsubscribe_token");--> statement-breakpoint
CREATE INDEX "mailing_recipients_state_idx" ON "mailing_recipients" USING btree ("mailing_id","state");--> statement-breakpoint
CREATE INDEX "mailings_club_created_idx" ON "mailings" USING btree ("club_id","created_at");