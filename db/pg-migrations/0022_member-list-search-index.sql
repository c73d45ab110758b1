-- The list's registration order carries the search text (issue 31): a search's page in that order
-- tests each member in the index and reads only the rows it shows, and its count reads that index
-- alone, as the index of club and search text it replaces did.
DROP INDEX "members_club_search_idx";--> statement-breakpoint
DROP INDEX "members_club_created_idx";--> statement-breakpoint
CREATE INDEX "members_club_created_idx" ON "members" USING btree ("club_id","created_at","id","search_text");