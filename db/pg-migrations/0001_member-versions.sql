-- The members version (lib/members/kept.ts): every insert, update and delete of a member raises
-- its club's version in the same transaction, whoever writes (any process, psql by hand); so do
-- a tier's name and the club's grace period, which a page of the list shows. SQLite's twins are
-- in db/sqlite.ts (memberVersionTriggers).
CREATE FUNCTION bump_member_version(club text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO member_versions (club_id, version) VALUES (club, 1)
  ON CONFLICT (club_id) DO UPDATE SET version = member_versions.version + 1;
$$;
--> statement-breakpoint
CREATE FUNCTION members_version_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM bump_member_version(OLD.club_id);
  ELSE
    PERFORM bump_member_version(NEW.club_id);
    IF TG_OP = 'UPDATE' AND OLD.club_id IS DISTINCT FROM NEW.club_id THEN
      PERFORM bump_member_version(OLD.club_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER members_version AFTER INSERT OR UPDATE OR DELETE ON members
  FOR EACH ROW EXECUTE FUNCTION members_version_trigger();
--> statement-breakpoint
CREATE FUNCTION members_version_tier_name_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.name IS DISTINCT FROM NEW.name THEN PERFORM bump_member_version(NEW.club_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER members_version_tier_name AFTER UPDATE OF name ON tiers
  FOR EACH ROW EXECUTE FUNCTION members_version_tier_name_trigger();
--> statement-breakpoint
CREATE FUNCTION members_version_grace_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.grace_period_days IS DISTINCT FROM NEW.grace_period_days THEN PERFORM bump_member_version(NEW.id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER members_version_grace AFTER UPDATE OF grace_period_days ON clubs
  FOR EACH ROW EXECUTE FUNCTION members_version_grace_trigger();
