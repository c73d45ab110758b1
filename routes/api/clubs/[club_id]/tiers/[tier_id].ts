// PUT /api/clubs/[club_id]/tiers/[tier_id] — change a tier (partial); is_active false is the soft delete
import { Tier, TierUpdate, updateTier } from "../../../../../lib/tiers";
import { route } from "../../../../../server/route";

export const PUT = route({
  summary: "Update a tier",
  description: "Only the fields sent change. `is_active: false` soft-deletes the tier: it leaves the default list, its members keep it.",
  tags: ["tiers"],
  stable: true,
  scope: updateTier.scope,
  body: TierUpdate,
  response: Tier,
  handler: ({ ctx, params, body }) => updateTier(ctx, { ...body, tier_id: params.tier_id }),
});
