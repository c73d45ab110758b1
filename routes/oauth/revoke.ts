// POST /oauth/revoke — RFC 7009: a client gives up its access (the whole grant ends)
import { OAuthRefused } from "../../lib/errors";
import { revokeByToken } from "../../lib/oauth/grants";
import { field, OAUTH_RATES, oauthRoute } from "../../server/oauth";

export const POST = oauthRoute("Revoke an OAuth token (RFC 7009)", OAUTH_RATES.token, async ({ ctx, body }) => {
  const token = field(body, "token");
  if (!token) throw new OAuthRefused("invalid_request", "token is required");
  await revokeByToken(ctx.db, token, field(body, "client_id"));
  return new Response(null, { status: 200, headers: { "cache-control": "no-store" } });
});
