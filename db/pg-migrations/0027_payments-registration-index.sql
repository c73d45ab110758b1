-- A registration's payments, read at each of its confirmations, cancellations and refunds in the
-- writer's transaction: they were found among every payment of the club. Partial: a membership's
-- payment does not pay for it.
CREATE INDEX "payments_registration_idx" ON "payments" USING btree ("registration_id") WHERE registration_id is not null;
