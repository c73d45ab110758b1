ALTER TABLE `payments` ADD `invoice_id` text;--> statement-breakpoint
CREATE INDEX `payments_invoice_idx` ON `payments` (`invoice_id`);