-- The daily purge of the webhook deliveries finished a month ago: through an index, where it read
-- the whole log.
CREATE INDEX `webhook_deliveries_finished_idx` ON `webhook_deliveries` (`finished_at`) WHERE finished_at is not null;