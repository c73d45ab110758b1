// POST /api/public/manage/[manage_token]/email/confirm — confirm the new email with the mailed code
import { confirmEmailChange, MEMBER_PAGE_RATE } from "../../../../../../lib/member-page";
import { EmailChangeConfirm, EmailChanged, ManageParams } from "../../../../../../lib/member-page/schemas";
import { route } from "../../../../../../server/route";

export const POST = route({
  summary: "Confirm my new email",
  operationId: "confirmMemberEmailChange",
  description:
    "The code from the link mailed to the new address. The email changes and so does the page's address (`manage_url`): the old link stops working. 409 when the code is wrong, expired or already used.",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  params: ManageParams,
  body: EmailChangeConfirm,
  response: EmailChanged,
  errors: [404, 409],
  handler: ({ ctx, params, body }) => confirmEmailChange(ctx, params.manage_token, body),
});
