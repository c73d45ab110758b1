-- A writer raises a stripe of the club's version that no other open transaction holds (SKIP
-- LOCKED), not the stripe its connection's number chose: with more connections than 32 (three
-- processes of 16) two of them always shared a stripe, and the second writer waited for the
-- first one's commit. The transaction keeps the stripe it took for its later writes (a setting
-- local to it), so a writer holds one stripe; when every stripe is held it adds one under a
-- random number (no other writer is after that row), so the club has about as many stripes as
-- it ever had writers at once. No writer waits on another here. The version is still the sum of
-- the stripes, raised by one per write in the writer's own transaction (lib/members/kept.ts).
CREATE OR REPLACE FUNCTION bump_member_version(club text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  held text := coalesce(current_setting('club.member_version_stripe', true), '');
  s bigint;
BEGIN
  IF left(held, length(club) + 1) = club || '/' THEN
    s := substr(held, length(club) + 2)::bigint;
  ELSE
    SELECT stripe INTO s FROM member_versions WHERE club_id = club LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF s IS NULL THEN
      s := floor(random() * 1e15)::bigint;
    END IF;
    PERFORM set_config('club.member_version_stripe', club || '/' || s, true);
  END IF;
  INSERT INTO member_versions (club_id, stripe, version) VALUES (club, s, 1)
  ON CONFLICT (club_id, stripe) DO UPDATE SET version = member_versions.version + 1;
END;
$$;
