// GET /.well-known/oauth-authorization-server — RFC 8414 metadata of the authorization server (issuer BASE_URL)
import { authorizationServerMetadata } from "../../lib/oauth/metadata";
import { route } from "../../server/route";
import { OAUTH_RATES, oauthJson } from "../../server/oauth";

export const GET = route({
  summary: "OAuth authorization server metadata (RFC 8414)",
  tags: ["oauth"],
  auth: "public",
  rateLimit: OAUTH_RATES.metadata,
  hidden: true,
  raw: true,
  handler: ({ ctx }) => oauthJson(200, authorizationServerMetadata(ctx.baseUrl), { "cache-control": "public, max-age=3600" }),
});
