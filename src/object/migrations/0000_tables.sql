CREATE TABLE `account` (
	`id` text PRIMARY KEY NOT NULL,
	`time_zone` text DEFAULT 'UTC' NOT NULL,
	`plan` text DEFAULT 'free' NOT NULL,
	`plan_expires_at` text,
	`upgraded_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`erased_at` text,
	`legacy_rows_pending` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`expires_at` text,
	`revoked_at` text,
	`last_used_at` text
);
--> statement-breakpoint
CREATE TABLE `connections` (
	`id` text PRIMARY KEY NOT NULL,
	`revoked_at` text,
	`last_used_at` text
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`request_hash` text NOT NULL,
	`task_id` text NOT NULL,
	`response` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires_at_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `lists` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lists_name_unique` ON `lists` (`name_key`) WHERE "lists"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX `lists_deleted_at_idx` ON `lists` (`deleted_at`) WHERE "lists"."deleted_at" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`important` integer DEFAULT false NOT NULL,
	`list_id` text,
	`due` text,
	`reminder` text,
	`repeat` text,
	`notes` text,
	`completed_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`deleted_at` text,
	`next_id` text
);
--> statement-breakpoint
CREATE INDEX `tasks_updated_idx` ON `tasks` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `tasks_deleted_at_idx` ON `tasks` (`deleted_at`) WHERE "tasks"."deleted_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_list_idx` ON `tasks` (`list_id`,`completed`,`deleted_at`) WHERE "tasks"."deleted_at" IS NULL AND "tasks"."list_id" IS NOT NULL;