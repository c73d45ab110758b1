-- The page tokens an older version kept in clear, asked at every start: an index that stays empty
-- once they are hashed, where the start read every member.
CREATE INDEX "members_clear_page_token_idx" ON "members" USING btree ("id") WHERE length(manage_token) <> 64;