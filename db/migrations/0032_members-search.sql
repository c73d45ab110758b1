-- Member search at 100,000 members (issue 26 item 6, issue 31): an FTS5 trigram index over the
-- members' folded search text (accents and case already folded by lib/members searchTextOf), so
-- a search of 3 characters or more reads the matching rows instead of scanning the club's members.
-- External content (the text stays in members only), kept in step by triggers; PostgreSQL has its
-- pg_trgm index for the same (pg-migrations 0003).
CREATE VIRTUAL TABLE `members_search` USING fts5(search_text, content='members', content_rowid='rowid', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `members_search`(`members_search`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `members_search_insert` AFTER INSERT ON `members` BEGIN
  INSERT INTO `members_search`(rowid, search_text) VALUES (new.rowid, new.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `members_search_delete` AFTER DELETE ON `members` BEGIN
  INSERT INTO `members_search`(`members_search`, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
END;
--> statement-breakpoint
CREATE TRIGGER `members_search_update` AFTER UPDATE OF search_text ON `members` BEGIN
  INSERT INTO `members_search`(`members_search`, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
  INSERT INTO `members_search`(rowid, search_text) VALUES (new.rowid, new.search_text);
END;
