// POST /api/clubs/[club_id]/members/[member_id]/actions/approve — accept an application to join
import { approveMember } from "../../../../../../../lib/join";
import { MemberAdminItem } from "../../../../../../../lib/members/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Approve an application",
  operationId: "approveMember",
  description:
    "For a club in `application` mode: accepts a member whose application awaits approval. With nothing to pay the membership starts today (active); otherwise the applicant is mailed the payment step (bank transfer details). 409 NOT_AWAITING_APPROVAL otherwise.",
  tags: ["members"],
  scope: approveMember.scope,
  response: MemberAdminItem,
  errors: [409],
  handler: ({ ctx, params }) => approveMember(ctx, { member_id: params.member_id }),
});
