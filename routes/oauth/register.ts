// POST /oauth/register — RFC 7591 dynamic client registration of a public MCP client
import { registerClient } from "../../lib/oauth/clients";
import { OAUTH_RATES, oauthJson, oauthRoute } from "../../server/oauth";

export const POST = oauthRoute("Register an OAuth client (RFC 7591)", OAUTH_RATES.register, async ({ ctx, body }) =>
  oauthJson(201, await registerClient(ctx.db, body, ctx.ip)),
);
