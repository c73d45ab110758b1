// What the MCP server tells an assistant when it connects (the `instructions` of its initialize
// answer): what the server is for and the conventions every tool shares. In English, the
// language assistants are prompted in; answers and refusals come in the club's language.
export const INSTRUCTIONS = `This server manages one membership club (members, membership tiers, events and their check-in, promo codes, membership cards, attendance, stats) for the admin whose API key is used. It never does more than the key's scopes allow.

Call whoami first: it returns the admin, the key's scopes (per area: view or edit) and the club with its club_id.

Conventions:
- Ids are UUIDs; take them from the list tools (member_id from list_members, tier_id from list_tiers, event_id from list_events).
- Amounts are integer cents in the club's currency (50.00 CHF is 5000).
- Dates are YYYY-MM-DD, times ISO 8601, both UTC. A membership_end is the member's last valid day.
- A refused call is a tool error whose text is JSON {detail, code}: detail in the club's language, code stable (SCOPE_MISSING names the scope the key lacks).

Every call is recorded in the club's audit log with the key's prefix. Writes change real data and may mail members: confirm with the user first, and use dry_run where a tool offers it (import_members).

Resources: club://<club_id> (the club's settings), club://<club_id>/tiers, club://<club_id>/members{?search,status,sort,dir,page,limit}. Prompts: monthly_report (a month's figures and report) and not_renewed (members to remind).`;
