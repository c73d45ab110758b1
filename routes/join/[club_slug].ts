// GET, POST /join/[club_slug] — the club's join page (HTML, no credentials) and its form
import { z } from "zod";
import { JOIN_RATE, PUBLIC_CLUB_RATE } from "../../lib/join";
import { renderJoinPage, submitJoinPage } from "../../lib/pages/join";
import { route } from "../../server/route";

const page = { tags: ["public"], auth: "public" as const, hidden: true, raw: true, page: true, params: z.object({ club_slug: z.string().min(1).max(200) }) };

export const GET = route({
  summary: "A club's join page",
  ...page,
  rateLimit: PUBLIC_CLUB_RATE,
  // A page never answers a 422 for its address: an odd `lang` is the club's language.
  query: z.object({ lang: z.string().max(10).optional().catch(undefined) }),
  handler: ({ ctx, params, query }) => renderJoinPage(ctx, params.club_slug, query),
});

export const POST = route({
  summary: "Join a club (the join page's form)",
  ...page,
  rateLimit: JOIN_RATE,
  // The fields are read by the JSON route's own schema in lib/pages/join, each error shown beside its field.
  body: z.record(z.string(), z.unknown()),
  handler: ({ ctx, params, body, request }) => submitJoinPage(ctx, params.club_slug, body, request.headers),
});
