// GET /c/logo/[club_id] — the plain logo Google Wallet shows for a club without one (PNG, no credentials)
import { placeholderLogo } from "../../../lib/cards/google/logo";
import { CARD_RATE } from "../../../lib/cards/public-limit";
import { route } from "../../../server/route";

export const GET = route({
  summary: "A club's placeholder logo for Google Wallet",
  tags: ["cards"],
  auth: "public",
  rateLimit: CARD_RATE,
  hidden: true,
  raw: true,
  handler: async ({ ctx, params }) => ({
    body: await placeholderLogo(ctx, params.club_id),
    contentType: "image/png",
    headers: { "cache-control": "public, max-age=86400" },
  }),
});
