// GET /api/public/manage/[manage_token]/data-export — everything the club holds about me (GDPR art. 15)
import { exportMyData, MEMBER_PAGE_RATE } from "../../../../../lib/member-page";
import { MemberDataExport } from "../../../../../lib/members/schemas";
import { ManageParams } from "../../../../../lib/member-page/schemas";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "Download my data",
  operationId: "exportMemberPageData",
  description: "The same document as the admin's data export: the member, its history, payments, registrations and card scans.",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  params: ManageParams,
  response: MemberDataExport,
  errors: [404],
  handler: ({ ctx, params }) => exportMyData(ctx, params.manage_token),
});
