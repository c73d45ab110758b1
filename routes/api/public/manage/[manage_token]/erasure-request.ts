// POST /api/public/manage/[manage_token]/erasure-request — ask the club to erase me (GDPR art. 17)
import { MEMBER_PAGE_RATE, requestErasure } from "../../../../../lib/member-page";
import { ErasureRequested, ManageParams } from "../../../../../lib/member-page/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Ask to be erased",
  operationId: "requestMemberErasure",
  description:
    "Records the request (`erasure_requested_at`, shown to the club's admins, who erase with DELETE members/<id>). Asking again keeps the first date.",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  params: ManageParams,
  response: ErasureRequested,
  errors: [404],
  handler: ({ ctx, params }) => requestErasure(ctx, params.manage_token),
});
