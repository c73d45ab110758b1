// GET /api/clubs/[club_id]/events/[event_id] — one event with its tickets; PATCH changes it
import { getEvent, updateEvent } from "../../../../../../lib/events";
import { EventAdminDetail, EventIdParams, EventUpdate } from "../../../../../../lib/events/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "Get an event",
  tags: ["events"],
  stable: true,
  scope: getEvent.scope,
  params: EventIdParams,
  response: EventAdminDetail,
  handler: ({ ctx, params }) => getEvent(ctx, { event_id: params.event_id }),
});

export const PATCH = route({
  summary: "Update an event",
  description:
    "Partial update. `status`: draft <-> published, either -> cancelled; a cancelled event refuses every change (409). `tickets` is the full list, matched by `id`: new ones are added, missing ones removed (or deactivated when they have registrations).",
  tags: ["events"],
  stable: true,
  scope: updateEvent.scope,
  params: EventIdParams,
  body: EventUpdate,
  response: EventAdminDetail,
  errors: [409],
  handler: ({ ctx, params, body }) => updateEvent(ctx, { ...body, event_id: params.event_id }),
});
