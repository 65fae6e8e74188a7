ALTER TABLE `tasks` ADD `priority` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `parent_id` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `position` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_parent_idx` ON `tasks` (`parent_id`,`position`) WHERE "tasks"."deleted_at" IS NULL AND "tasks"."parent_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_position_idx` ON `tasks` (`list_id`,`parent_id`,`position`) WHERE "tasks"."deleted_at" IS NULL;--> statement-breakpoint
-- Tasks written by the previous release: important ones become urgent (priority 4: important ⇔ priority >= 3),
-- the others none (1); no parent. Each list's live tasks get positions in the order listings gave them then,
-- (updated_at, id): fractional-indexing keys 'd' + 4 base-62 digits ("d0000", "d0001", …, 14,776,336 a list),
-- valid keys that object/tasks/position.ts places new tasks after and between.
UPDATE `tasks` SET `priority` = 4 WHERE `important` = 1;--> statement-breakpoint
UPDATE `tasks` SET `position` = 'd' || substr(r.`digits`, r.`n` / 238328 % 62 + 1, 1) || substr(r.`digits`, r.`n` / 3844 % 62 + 1, 1) || substr(r.`digits`, r.`n` / 62 % 62 + 1, 1) || substr(r.`digits`, r.`n` % 62 + 1, 1)
FROM (SELECT `id` AS `ranked_id`, row_number() OVER (PARTITION BY `list_id` ORDER BY `updated_at`, `id`) - 1 AS `n`,
        '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz' AS `digits`
      FROM `tasks` WHERE `deleted_at` IS NULL) AS r
WHERE `tasks`.`id` = r.`ranked_id`;
