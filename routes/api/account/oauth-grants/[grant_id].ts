// DELETE /api/account/oauth-grants/[grant_id] — revoke an OAuth grant; its access and refresh tokens answer 401 at once
import { OAuthGrantItem, revokeGrant } from "../../../../lib/oauth/grants";
import { route } from "../../../../server/route";

export const DELETE = route({
  summary: "Revoke an OAuth grant",
  tags: ["account"],
  auth: "session",
  errors: [403, 404, 409],
  response: OAuthGrantItem,
  handler: ({ ctx, params }) => revokeGrant(ctx.db, params.grant_id, { clubId: ctx.clubId, actor: ctx.actor }),
});
