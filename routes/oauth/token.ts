// POST /oauth/token — the token endpoint: an authorization code (with PKCE) or a refresh token for an access token to /mcp
import { OAuthRefused } from "../../lib/errors";
import { exchangeCode, refreshTokens } from "../../lib/oauth/grants";
import { field, OAUTH_RATES, oauthJson, oauthRoute } from "../../server/oauth";

export const POST = oauthRoute("Exchange an authorization code or a refresh token (OAuth 2.1)", OAUTH_RATES.token, async ({ ctx, body }) => {
  const grantType = field(body, "grant_type");
  const clientId = field(body, "client_id");
  if (!clientId) throw new OAuthRefused("invalid_request", "client_id is required (public clients name themselves)");
  const resource = field(body, "resource");
  if (grantType === "authorization_code") {
    const code = field(body, "code");
    if (!code) throw new OAuthRefused("invalid_request", "code is required");
    const tokens = await exchangeCode(ctx.db, {
      code,
      clientId,
      codeVerifier: field(body, "code_verifier"),
      redirectUri: field(body, "redirect_uri"),
      resource,
    });
    return oauthJson(200, tokens);
  }
  if (grantType === "refresh_token") {
    const refreshToken = field(body, "refresh_token");
    if (!refreshToken) throw new OAuthRefused("invalid_request", "refresh_token is required");
    return oauthJson(200, await refreshTokens(ctx.db, { refreshToken, clientId, resource, scope: field(body, "scope") }));
  }
  throw new OAuthRefused("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
});
