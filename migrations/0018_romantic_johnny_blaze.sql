CREATE TABLE `unsigned_feeds` (
	`account_id` text PRIMARY KEY NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `accounts` ADD `data_location` text DEFAULT 'global' NOT NULL;