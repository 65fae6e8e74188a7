DROP TABLE `jobs`;--> statement-breakpoint
ALTER TABLE `account` DROP COLUMN `upgraded_at`;--> statement-breakpoint
ALTER TABLE `account` DROP COLUMN `legacy_rows_pending`;