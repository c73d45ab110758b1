// GET /c/[serial]/google — "save to Google Wallet": a redirect to Google with the signed card (no credentials: the pass serial is the secret)
import { z } from "zod";
import { googleSaveUrl } from "../../../lib/cards/google";
import { CARD_RATE } from "../../../lib/cards/public-limit";
import { route } from "../../../server/route";

export const GET = route({
  summary: "Save the member's card to Google Wallet",
  tags: ["cards"],
  auth: "public",
  rateLimit: CARD_RATE,
  hidden: true,
  raw: true,
  params: z.object({ serial: z.string().min(1).max(2000) }),
  handler: async ({ ctx, params }) => ({
    redirect: await googleSaveUrl(ctx, params.serial),
    headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" },
  }),
});
