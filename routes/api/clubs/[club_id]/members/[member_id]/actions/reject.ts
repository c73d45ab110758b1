// POST /api/clubs/[club_id]/members/[member_id]/actions/reject — turn an application down
import { rejectMember } from "../../../../../../../lib/join";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Reject an application",
  operationId: "rejectMember",
  description:
    "For a club in `application` mode: turns down a member whose application awaits approval. The applicant is erased (as `DELETE members/<id>`) and mailed the decision. 409 NOT_AWAITING_APPROVAL otherwise.",
  tags: ["members"],
  scope: rejectMember.scope,
  status: 204,
  errors: [409],
  handler: async ({ ctx, params }) => {
    await rejectMember(ctx, { member_id: params.member_id });
  },
});
