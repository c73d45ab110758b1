// GET /m/[manage_token]/email/confirm — the link mailed to a new address: confirms it, then the page at its new address
import { z } from "zod";
import { MEMBER_PAGE_RATE } from "../../../../lib/member-page";
import { memberPageAction } from "../../../../lib/member-page/html";
import { ManageParams } from "../../../../lib/member-page/schemas";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "Confirm my new email (mailed link)",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  hidden: true,
  raw: true,
  params: ManageParams,
  query: z.object({ code: z.string().max(200).default("") }),
  handler: ({ ctx, params, query }) => memberPageAction(ctx, params.manage_token, "email_confirm", query),
});
