// POST /api/webhooks/stripe — Stripe's events: payments, renewals, refunds (signed, no key)
import { z } from "zod";
import { receiveStripeEvent, STRIPE_EVENT_TYPES } from "../../../lib/stripe-events";
import { route } from "../../../server/route";

const StripeReceipt = z
  .object({
    received: z.literal(true),
    event_id: z.string(),
    outcome: z.string().meta({
      description: "What the event did: `paid`, `confirmed`, `renewed`, `renewal ended`, `refund recorded`, `duplicate`, `ignored: ...`, `refused: CODE`.",
    }),
  })
  .meta({ id: "StripeReceipt" });

export const POST = route({
  summary: "Receive a Stripe event",
  operationId: "receiveStripeEvent",
  description: `The address to give Stripe for this installation's webhook endpoint (\`BASE_URL/api/webhooks/stripe\`), with the events ${STRIPE_EVENT_TYPES.map((t) => `\`${t}\``).join(", ")}. No key: the \`Stripe-Signature\` header is the authentication, checked with STRIPE_WEBHOOK_SECRET over the exact body with a 300 s tolerance (400 \`STRIPE_SIGNATURE_INVALID\` otherwise: a forged or replayed event changes nothing). Each event id is applied once, even when two copies arrive at the same moment; a copy answers \`duplicate\`. A paid Checkout Session activates or renews the member (a payment with Stripe's fee, then the card email) or confirms the ticket; \`invoice.paid\` renews a subscription; \`customer.subscription.deleted\` ends the automatic renewal; \`charge.refunded\` records a negative payment. 404 \`STRIPE_NOT_CONFIGURED\` without Stripe's keys (the endpoint does not exist then); 502 when Stripe cannot be read (Stripe sends the event again). Not rate-limited.`,
  tags: ["public"],
  auth: "public",
  text: true,
  requestBody: () => ({
    required: true,
    description: "A Stripe event exactly as Stripe sends it, with its `Stripe-Signature` header: the signature covers these bytes.",
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: { id: { type: "string" }, object: { const: "event" }, type: { type: "string" }, data: { type: "object" } },
          required: ["id", "type", "data"],
        },
        example: {
          id: "evt_1QexampleEvent",
          object: "event",
          type: "checkout.session.completed",
          data: { object: { id: "cs_test_example", object: "checkout.session" } },
        },
      },
    },
  }),
  response: StripeReceipt,
  errors: [400, 404, 502],
  handler: ({ ctx, body, request }) => receiveStripeEvent(ctx, String(body ?? ""), request.headers.get("stripe-signature")),
});
