// GET /api/clubs/[club_id]/promo-codes — the club's promo codes; POST creates one
import { z } from "zod";
import { createPromoCode, listPromoCodes, PromoCodeCreate, PromoCodeListQuery, PromoCodePublic } from "../../../../lib/promo";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "List promo codes",
  description: "`event_id` keeps one event's codes; `scope` keeps membership-wide or event codes; `include_inactive=false` hides deactivated codes.",
  tags: ["promo-codes"],
  stable: true,
  scope: listPromoCodes.scope,
  query: PromoCodeListQuery,
  response: z.array(PromoCodePublic),
  handler: ({ ctx, query }) => listPromoCodes(ctx, query),
});

export const POST = route({
  summary: "Create a promo code",
  description:
    "`code`: 4 to 30 characters, unique in the club whatever its case (409). A percent discount is at most 100. 404 when `event_id` is not an event of the club (one deleted since, too).",
  tags: ["promo-codes"],
  stable: true,
  scope: createPromoCode.scope,
  body: PromoCodeCreate,
  status: 201,
  response: PromoCodePublic,
  errors: [404, 409],
  handler: ({ ctx, body }) => createPromoCode(ctx, body),
});
