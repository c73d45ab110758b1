// POST /api/clubs/[club_id]/members/[member_id]/actions/cancel-subscription — Cancel the automatic renewal
import { cancelSubscription } from "../../../../../../../lib/members";
import { MemberAdminItem, SuspendRequest } from "../../../../../../../lib/members/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Cancel the automatic renewal",
  operationId: "cancelSubscription",
  description:
    "Only for a member with an automatically renewing subscription (else 409). The member stays active until the end of the paid period. A Stripe subscription is then cancelled at Stripe at the end of its period; when Stripe refuses (502) or its keys are missing (503), the renewal is turned back on.",
  tags: ["members"],
  stable: true,
  scope: cancelSubscription.scope,
  body: SuspendRequest,
  response: MemberAdminItem,
  errors: [409],
  handler: ({ ctx, params, body }) => cancelSubscription(ctx, { ...body, member_id: params.member_id }),
});
