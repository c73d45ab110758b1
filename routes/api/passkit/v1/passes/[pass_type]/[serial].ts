// GET /api/passkit/v1/passes/[pass_type]/[serial] — the latest version of a pass (Apple Wallet web service)
import { z } from "zod";
import { latestPass, PASSKIT_RATE } from "../../../../../../lib/cards/apple/web-service";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "The latest version of a pass (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  rateLimit: PASSKIT_RATE,
  hidden: true,
  raw: true,
  params: z.object({ pass_type: z.string().min(1).max(200), serial: z.string().min(1).max(200) }),
  handler: ({ ctx, params, request }) =>
    latestPass(ctx, {
      passType: params.pass_type,
      serial: params.serial,
      authorization: request.headers.get("authorization"),
      ifModifiedSince: request.headers.get("if-modified-since"),
    }),
});
