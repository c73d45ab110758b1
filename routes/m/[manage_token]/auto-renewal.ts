// POST /m/[manage_token]/auto-renewal — Turn my automatic renewal off or on (form) (an HTML form of the member's page; answers a redirect back to it)
import { z } from "zod";
import { MEMBER_PAGE_RATE } from "../../../lib/member-page";
import { memberPageAction } from "../../../lib/member-page/html";
import { ManageParams } from "../../../lib/member-page/schemas";
import { route } from "../../../server/route";

export const POST = route({
  summary: "Turn my automatic renewal off or on (form)",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  hidden: true,
  raw: true,
  params: ManageParams,
  body: z.object({ enabled: z.enum(["true", "false"]) }),
  handler: ({ ctx, params, body }) => memberPageAction(ctx, params.manage_token, "auto_renewal", body),
});
