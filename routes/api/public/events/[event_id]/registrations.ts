// POST /api/public/events/[event_id]/registrations — register to an event (no credentials)
import { z } from "zod";
import { PUBLIC_EVENTS_RATE } from "../../../../../lib/events/public";
import { registerForEvent } from "../../../../../lib/registrations/public";
import { PublicRegistration, PublicRegistrationCreate } from "../../../../../lib/events/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Register to an event",
  operationId: "registerForEvent",
  description:
    "Members give their card code (`member_code`) for member prices. A free registration is `confirmed`; a paid one is `pending` (awaiting payment). The answer carries the ticket's `qr_token` and its calendar file's address. Rate-limited per client address.",
  tags: ["public"],
  auth: "public",
  rateLimit: PUBLIC_EVENTS_RATE,
  params: z.object({ event_id: z.uuid() }),
  body: PublicRegistrationCreate,
  status: 201,
  response: PublicRegistration,
  errors: [403, 404, 409],
  handler: ({ ctx, params, body }) => registerForEvent(ctx, params.event_id, body),
});
