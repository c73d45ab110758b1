// MCP tools of the webhooks area (read only): the same lib/ verbs and schemas as the HTTP routes.
import { z } from "zod";
import { listWebhookDeliveries, listWebhooks, WebhookDeliveryList, WebhookList, DELIVERY_STATUSES } from "../../webhooks";
import { READ_ONLY, tool } from "../tool";

export const list_webhooks = tool({
  name: "list_webhooks",
  title: "List webhook endpoints",
  description:
    "Lists the club's webhook endpoints (id, url, events they receive, enabled, why one was disabled, failing_since, paused_until: set while its deliveries wait after timeouts). Secrets are never shown. Use an endpoint's id as webhook_id in webhook_deliveries.",
  input: z.object({}),
  annotations: READ_ONLY,
  output: WebhookList,
  scope: listWebhooks.scope,
  run: (ctx) => listWebhooks(ctx, {}),
});

export const webhook_deliveries = tool({
  name: "webhook_deliveries",
  title: "Read a webhook's delivery log",
  description:
    "The deliveries of one webhook endpoint, newest first: event type, status (pending, succeeded, failed), the body sent, and every attempt with the HTTP status answered, its duration and the first 1 KB of the answer. Use it to find out why a receiver missed an event.",
  input: z.object({
    webhook_id: z.uuid().describe("The endpoint's id (from list_webhooks)."),
    status: z.enum(DELIVERY_STATUSES).optional().describe("Only deliveries in this state."),
    limit: z.int().min(1).max(200).default(50).describe("At most this many deliveries."),
  }),
  annotations: READ_ONLY,
  output: WebhookDeliveryList,
  scope: listWebhookDeliveries.scope,
  run: (ctx, input) => listWebhookDeliveries(ctx, input),
});
