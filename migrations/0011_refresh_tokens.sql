CREATE TABLE `oauth_refresh_tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`connection_id` text NOT NULL,
	`issued_at` text NOT NULL,
	`replaced_at` text,
	FOREIGN KEY (`connection_id`) REFERENCES `oauth_connections`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_refresh_tokens_connection_idx` ON `oauth_refresh_tokens` (`connection_id`,`replaced_at`);--> statement-breakpoint
ALTER TABLE `oauth_connections` ADD `refresh_lease_until` text;--> statement-breakpoint
ALTER TABLE `oauth_connections` ADD `refresh_generation` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `oauth_connections` ADD `live_generation` integer DEFAULT 0 NOT NULL;