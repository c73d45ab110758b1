// GET /c/logo/[club_id] — the plain logo Google Wallet shows for a club without one (PNG, no credentials)
import { placeholderLogo } from "../../../lib/cards/google/logo";
import { route } from "../../../server/route";
import { getState } from "../../../server/state";

export const GET = route({
  summary: "A club's placeholder logo for Google Wallet",
  tags: ["cards"],
  auth: "public",
  hidden: true,
  raw: true,
  handler: async ({ deps, params, request }) => {
    const png = await placeholderLogo(deps.db, params.club_id, getState(request)?.ip ?? null);
    return new Response(png, { headers: { "content-type": "image/png", "cache-control": "public, max-age=86400" } });
  },
});
