// POST /api/clubs/[club_id]/members/[member_id]/actions/suspend — Suspend a member
import { suspendMember } from "../../../../../../../lib/members";
import { MemberAdminItem, SuspendRequest } from "../../../../../../../lib/members/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Suspend a member",
  description: "Paid or pending -> suspended: the card stops verifying. 409 if already suspended.",
  tags: ["members"],
  stable: true,
  scope: suspendMember.scope,
  body: SuspendRequest,
  response: MemberAdminItem,
  errors: [409],
  handler: ({ ctx, params, body }) => suspendMember(ctx, { ...body, member_id: params.member_id }),
});
