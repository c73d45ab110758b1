// PATCH /api/clubs/[club_id]/promo-codes/[promo_code_id] — change a promo code (partial)
import { PromoCodeIdParams, PromoCodePublic, PromoCodeUpdate, updatePromoCode } from "../../../../../lib/promo";
import { route } from "../../../../../server/route";

export const PATCH = route({
  summary: "Update a promo code",
  description:
    "Only the fields sent change: `is_active`, `valid_from`, `valid_until`, `max_uses` (null clears a date or the limit; never below `used_count`); `code`, `discount_type` and `discount_value` only while the code is unused (`used_count` 0), else 409 `PROMO_CODE_USED`.",
  tags: ["promo-codes"],
  scope: updatePromoCode.scope,
  params: PromoCodeIdParams,
  body: PromoCodeUpdate,
  response: PromoCodePublic,
  errors: [409],
  handler: ({ ctx, params, body }) => updatePromoCode(ctx, { ...body, promo_code_id: params.promo_code_id }),
});
