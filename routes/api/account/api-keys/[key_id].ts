// DELETE /api/account/api-keys/[key_id] — revoke a key; its next request answers 401
import { ApiKeyItem, revokeApiKey } from "../../../../lib/auth/keys";
import { route } from "../../../../server/route";

export const DELETE = route({
  summary: "Revoke an API key",
  operationId: "revokeApiKey",
  tags: ["account"],
  auth: "session",
  errors: [403, 404, 409],
  response: ApiKeyItem,
  handler: ({ ctx, params }) => revokeApiKey(ctx.db, params.key_id, { clubId: ctx.clubId, actor: ctx.actor }),
});
