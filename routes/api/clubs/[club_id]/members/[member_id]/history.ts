// GET /api/clubs/[club_id]/members/[member_id]/history — every transition, correction and payment of a member
import { getMemberHistory } from "../../../../../../lib/members/history";
import { MemberHistory } from "../../../../../../lib/members/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "A member's history",
  operationId: "getMemberHistory",
  description:
    "Every transition, correction and payment of the member, newest first, each with who did it (`actor`: the admin's email and key prefix, `member`, or `system`) and why (`reason`).",
  tags: ["members"],
  scope: getMemberHistory.scope,
  response: MemberHistory,
  handler: ({ ctx, params }) => getMemberHistory(ctx, { member_id: params.member_id }),
});
