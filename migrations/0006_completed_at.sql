ALTER TABLE `tasks` ADD `completed_at` text;--> statement-breakpoint
-- Tasks completed before this column existed: their last change is the best record of when.
UPDATE `tasks` SET `completed_at` = `updated_at` WHERE `completed` = 1;
