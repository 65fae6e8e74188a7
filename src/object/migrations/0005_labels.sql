CREATE TABLE `labels` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`search_key` text NOT NULL,
	`color` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_name_unique` ON `labels` (`name_key`);--> statement-breakpoint
CREATE TABLE `task_labels` (
	`task_id` text NOT NULL,
	`label_id` text NOT NULL,
	PRIMARY KEY(`label_id`, `task_id`)
);
--> statement-breakpoint
CREATE INDEX `task_labels_task_idx` ON `task_labels` (`task_id`);--> statement-breakpoint
ALTER TABLE `tasks` ADD `labels` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- task_labels indexes the tasks' `labels` column (a JSON array of label names as stored), as tasks_fts indexes
-- their text: every write path keeps it, whatever wrote the row. Names are matched exactly: the verbs write
-- each label's stored spelling (src/object/labels/service.ts, withResolvedLabels).
CREATE TRIGGER `task_labels_on_insert` AFTER INSERT ON `tasks` WHEN NEW.`labels` <> '[]' BEGIN
  INSERT OR IGNORE INTO `task_labels` (`task_id`, `label_id`)
  SELECT NEW.`id`, l.`id` FROM json_each(NEW.`labels`) j JOIN `labels` l ON l.`name` = j.`value`;
END;--> statement-breakpoint
CREATE TRIGGER `task_labels_on_update` AFTER UPDATE OF `labels` ON `tasks` WHEN OLD.`labels` IS NOT NEW.`labels` BEGIN
  DELETE FROM `task_labels` WHERE `task_id` = NEW.`id`;
  INSERT OR IGNORE INTO `task_labels` (`task_id`, `label_id`)
  SELECT NEW.`id`, l.`id` FROM json_each(NEW.`labels`) j JOIN `labels` l ON l.`name` = j.`value`;
END;--> statement-breakpoint
CREATE TRIGGER `task_labels_on_delete` AFTER DELETE ON `tasks` BEGIN
  DELETE FROM `task_labels` WHERE `task_id` = OLD.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `task_labels_on_label_delete` AFTER DELETE ON `labels` BEGIN
  DELETE FROM `task_labels` WHERE `label_id` = OLD.`id`;
END;
