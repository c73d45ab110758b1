// POST /api/clubs/[club_id]/members/manual — add a member by hand
import { addMember } from "../../../../../lib/members";
import { ManualMemberCreate, MemberWithWallet } from "../../../../../lib/members/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Add a member by hand",
  operationId: "addMember",
  description:
    "The member is `paid` and `is_manual`, starts today and ends on `membership_end`. No payment is recorded. 422 if `membership_end` is before today; 409 if the email is already a member's.",
  tags: ["members"],
  stable: true,
  scope: addMember.scope,
  body: ManualMemberCreate,
  status: 201,
  response: MemberWithWallet,
  errors: [404, 409],
  handler: ({ ctx, body }) => addMember(ctx, body),
});
