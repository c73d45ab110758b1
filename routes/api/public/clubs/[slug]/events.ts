// GET /api/public/clubs/[slug]/events — a club's published, listed events (no credentials)
import { z } from "zod";
import { listPublicEvents, PUBLIC_EVENTS_RATE } from "../../../../../lib/events/public";
import { PublicEvent } from "../../../../../lib/events/schemas";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "A club's public events",
  operationId: "listPublicEvents",
  description: "Published, listed events, earliest first, with their active tickets and places left. No credentials; rate-limited per client address.",
  tags: ["public"],
  auth: "public",
  rateLimit: PUBLIC_EVENTS_RATE,
  params: z.object({ slug: z.string().min(1).max(200) }),
  response: z.array(PublicEvent),
  errors: [404],
  handler: ({ ctx, params }) => listPublicEvents(ctx, params.slug),
});
