ALTER TABLE `sessions` ADD `last_used_at` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `user_agent` text;--> statement-breakpoint
CREATE INDEX `sessions_account_idx` ON `sessions` (`account_id`);