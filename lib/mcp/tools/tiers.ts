// MCP tools of the tiers area: the same lib/ verbs and schemas as the HTTP routes.
import { z } from "zod";
import { createTier, listTiers, Tier, TierCreate, TierUpdate, updateTier } from "../../tiers";
import { READ_ONLY, tool, WRITE } from "../tool";

export const list_tiers = tool({
  name: "list_tiers",
  title: "List membership tiers",
  description:
    "Lists the club's membership tiers (id, name, price_cents, currency, duration_months, member_count), by sort order. Soft-deleted tiers are left out unless include_inactive is true. Use a tier's id as tier_id in add_member.",
  input: z.object({ include_inactive: z.boolean().default(false).describe("Also list soft-deleted (inactive) tiers.") }),
  annotations: READ_ONLY,
  output: z.array(Tier),
  scope: listTiers.scope,
  run: (ctx, input) => listTiers(ctx, input),
});

export const create_tier = tool({
  name: "create_tier",
  title: "Create a membership tier",
  description:
    "Creates a membership tier. name and price_cents (integer cents: 50 CHF = 5000) are required; currency defaults to the club's, duration_months to the club's membership duration. Returns the tier with its id.",
  input: TierCreate,
  annotations: WRITE,
  output: Tier,
  scope: createTier.scope,
  run: (ctx, input) => createTier(ctx, input),
});

export const update_tier = tool({
  name: "update_tier",
  title: "Update a membership tier",
  description:
    "Changes a tier: send tier_id and only the fields to change. is_active false soft-deletes the tier (it disappears from list_tiers, its members keep it); is_active true restores it. Returns the tier.",
  input: TierUpdate.extend({ tier_id: z.uuid().describe("The tier's id (from list_tiers).") }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  output: Tier,
  scope: updateTier.scope,
  run: (ctx, input) => updateTier(ctx, input),
});
