// GET /c/[serial]/pass.pkpass — the member's Apple Wallet pass (no credentials: the pass serial is the secret)
import { z } from "zod";
import { downloadPass } from "../../../lib/cards/apple/pass";
import { CARD_RATE } from "../../../lib/cards/public-limit";
import { route } from "../../../server/route";

export const GET = route({
  summary: "The member's Apple Wallet pass",
  tags: ["cards"],
  auth: "public",
  rateLimit: CARD_RATE,
  hidden: true,
  raw: true,
  params: z.object({ serial: z.string().min(1).max(2000) }),
  handler: ({ ctx, params }) => downloadPass(ctx, params.serial),
});
