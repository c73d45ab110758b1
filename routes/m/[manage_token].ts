// GET /m/[manage_token] — the member's own page (HTML, no credentials: the token is the secret)
import { z } from "zod";
import { renderMemberPage } from "../../lib/member-page/html";
import { MEMBER_PAGE_ROUTE } from "../../server/member-page-routes";
import { route } from "../../server/route";

export const GET = route({
  summary: "The member's own page",
  ...MEMBER_PAGE_ROUTE,
  // A page never answers a 422 for its address: an odd notice or choice is no notice, no choice.
  query: z.object({
    done: z.string().max(50).optional().catch(undefined),
    renew: z.string().max(50).optional().catch(undefined),
    checkout: z.string().max(50).optional().catch(undefined),
  }),
  handler: ({ ctx, params, query }) => renderMemberPage(ctx, params.manage_token, query),
});
