// POST /api/clubs/[club_id]/webhooks/[webhook_id]/test — send a webhook.test event
import { testWebhook, WebhookDelivery } from "../../../../../../lib/webhooks";
import { route } from "../../../../../../server/route";

export const POST = route({
  summary: "Send a test event",
  operationId: "testWebhook",
  description:
    "Queues a `webhook.test` event to the endpoint (whatever types it asked for) and answers the delivery; its outcome shows in the delivery log. 409 WEBHOOK_DISABLED.",
  tags: ["webhooks"],
  scope: testWebhook.scope,
  status: 202,
  response: WebhookDelivery,
  errors: [409],
  handler: ({ ctx, params }) => testWebhook(ctx, { webhook_id: params.webhook_id }),
});
