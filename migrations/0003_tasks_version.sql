ALTER TABLE `accounts` ADD `tasks_version` text;--> statement-breakpoint
-- Every write to a task gives its account a new random tasks_version, whatever path made it (REST, MCP,
-- completion, the retention purge, a console edit). A random token, not a counter, so a database
-- restored to an earlier point can never present an old version with other content.
UPDATE `accounts` SET `tasks_version` = lower(hex(randomblob(8))) WHERE `id` IN (SELECT `account_id` FROM `tasks`);--> statement-breakpoint
CREATE TRIGGER `tasks_version_on_insert` AFTER INSERT ON `tasks` BEGIN
  UPDATE `accounts` SET `tasks_version` = lower(hex(randomblob(8))) WHERE `id` = NEW.`account_id`;
END;--> statement-breakpoint
CREATE TRIGGER `tasks_version_on_update` AFTER UPDATE ON `tasks` BEGIN
  UPDATE `accounts` SET `tasks_version` = lower(hex(randomblob(8))) WHERE `id` IN (OLD.`account_id`, NEW.`account_id`);
END;--> statement-breakpoint
CREATE TRIGGER `tasks_version_on_delete` AFTER DELETE ON `tasks` BEGIN
  UPDATE `accounts` SET `tasks_version` = lower(hex(randomblob(8))) WHERE `id` = OLD.`account_id`;
END;
