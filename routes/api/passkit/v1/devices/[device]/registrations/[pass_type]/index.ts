// GET /api/passkit/v1/devices/[device]/registrations/[pass_type] — the serial numbers of a phone's passes updated since a tag
import { z } from "zod";
import { PASSKIT_RATE, updatedSerials } from "../../../../../../../../lib/cards/apple/web-service";
import { route } from "../../../../../../../../server/route";

export const GET = route({
  summary: "Passes of a device updated since a tag (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  rateLimit: PASSKIT_RATE,
  hidden: true,
  raw: true,
  params: z.object({ device: z.string().min(1).max(200), pass_type: z.string().min(1).max(200) }),
  query: z.object({ passesUpdatedSince: z.string().max(100).optional() }),
  handler: async ({ ctx, params, query }) => {
    const found = await updatedSerials(ctx, { device: params.device, passType: params.pass_type, since: query.passesUpdatedSince });
    return found ? { body: JSON.stringify(found), contentType: "application/json;charset=utf-8" } : { status: 204, body: null };
  },
});
