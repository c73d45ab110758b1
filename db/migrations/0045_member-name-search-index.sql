-- The list's name order carries the search text too (issue 31), as its registration order does
-- (0044): a search by name tests each member in the index and reads only the rows it shows.
DROP INDEX `members_club_sort_name_idx`;--> statement-breakpoint
CREATE INDEX `members_club_sort_name_idx` ON `members` (`club_id`,`sort_name`,`id`,`search_text`);