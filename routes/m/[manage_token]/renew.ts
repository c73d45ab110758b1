// POST /m/[manage_token]/renew — Renew with nothing to pay (form) (an HTML form of the member's page; answers a redirect back to it)
import { MEMBER_PAGE_RATE } from "../../../lib/member-page";
import { memberPageAction } from "../../../lib/member-page/html";
import { ManageParams } from "../../../lib/member-page/schemas";
import { route } from "../../../server/route";

export const POST = route({
  summary: "Renew with nothing to pay (form)",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  hidden: true,
  raw: true,
  params: ManageParams,
  handler: ({ ctx, params }) => memberPageAction(ctx, params.manage_token, "renew", {}),
});
