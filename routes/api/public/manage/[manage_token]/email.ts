// POST /api/public/manage/[manage_token]/email — ask to change my email (a link is mailed to the new address)
import { MEMBER_PAGE_RATE, requestEmailChange } from "../../../../../lib/member-page";
import { EmailChangePending, EmailChangeRequest, ManageParams } from "../../../../../lib/member-page/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Change my email",
  operationId: "requestMemberEmailChange",
  description:
    "Mails a confirmation link to the new address; the email changes only when it is followed (POST .../email/confirm), valid 24 hours. 409 MEMBER_EMAIL_TAKEN when another member of the club has it.",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  params: ManageParams,
  body: EmailChangeRequest,
  status: 202,
  response: EmailChangePending,
  errors: [404, 409],
  handler: ({ ctx, params, body }) => requestEmailChange(ctx, params.manage_token, body),
});
