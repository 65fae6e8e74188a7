CREATE TABLE `unsigned_feeds` (
	`account_id` text PRIMARY KEY NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `accounts` ADD `data_location` text DEFAULT 'global' NOT NULL;--> statement-breakpoint
-- Every account that exists now may hold a feed token made before feed tokens were signed (src/control/feed-tokens.ts);
-- an account made after this migration only ever gets signed ones. Every account now is "global" (the default above).
INSERT INTO `unsigned_feeds` (`account_id`) SELECT `id` FROM `accounts`;
