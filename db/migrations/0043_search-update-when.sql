-- The member search's index (migration 0032) re-indexes a member only when their search text
-- changed (issue 31): an UPDATE naming search_text with the same value (an import's update of
-- end dates, a member's row written whole) deleted and inserted every trigram all the same.
DROP TRIGGER IF EXISTS `members_search_update`;
--> statement-breakpoint
CREATE TRIGGER `members_search_update` AFTER UPDATE OF search_text ON `members` WHEN old.search_text IS NOT new.search_text BEGIN
  INSERT INTO `members_search`(`members_search`, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
  INSERT INTO `members_search`(rowid, search_text) VALUES (new.rowid, new.search_text);
END;
