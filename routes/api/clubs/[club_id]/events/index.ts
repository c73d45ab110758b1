// GET /api/clubs/[club_id]/events — the club's events; POST creates one with its tickets
import { z } from "zod";
import { createEvent, listEvents } from "../../../../../lib/events";
import { EventAdminDetail, EventAdminItem, EventCreate } from "../../../../../lib/events/schemas";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "List events",
  description: "Every event of the club, latest start first, with registered, checked-in, revenue and net figures computed from registrations and payments.",
  tags: ["events"],
  stable: true,
  scope: listEvents.scope,
  response: z.array(EventAdminItem),
  handler: ({ ctx }) => listEvents(ctx, {}),
});

export const POST = route({
  summary: "Create an event",
  description: "Creates a `published` event with its tickets. The slug comes from the title (unique in the club); the currency is the club's.",
  tags: ["events"],
  stable: true,
  scope: createEvent.scope,
  body: EventCreate,
  status: 201,
  response: EventAdminDetail,
  handler: ({ ctx, body }) => createEvent(ctx, body),
});
