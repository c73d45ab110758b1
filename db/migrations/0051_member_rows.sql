-- A member's rows found by member where each ask read the whole table: their registrations (by
-- member or address: their data's export and erasure), the flags and devices naming them (an
-- import's undo; a device registering or leaving counts the member's devices).
CREATE INDEX `apple_registrations_member_idx` ON `apple_registrations` (`member_id`);--> statement-breakpoint
CREATE INDEX `event_registrations_of_member_idx` ON `event_registrations` (`member_id`) WHERE member_id is not null;--> statement-breakpoint
CREATE INDEX `event_registrations_lower_email_idx` ON `event_registrations` (lower("email"));--> statement-breakpoint
CREATE INDEX `flagged_payments_member_idx` ON `flagged_payments` (`member_id`) WHERE member_id is not null;