// GET, POST /e/[club_slug]/[event_slug] — an event's public page (HTML, no credentials) and its registration form; with `.ics`, its calendar file
import { z } from "zod";
import { PUBLIC_EVENTS_RATE, PUBLIC_REGISTRATION_RATE } from "../../../lib/events/public";
import { renderEventPage, submitEventPage } from "../../../lib/pages/event";
import { route } from "../../../server/route";

const page = {
  tags: ["public"],
  auth: "public" as const,
  rateLimit: PUBLIC_EVENTS_RATE,
  hidden: true,
  raw: true,
  page: true,
  params: z.object({ club_slug: z.string().min(1).max(200), event_slug: z.string().min(1).max(200) }),
};

export const GET = route({
  summary: "An event's public page, or its calendar file (.ics)",
  ...page,
  // A page never answers a 422 for its address: an odd `lang` is the club's language.
  query: z.object({ lang: z.string().max(10).optional().catch(undefined) }),
  handler: ({ ctx, params, query }) => renderEventPage(ctx, params.club_slug, params.event_slug, query),
});

export const POST = route({
  summary: "Register to an event (the event page's form)",
  ...page,
  // The JSON registration route's count: a person registers through either, not twice as often.
  rateLimit: PUBLIC_REGISTRATION_RATE,
  // The fields are read by the JSON route's own schema in lib/pages/event, each error shown beside its field.
  body: z.record(z.string(), z.unknown()),
  handler: ({ ctx, params, body, request }) => submitEventPage(ctx, params.club_slug, params.event_slug, body, request.headers),
});
