// PATCH, DELETE /api/clubs/[club_id]/webhooks/[webhook_id] — change or delete a webhook endpoint
import { deleteWebhook, updateWebhook, Webhook, WebhookUpdate } from "../../../../../../lib/webhooks";
import { route } from "../../../../../../server/route";

export const PATCH = route({
  summary: "Change a webhook endpoint",
  operationId: "updateWebhook",
  description:
    "Only the fields sent change. `enabled: true` enables a disabled endpoint again and forgets its failures; `false` pauses it. 422 WEBHOOK_URL_NOT_ALLOWED as at creation.",
  tags: ["webhooks"],
  scope: updateWebhook.scope,
  body: WebhookUpdate,
  response: Webhook,
  handler: ({ ctx, params, body }) => updateWebhook(ctx, { ...body, webhook_id: params.webhook_id }),
});

export const DELETE = route({
  summary: "Delete a webhook endpoint",
  operationId: "deleteWebhook",
  description: "204. The endpoint and its delivery log go; its pending deliveries are not sent.",
  tags: ["webhooks"],
  scope: deleteWebhook.scope,
  status: 204,
  handler: async ({ ctx, params }) => {
    await deleteWebhook(ctx, { webhook_id: params.webhook_id });
  },
});
