// GET /.well-known/oauth-protected-resource — RFC 9728 metadata of the MCP endpoint (where its OAuth tokens come from)
import { protectedResourceMetadata } from "../../lib/oauth/metadata";
import { route } from "../../server/route";
import { OAUTH_RATES, oauthJson } from "../../server/oauth";

export const GET = route({
  summary: "OAuth protected resource metadata of /mcp (RFC 9728)",
  tags: ["oauth"],
  auth: "public",
  rateLimit: OAUTH_RATES.metadata,
  hidden: true,
  raw: true,
  handler: ({ ctx }) => oauthJson(200, protectedResourceMetadata(ctx.baseUrl), { "cache-control": "public, max-age=3600" }),
});
