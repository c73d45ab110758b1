// POST /api/clubs/[club_id]/members/[member_id]/actions/extend — Extend a membership
import { extendMembership } from "../../../../../../../lib/members";
import { MemberAdminItem, ExtendRequest } from "../../../../../../../lib/members/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Extend a membership",
  operationId: "extendMembership",
  description:
    "To `extend_until` (later than the current end, else 422), by `extend_months` (added to the end, or to today if expired), or by one period of the member's tier, else of the club. Answers the updated member.",
  tags: ["members"],
  stable: true,
  scope: extendMembership.scope,
  body: ExtendRequest,
  response: MemberAdminItem,
  handler: ({ ctx, params, body }) => extendMembership(ctx, { ...body, member_id: params.member_id }),
});
