CREATE TABLE `mail_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`body` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`due_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `mail_settings` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`reminders` integer DEFAULT false NOT NULL,
	`digest_time` text,
	`digest_next_at` integer,
	`unsubscribe_url` text NOT NULL
);
