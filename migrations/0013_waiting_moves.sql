CREATE TABLE `waiting_moves` (
	`account_id` text PRIMARY KEY NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Every account that exists now waits for the move from D1 (src/account/move-from-d1.ts): each was made by a
-- release whose account object may never have been opened, or whose tasks, lists and idempotency records may
-- still be in D1. An account made after this migration gets its object at sign-up and never waits.
INSERT INTO `waiting_moves` (`account_id`) SELECT `id` FROM `accounts`;
