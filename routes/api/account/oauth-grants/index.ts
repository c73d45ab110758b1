// GET /api/account/oauth-grants — what the club's admins allowed OAuth clients (assistants), beside the API keys
import { z } from "zod";
import { listGrants, OAuthGrantItem } from "../../../../lib/oauth/grants";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "List the club's OAuth grants (assistants allowed through OAuth)",
  tags: ["account"],
  auth: "session",
  response: z.array(OAuthGrantItem),
  handler: ({ ctx }) => listGrants(ctx.db, ctx.clubId),
});
