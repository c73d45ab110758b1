// GET /m/[manage_token] — the member's own page (HTML, no credentials: the token is the secret)
import { z } from "zod";
import { MEMBER_PAGE_RATE } from "../../lib/member-page";
import { renderMemberPage } from "../../lib/member-page/html";
import { ManageParams } from "../../lib/member-page/schemas";
import { route } from "../../server/route";

export const GET = route({
  summary: "The member's own page",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  hidden: true,
  raw: true,
  params: ManageParams,
  query: z.object({ done: z.string().max(50).optional(), renew: z.string().max(50).optional(), checkout: z.string().max(50).optional() }),
  handler: ({ ctx, params, query }) => renderMemberPage(ctx, params.manage_token, query),
});
