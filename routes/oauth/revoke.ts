// POST /oauth/revoke — RFC 7009: a client gives up its access (the whole grant ends)
import { revokeRequest } from "../../lib/oauth/grants";
import { OAUTH_RATES, oauthRoute } from "../../server/oauth";

export const POST = oauthRoute("Revoke an OAuth token (RFC 7009)", OAUTH_RATES.token, async ({ ctx, body }) => {
  await revokeRequest(ctx.db, body);
  return new Response(null, { status: 200, headers: { "cache-control": "no-store" } });
});
