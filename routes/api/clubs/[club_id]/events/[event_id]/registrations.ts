// GET /api/clubs/[club_id]/events/[event_id]/registrations — everyone registered to the event; POST adds an attendee
import { z } from "zod";
import { listEventRegistrations } from "../../../../../../lib/events";
import { EventIdParams, EventRegistrationItem, RegistrationCreate } from "../../../../../../lib/events/schemas";
import { addRegistration } from "../../../../../../lib/registrations/admin";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "List an event's registrations",
  description: "Every registration (confirmed, pending payment, waitlisted, cancelled), oldest first.",
  tags: ["events"],
  stable: true,
  scope: listEventRegistrations.scope,
  params: EventIdParams,
  response: z.array(EventRegistrationItem),
  handler: ({ ctx, params }) => listEventRegistrations(ctx, { event_id: params.event_id }),
});

export const POST = route({
  summary: "Add a registration",
  operationId: "addRegistration",
  description:
    "An admin adds an attendee. Price: a member (`member_id`) pays their tier's price or the member price, anyone else the non-member price (403 `TICKET_MEMBERS_ONLY` when there is none, as on the public form). Status: `confirmed` when free, else `pending`, unless `status` says. Capacity and the ticket's quantity_max hold (409 `EVENT_FULL`, `TICKET_SOLD_OUT`); the registration window does not.",
  tags: ["events"],
  scope: addRegistration.scope,
  params: EventIdParams,
  body: RegistrationCreate,
  status: 201,
  response: EventRegistrationItem,
  errors: [409],
  handler: ({ ctx, params, body }) => addRegistration(ctx, { ...body, event_id: params.event_id }),
});
