// POST /api/public/manage/[manage_token]/auto-renewal — turn my automatic renewal off or on
import { MEMBER_PAGE_RATE, setAutoRenewal } from "../../../../../lib/member-page";
import { AutoRenewalRequest, MemberPage, ManageParams } from "../../../../../lib/member-page/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Turn my automatic renewal off or on",
  operationId: "setMemberAutoRenewal",
  description: "Only for a membership on a subscription (409 NO_SUBSCRIPTION otherwise). Off: the member stays active until the end, then renews by hand.",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  params: ManageParams,
  body: AutoRenewalRequest,
  response: MemberPage,
  errors: [404, 409],
  handler: ({ ctx, params, body }) => setAutoRenewal(ctx, params.manage_token, body),
});
