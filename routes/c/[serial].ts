// GET /c/[serial] — the member's web card (HTML, no credentials: the pass serial is the secret)
import { z } from "zod";
import { CARD_RATE } from "../../lib/cards/public-limit";
import { renderWebCard } from "../../lib/cards/web";
import { route } from "../../server/route";

export const GET = route({
  summary: "The member's web card",
  tags: ["cards"],
  auth: "public",
  rateLimit: CARD_RATE,
  hidden: true,
  raw: true,
  page: true,
  // Any length: a serial that matches no card gets the 404 page, not a JSON 422.
  params: z.object({ serial: z.string().min(1).max(2000) }),
  handler: ({ ctx, params }) => renderWebCard(ctx, params.serial),
});
