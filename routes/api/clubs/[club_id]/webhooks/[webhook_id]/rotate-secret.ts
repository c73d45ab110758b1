// POST /api/clubs/[club_id]/webhooks/[webhook_id]/rotate-secret — a new signing secret, the old one still signing for 24 h
import { rotateWebhookSecret, WebhookSecret } from "../../../../../../lib/webhooks";
import { route } from "../../../../../../server/route";

export const POST = route({
  summary: "Rotate a webhook's secret",
  operationId: "rotateWebhookSecret",
  description:
    "Answers the new secret once. For 24 h every message carries two signatures (space-separated in `webhook-signature`, as Standard Webhooks allows): one by the new secret, one by the old, so the receiver can switch at its own pace.",
  tags: ["webhooks"],
  scope: rotateWebhookSecret.scope,
  response: WebhookSecret,
  handler: ({ ctx, params }) => rotateWebhookSecret(ctx, { webhook_id: params.webhook_id }),
});
