// GET /api/clubs/[club_id]/webhooks/[webhook_id]/deliveries — the endpoint's delivery log
import { listWebhookDeliveries, WebhookDeliveryList, WebhookDeliveryQuery } from "../../../../../../../lib/webhooks";
import { route } from "../../../../../../../server/route";

export const GET = route({
  summary: "List a webhook's deliveries",
  operationId: "listWebhookDeliveries",
  description:
    "Newest first, each with the body sent and every attempt: status answered, duration and the first 1 KB of the answer. A failed delivery is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; `next_attempt_at` says when.",
  tags: ["webhooks"],
  scope: listWebhookDeliveries.scope,
  query: WebhookDeliveryQuery,
  response: WebhookDeliveryList,
  handler: ({ ctx, params, query }) => listWebhookDeliveries(ctx, { ...query, webhook_id: params.webhook_id }),
});
