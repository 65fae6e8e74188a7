DROP INDEX `tasks_deleted_at_idx`;--> statement-breakpoint
CREATE INDEX `tasks_deleted_at_idx` ON `tasks` (`deleted_at`) WHERE "tasks"."deleted_at" IS NOT NULL;