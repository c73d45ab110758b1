// POST /api/clubs/[club_id]/members/[member_id]/actions/mark-paid — Record a payment
import { markMemberPaid } from "../../../../../../../lib/members";
import { MemberAdminItem, MarkPaidRequest } from "../../../../../../../lib/members/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Record a payment",
  operationId: "markMemberPaid",
  description:
    "Records a manual payment (no provider fee). Pending or expired: paid with a new period from today. Active: the period is renewed from its end. 409 if suspended.",
  tags: ["members"],
  stable: true,
  scope: markMemberPaid.scope,
  body: MarkPaidRequest,
  response: MemberAdminItem,
  errors: [409],
  handler: ({ ctx, params, body }) => markMemberPaid(ctx, { ...body, member_id: params.member_id }),
});
