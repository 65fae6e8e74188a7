CREATE TABLE `billing_customers` (
	`account_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`payment_failed_at` text,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `billing_customers_customer_idx` ON `billing_customers` (`customer_id`);--> statement-breakpoint
CREATE TABLE `billing_events` (
	`id` text PRIMARY KEY NOT NULL,
	`received_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `billing_events_received_idx` ON `billing_events` (`received_at`);--> statement-breakpoint
CREATE TABLE `billing_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`status` text NOT NULL,
	`current_period_end` text,
	`cancel_at` text,
	`past_due_since` text,
	`max_until` text,
	`event_created` integer NOT NULL,
	`event_id` text NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `billing_subscriptions_account_idx` ON `billing_subscriptions` (`account_id`);--> statement-breakpoint
ALTER TABLE `memberships` ADD `granted_plan` text DEFAULT 'free' NOT NULL;--> statement-breakpoint
ALTER TABLE `memberships` ADD `granted_expires_at` text;--> statement-breakpoint
ALTER TABLE `memberships` ADD `subscription_expires_at` text;--> statement-breakpoint
-- Memberships granted before this column existed were the operator's.
UPDATE `memberships` SET `granted_plan` = `plan`, `granted_expires_at` = `expires_at`;
