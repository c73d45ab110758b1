// POST /api/clubs/[club_id]/webhooks/[webhook_id]/deliveries/[delivery_id]/retry — send a delivery again now
import { retryWebhookDelivery, WebhookDelivery } from "../../../../../../../../lib/webhooks";
import { route } from "../../../../../../../../server/route";

export const POST = route({
  summary: "Retry a delivery",
  operationId: "retryWebhookDelivery",
  description:
    "Sends the delivery again now, whatever its state, with a new retry schedule; answers it (pending). 409 WEBHOOK_DISABLED: enable the endpoint first.",
  tags: ["webhooks"],
  scope: retryWebhookDelivery.scope,
  status: 202,
  response: WebhookDelivery,
  errors: [409],
  handler: ({ ctx, params }) => retryWebhookDelivery(ctx, { webhook_id: params.webhook_id, delivery_id: params.delivery_id }),
});
