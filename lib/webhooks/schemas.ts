// The shapes of the webhook routes (DESIGN.md section 15), each the one schema that validates,
// documents (OpenAPI) and is the MCP tools' output.
import { z } from "zod";
import { dateTimeOutput } from "../schema-types";

/** Every event type an endpoint may ask for (`*`: all of them, and those added later). */
export const EVENT_TYPES = [
  "member.created",
  "member.updated",
  "member.deleted",
  "member.status_changed",
  "payment.recorded",
  "registration.created",
  "registration.confirmed",
  "registration.cancelled",
  "invoice.created",
  "invoice.paid",
  "invoice.cancelled",
  "invoice.overdue",
  "checkin.created",
  "event.created",
  "event.updated",
  "event.cancelled",
  "mailing.sent",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** What `POST webhooks/<id>/test` sends, whatever the endpoint asked for. */
export const TEST_EVENT = "webhook.test";

const EVENTS_NOTE = `Event types to receive, or \`["*"]\` for all: ${EVENT_TYPES.map((t) => `\`${t}\``).join(", ")}.`;

const url = z
  .string()
  .trim()
  .max(2000)
  .refine((s) => URL.canParse(s), { error: "WEBHOOK_URL_INVALID" })
  .meta({
    format: "uri",
    description: "http(s) address that receives the POSTs; private, loopback and link-local addresses are refused (422 WEBHOOK_URL_NOT_ALLOWED).",
  });
const events = z
  .array(z.enum([...EVENT_TYPES, "*"]))
  .min(1)
  .max(EVENT_TYPES.length + 1)
  .meta({ description: EVENTS_NOTE });

export const WebhookCreate = z
  .object({
    url,
    events,
    description: z.string().trim().max(500).nullish(),
  })
  .meta({
    id: "WebhookCreate",
    examples: [{ url: "https://hooks.example.org/club", events: ["member.created", "payment.recorded"], description: "Newsletter tool" }],
  });
export type WebhookCreate = z.infer<typeof WebhookCreate>;

export const WebhookUpdate = z
  .object({
    url: url.optional(),
    events: events.optional(),
    description: z.string().trim().max(500).nullish(),
    enabled: z.boolean().optional().meta({ description: "false pauses the endpoint; true enables it again (and forgets its failures)." }),
  })
  .meta({ id: "WebhookUpdate", description: "Partial: only the fields sent change.", examples: [{ enabled: true }] });
export type WebhookUpdate = z.infer<typeof WebhookUpdate>;

export const Webhook = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(["gone", "failing", "manual"])
      .nullable()
      .meta({ description: "`gone`: the endpoint answered 410; `failing`: every attempt failed for 3 days; `manual`: disabled by an admin." }),
    disabled_at: dateTimeOutput().nullable(),
    failing_since: dateTimeOutput().nullable().meta({ description: "First failure of the current run of failures (null after a success)." }),
    paused_until: dateTimeOutput().nullable().meta({
      description:
        "Set after two attempts in a row got no answer within 15 s: deliveries wait until then, without counting an attempt (1 min, doubling at each further timeout, 1 h at most). Any answer, a retry, a test or a change of URL ends it.",
    }),
    previous_secret_expires_at: dateTimeOutput().nullable().meta({ description: "After a rotation, the old secret also signs until then (24 h)." }),
    created_at: dateTimeOutput(),
    updated_at: dateTimeOutput(),
  })
  .meta({ id: "Webhook", description: "A webhook endpoint (its secret is shown only at creation and rotation)." });
export type Webhook = z.infer<typeof Webhook>;

const secret = z.string().meta({ description: "The signing secret (`whsec_...`), shown this once: keep it where the receiver can read it." });

export const WebhookCreated = Webhook.extend({ secret }).meta({ id: "WebhookCreated", description: "The new endpoint, with its signing secret (shown once)." });
export type WebhookCreated = z.infer<typeof WebhookCreated>;

export const WebhookSecret = z
  .object({
    secret,
    previous_secret_expires_at: dateTimeOutput().meta({ description: "Until then, each message carries a signature by the old secret too." }),
  })
  .meta({ id: "WebhookSecret", description: "The endpoint's new signing secret." });
export type WebhookSecret = z.infer<typeof WebhookSecret>;

export const WebhookList = z.object({ items: z.array(Webhook) }).meta({ id: "WebhookList", description: "The club's webhook endpoints, oldest first." });
export type WebhookList = z.infer<typeof WebhookList>;

export const WebhookAttempt = z
  .object({
    id: z.uuid(),
    status_code: z.int().nullable().meta({ description: "HTTP status answered; null when nothing came back (refused address, timeout, connection error)." }),
    duration_ms: z.int(),
    response_body: z.string().nullable().meta({ description: "The first 1 KB of the answer." }),
    error: z.string().nullable(),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "WebhookAttempt" });

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

export const WebhookDelivery = z
  .object({
    id: z.uuid(),
    msg_id: z.string().meta({ description: "The `webhook-id` header: the same for every endpoint of one event, and for every attempt." }),
    type: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempt_count: z.int(),
    next_attempt_at: dateTimeOutput().nullable(),
    last_status_code: z.int().nullable(),
    payload: z.record(z.string(), z.unknown()).meta({ description: "The body sent: `{type, timestamp, data}`." }),
    attempts: z.array(WebhookAttempt).meta({ description: "Every attempt, oldest first." }),
    created_at: dateTimeOutput(),
    finished_at: dateTimeOutput().nullable(),
  })
  .meta({ id: "WebhookDelivery", description: "One event sent (or to send) to one endpoint, with its attempts." });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type WebhookDeliveryQuery = z.infer<typeof WebhookDeliveryQuery>;

export const WebhookDeliveryList = z
  .object({ items: z.array(WebhookDelivery).meta({ description: "Newest first." }) })
  .meta({ id: "WebhookDeliveryList", description: "The endpoint's deliveries, newest first." });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;
