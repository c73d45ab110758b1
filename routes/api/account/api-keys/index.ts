// GET, POST /api/account/api-keys — the club's API keys, for a dashboard session (keys get 403)
import { z } from "zod";
import { ApiKeyCreate, ApiKeyCreated, ApiKeyItem, createApiKey, listClubApiKeys } from "../../../../lib/auth/keys";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "List the club's API keys",
  tags: ["account"],
  auth: "session",
  scope: listClubApiKeys.scope,
  response: z.array(ApiKeyItem),
  handler: ({ ctx }) => listClubApiKeys(ctx, {}),
});

export const POST = route({
  summary: "Create an API key (shown once)",
  tags: ["account"],
  auth: "session",
  body: ApiKeyCreate,
  status: 201,
  response: ApiKeyCreated,
  handler: ({ ctx, body, set }) => {
    // The key is shown once: no cache keeps it, nor the Idempotency-Key store (server/idempotency.ts).
    set.headers["cache-control"] = "no-store";
    // A session route: the caller is an admin, never the system.
    return createApiKey(ctx.db, { adminId: ctx.actor.adminId as string, scopes: body.scopes, name: body.name, expiresAt: body.expires_at });
  },
});
