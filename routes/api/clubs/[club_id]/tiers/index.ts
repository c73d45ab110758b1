// GET, POST /api/clubs/[club_id]/tiers — the club's membership tiers
import { z } from "zod";
import { createTier, listTiers, Tier, TierCreate, TierListQuery } from "../../../../../lib/tiers";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "List tiers",
  description: "Active tiers, by sort order; `include_inactive=true` adds the soft-deleted ones.",
  tags: ["tiers"],
  stable: true,
  scope: listTiers.scope,
  query: TierListQuery,
  response: z.array(Tier),
  handler: ({ ctx, query }) => listTiers(ctx, query),
});

export const POST = route({
  summary: "Create a tier",
  description: "`currency` defaults to the club's, `duration_months` to the club's membership_duration_months.",
  tags: ["tiers"],
  stable: true,
  scope: createTier.scope,
  body: TierCreate,
  status: 201,
  response: Tier,
  handler: ({ ctx, body }) => createTier(ctx, body),
});
