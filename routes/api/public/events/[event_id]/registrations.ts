// POST /api/public/events/[event_id]/registrations — register to an event (no credentials)
import { z } from "zod";
import { PUBLIC_REGISTRATION_RATE } from "../../../../../lib/events/public";
import { registerForEvent } from "../../../../../lib/registrations/public";
import { PublicRegistration, PublicRegistrationCreate } from "../../../../../lib/events/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Register to an event",
  operationId: "registerForEvent",
  description:
    "Members give their card code (`member_code`) for member prices. A free registration is `confirmed`; a paid one is `pending` (awaiting payment) and holds its place until `hold_expires_at` (the club's `pending_hold_hours`), then is cancelled if still unpaid. The answer carries the ticket's `qr_token` and its calendar file's address. Against bots: a solved `challenge` and its `nonce` from `GET /api/public/challenge` (403 `CHALLENGE_REQUIRED`, `CHALLENGE_INVALID`, `CHALLENGE_EXPIRED`, `CHALLENGE_USED`), the honeypot `website` left empty (403 `HONEYPOT_FILLED`), and at most the event's `max_per_email` registrations per email address (409 `EMAIL_ALREADY_REGISTERED`). Rate-limited per client address (20 a minute).",
  tags: ["public"],
  auth: "public",
  rateLimit: PUBLIC_REGISTRATION_RATE,
  params: z.object({ event_id: z.uuid() }),
  body: PublicRegistrationCreate,
  status: 201,
  response: PublicRegistration,
  errors: [403, 404, 409],
  handler: ({ ctx, params, body }) => registerForEvent(ctx, params.event_id, body),
});
