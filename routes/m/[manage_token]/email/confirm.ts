// GET /m/[manage_token]/email/confirm — the link mailed to a new address: confirms it, then the page at its new address
import { z } from "zod";
import { memberPageAction } from "../../../../lib/member-page/html";
import { MEMBER_PAGE_ROUTE } from "../../../../server/member-page-routes";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "Confirm my new email (mailed link)",
  ...MEMBER_PAGE_ROUTE,
  query: z.object({ code: z.string().max(200).default("") }),
  handler: ({ ctx, params, query }) => memberPageAction(ctx, params.manage_token, "email_confirm", query),
});
