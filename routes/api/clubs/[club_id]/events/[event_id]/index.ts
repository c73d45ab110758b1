// GET /api/clubs/[club_id]/events/[event_id] — one event with its tickets; PATCH changes it; DELETE removes one nobody registered to
import { deleteEvent, getEvent, updateEvent } from "../../../../../../lib/events";
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
    "Partial update. `status`: draft <-> published, either -> cancelled (every confirmed and pending registrant is mailed, in the club's language); a cancelled event refuses every change (409). More `capacity` or a larger ticket `quantity_max` moves the waiting list up. `tickets` is the full list, matched by `id`: new ones are added, missing ones removed (or deactivated when they have registrations).",
  tags: ["events"],
  stable: true,
  scope: updateEvent.scope,
  params: EventIdParams,
  body: EventUpdate,
  response: EventAdminDetail,
  errors: [409],
  handler: ({ ctx, params, body }) => updateEvent(ctx, { ...body, event_id: params.event_id }),
});

export const DELETE = route({
  summary: "Delete an event",
  description:
    "Only an event nobody registered to (in any status), with its tickets and its own promo codes: 204. Otherwise 409 `EVENT_HAS_REGISTRATIONS`: cancel it instead (`PATCH` with `status: cancelled`).",
  tags: ["events"],
  scope: deleteEvent.scope,
  params: EventIdParams,
  status: 204,
  errors: [409],
  handler: ({ ctx, params }) => deleteEvent(ctx, { event_id: params.event_id }),
});
