-- The members version's triggers name member_versions (db/sqlite.ts): dropped while the table is
-- rebuilt (a rename checks every trigger's tables), created again at open with the new key.
DROP TRIGGER IF EXISTS `members_version_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `members_version_delete`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `members_version_update`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `members_version_tier_name`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `members_version_grace`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_member_versions` (
	`club_id` text NOT NULL,
	`stripe` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`club_id`, `stripe`)
);
--> statement-breakpoint
INSERT INTO `__new_member_versions`("club_id", "stripe", "version") SELECT "club_id", 0, "version" FROM `member_versions`;--> statement-breakpoint
DROP TABLE `member_versions`;--> statement-breakpoint
ALTER TABLE `__new_member_versions` RENAME TO `member_versions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;
