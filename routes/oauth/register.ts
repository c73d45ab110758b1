// POST /oauth/register — RFC 7591 dynamic client registration of a public MCP client
import { registerClient } from "../../lib/oauth/clients";
import { route } from "../../server/route";
import { oauthAnswer, oauthJson } from "../../server/oauth";

/** Registrations a minute per client address: a client registers once, then keeps its client_id. */
const REGISTER_PER_MINUTE = 10;

export const POST = route({
  summary: "Register an OAuth client (RFC 7591)",
  tags: ["oauth"],
  auth: "public",
  hidden: true,
  raw: true,
  handler: ({ ctx, body }) =>
    oauthAnswer({ owner: ctx.db, scope: "oauth-register", perMinute: REGISTER_PER_MINUTE, ip: ctx.ip }, async () =>
      oauthJson(201, await registerClient(ctx.db, body)),
    ),
});
