// POST /m/[manage_token]/renew — Renew my membership by card (form) (an HTML form of the member's page; answers a redirect to Stripe's payment page)
import { z } from "zod";
import { MEMBER_PAGE_RATE } from "../../../lib/member-page";
import { memberPageAction } from "../../../lib/member-page/html";
import { ManageParams } from "../../../lib/member-page/schemas";
import { route } from "../../../server/route";

export const POST = route({
  summary: "Renew my membership by card (form)",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  hidden: true,
  raw: true,
  params: ManageParams,
  body: z.object({}),
  handler: ({ ctx, params }) => memberPageAction(ctx, params.manage_token, "renew_card", {}),
});
