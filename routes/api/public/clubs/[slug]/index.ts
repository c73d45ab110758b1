// GET /api/public/clubs/[slug] — what a join page needs (no credentials)
import { z } from "zod";
import { getPublicClub, PUBLIC_CLUB_RATE } from "../../../../../lib/join";
import { PublicClub } from "../../../../../lib/join/schemas";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "A club's public page",
  operationId: "getPublicClub",
  description:
    "What a join page needs: the club's name, logo, colours, description and language, its `membership_mode` and application instructions, its active tiers with their prices, the payment methods that work now and the custom fields to ask. Nothing about members. No credentials; rate-limited per client address.",
  tags: ["public"],
  auth: "public",
  rateLimit: PUBLIC_CLUB_RATE,
  params: z.object({ slug: z.string().min(1).max(200) }),
  response: PublicClub,
  errors: [404],
  handler: ({ ctx, params }) => getPublicClub(ctx, params.slug),
});
