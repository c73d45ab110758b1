CREATE TABLE `voided_pass_devices` (
	`serial` text NOT NULL,
	`device_library_id` text NOT NULL,
	`pass_type_id` text NOT NULL,
	`push_token` text NOT NULL,
	PRIMARY KEY(`device_library_id`, `pass_type_id`, `serial`),
	FOREIGN KEY (`serial`) REFERENCES `voided_passes`(`serial`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `voided_pass_devices_serial_idx` ON `voided_pass_devices` (`serial`);--> statement-breakpoint
CREATE INDEX `voided_pass_devices_push_token_idx` ON `voided_pass_devices` (`push_token`);--> statement-breakpoint
CREATE TABLE `voided_passes` (
	`serial` text PRIMARY KEY NOT NULL,
	`club_id` text NOT NULL,
	`auth_token_hash` text NOT NULL,
	`voided_at` text NOT NULL
);
