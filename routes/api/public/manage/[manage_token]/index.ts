// GET, PATCH /api/public/manage/[manage_token] — the member's own page, as JSON (the HTML one is /m/<token>)
import { getMemberPage, MEMBER_PAGE_RATE, updateMemberName } from "../../../../../lib/member-page";
import { MemberNameUpdate, MemberPage, ManageParams } from "../../../../../lib/member-page/schemas";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "The member's own page",
  operationId: "getMemberPage",
  description:
    "Status and end of the membership, the card's addresses, what renewal takes. The token is the member's secret (from their card email or reminders); a wrong one answers 404. Rate-limited per client address.",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  params: ManageParams,
  response: MemberPage,
  errors: [404],
  handler: ({ ctx, params }) => getMemberPage(ctx, params.manage_token),
});

export const PATCH = route({
  summary: "Correct my name",
  operationId: "updateMemberPageName",
  description: "The member corrects their first or last name; written to their history with `actor: member`.",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  params: ManageParams,
  body: MemberNameUpdate,
  response: MemberPage,
  errors: [404],
  handler: ({ ctx, params, body }) => updateMemberName(ctx, params.manage_token, body),
});
