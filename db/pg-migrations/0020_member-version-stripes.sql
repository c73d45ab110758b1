ALTER TABLE "member_versions" ADD COLUMN "stripe" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "member_versions" DROP CONSTRAINT "member_versions_pkey";--> statement-breakpoint
ALTER TABLE "member_versions" ADD CONSTRAINT "member_versions_club_id_stripe_pk" PRIMARY KEY("club_id","stripe");--> statement-breakpoint
-- Each connection raises its own stripe of the club's version (the version is the sum of the
-- club's rows): writers side by side on other connections do not wait on one row's lock until
-- each other's commit (lib/members/kept.ts, db/schema.ts memberVersions).
CREATE OR REPLACE FUNCTION bump_member_version(club text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO member_versions (club_id, stripe, version) VALUES (club, pg_backend_pid() % 32, 1)
  ON CONFLICT (club_id, stripe) DO UPDATE SET version = member_versions.version + 1;
$$;
