// POST /oauth/register — RFC 7591 dynamic client registration of a public MCP client
import { registerClient } from "../../lib/oauth/clients";
import { route } from "../../server/route";
import { OAUTH_RATES, oauthAnswer, oauthJson } from "../../server/oauth";

export const POST = route({
  summary: "Register an OAuth client (RFC 7591)",
  tags: ["oauth"],
  auth: "public",
  rateLimit: OAUTH_RATES.register,
  hidden: true,
  raw: true,
  handler: ({ ctx, body }) => oauthAnswer(async () => oauthJson(201, await registerClient(ctx.db, body))),
});
