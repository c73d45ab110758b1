// POST /api/public/manage/[manage_token]/mailings — turn the club's mailings off or on
import { MEMBER_PAGE_RATE, setMailings } from "../../../../../lib/member-page";
import { MailingsRequest, MemberPage, ManageParams } from "../../../../../lib/member-page/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Turn the club's mailings off or on",
  operationId: "setMemberMailings",
  description: "Off: the member gets no more mailings (DESIGN.md section 22); the card, receipts, invoices, reminders and event mails still come. Idempotent.",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  params: ManageParams,
  body: MailingsRequest,
  response: MemberPage,
  errors: [404],
  handler: ({ ctx, params, body }) => setMailings(ctx, params.manage_token, body),
});
