-- Member search (`search_text LIKE '%...%'`, the folded names and email of lib/members) served by
-- a trigram index instead of a scan of the club's members. pg_trgm is a trusted extension: the
-- database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS members_search_trgm_idx ON members USING gin (search_text gin_trgm_ops);
