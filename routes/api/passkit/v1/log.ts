// POST /api/passkit/v1/log — a phone reports problems with our passes or web service (Apple Wallet web service)
import { z } from "zod";
import { logMessages, PASSKIT_RATE } from "../../../../lib/cards/apple/web-service";
import { route } from "../../../../server/route";

export const POST = route({
  summary: "Log messages from a device (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  rateLimit: PASSKIT_RATE,
  hidden: true,
  raw: true,
  body: z.object({ logs: z.array(z.string().max(10_000)).max(1000) }),
  handler: ({ ctx, body }) => {
    logMessages(ctx, body.logs);
    return { body: null };
  },
});
