// GET /api/clubs/[club_id]/events/[event_id]/registrations — everyone registered to the event
import { z } from "zod";
import { listEventRegistrations } from "../../../../../../lib/events";
import { EventIdParams, EventRegistrationItem } from "../../../../../../lib/events/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "List an event's registrations",
  description: "Every registration (confirmed, pending payment, cancelled), oldest first.",
  tags: ["events"],
  stable: true,
  scope: listEventRegistrations.scope,
  params: EventIdParams,
  response: z.array(EventRegistrationItem),
  handler: ({ ctx, params }) => listEventRegistrations(ctx, { event_id: params.event_id }),
});
