-- Lookups by member that read every row: a member's mailings (their data's export, erasure and an
-- import's undo) and the members a member referred (the undo).
CREATE INDEX "mailing_recipients_member_idx" ON "mailing_recipients" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "members_referred_by_idx" ON "members" USING btree ("referred_by_member_id") WHERE referred_by_member_id is not null;
