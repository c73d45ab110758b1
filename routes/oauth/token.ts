// POST /oauth/token — the token endpoint: an authorization code (with PKCE) or a refresh token for an access token to /mcp
import { tokenRequest } from "../../lib/oauth/grants";
import { OAUTH_RATES, oauthJson, oauthRoute } from "../../server/oauth";

export const POST = oauthRoute("Exchange an authorization code or a refresh token (OAuth 2.1)", OAUTH_RATES.token, async ({ ctx, body }) =>
  oauthJson(200, await tokenRequest(ctx.db, body)),
);
