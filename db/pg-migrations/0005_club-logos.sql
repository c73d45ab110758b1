CREATE TABLE "club_logos" (
	"club_id" text NOT NULL,
	"variant" text NOT NULL,
	"content_type" text NOT NULL,
	"width" bigint NOT NULL,
	"height" bigint NOT NULL,
	"data" "bytea" NOT NULL,
	"etag" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "club_logos_club_id_variant_pk" PRIMARY KEY("club_id","variant")
);
--> statement-breakpoint
ALTER TABLE "club_logos" ADD CONSTRAINT "club_logos_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;