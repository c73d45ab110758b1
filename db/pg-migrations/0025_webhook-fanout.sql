-- A club's webhook events not yet fanned out to their deliveries (lib/webhooks/emit, hooks18): a
-- partial index holds only those rows, for as long as they wait, so the worker's expansion and a
-- read of the delivery log find them without passing every pending job.
CREATE INDEX "jobs_webhook_fanout_pending_idx" ON "jobs" USING btree ("club_id","run_after") WHERE kind = 'webhook_fanout' and status = 'pending';
