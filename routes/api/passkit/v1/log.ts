// POST /api/passkit/v1/log — a phone reports problems with our passes or web service (Apple Wallet web service)
import { z } from "zod";
import { logMessages } from "../../../../lib/cards/apple/web-service";
import { route } from "../../../../server/route";
import { passkitCall } from "../../../../server/state";

export const POST = route({
  summary: "Log messages from a device (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  hidden: true,
  raw: true,
  body: z.object({ logs: z.array(z.string().max(10_000)).max(1000) }),
  handler: ({ deps, body, request }) => {
    logMessages(passkitCall(deps, request), body.logs);
    return new Response(null, { status: 200 });
  },
});
