// POST /api/clubs/[club_id]/members/[member_id]/actions/reactivate — Reactivate a member
import { reactivateMember } from "../../../../../../../lib/members";
import { MemberAdminItem, ReactivateRequest } from "../../../../../../../lib/members/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Reactivate a member",
  description: "Suspended -> the status it had before. 409 if not suspended.",
  tags: ["members"],
  stable: true,
  scope: reactivateMember.scope,
  body: ReactivateRequest,
  response: MemberAdminItem,
  errors: [409],
  handler: ({ ctx, params, body }) => reactivateMember(ctx, { ...body, member_id: params.member_id }),
});
