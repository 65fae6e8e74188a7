-- Each account's tasks now live in its own Durable Object (src/account/object.ts): no listing is held per
-- isolate any more, so the version that told a held listing from a changed one goes, with its triggers.
DROP TRIGGER IF EXISTS `tasks_version_on_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `tasks_version_on_update`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `tasks_version_on_delete`;--> statement-breakpoint
ALTER TABLE `accounts` DROP COLUMN `tasks_version`;
