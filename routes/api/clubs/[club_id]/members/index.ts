// GET /api/clubs/[club_id]/members — the club's members, filtered, searched, sorted and paged
import { listMembers } from "../../../../../lib/members";
import { MemberListQuery, MemberListResponse } from "../../../../../lib/members/schemas";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "List members",
  description:
    "Filter by derived `status` (active, expired, pending, suspended, all), `search` name, email or referral code (accents and case ignored), sort by `registered`, `name`, `email`, `membership_end` or `status`. `page_size` is the same as `limit`. `application_status=pending_approval`: only the applicants awaiting approval (a club in `application` mode).",
  tags: ["members"],
  stable: true,
  scope: listMembers.scope,
  query: MemberListQuery,
  response: MemberListResponse,
  handler: ({ ctx, query }) => listMembers(ctx, query),
});
