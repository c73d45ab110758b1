// GET, POST /api/clubs/[club_id]/webhooks — the club's webhook endpoints
import { createWebhook, listWebhooks, WebhookCreate, WebhookCreated, WebhookList } from "../../../../../lib/webhooks";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "List webhook endpoints",
  operationId: "listWebhooks",
  description: "The club's webhook endpoints, oldest first (their secrets are not shown).",
  tags: ["webhooks"],
  scope: listWebhooks.scope,
  response: WebhookList,
  handler: ({ ctx }) => listWebhooks(ctx, {}),
});

export const POST = route({
  summary: "Create a webhook endpoint",
  operationId: "createWebhook",
  description:
    "Standard Webhooks: each event is POSTed as `{type, timestamp, data}` with the headers `webhook-id`, `webhook-timestamp` and `webhook-signature`, signed with the `secret` answered here **once**. 422 WEBHOOK_URL_NOT_ALLOWED for a URL that is not http(s) or resolves to a loopback, private, link-local or metadata address.",
  tags: ["webhooks"],
  scope: createWebhook.scope,
  body: WebhookCreate,
  status: 201,
  response: WebhookCreated,
  handler: ({ ctx, body }) => createWebhook(ctx, body),
});
