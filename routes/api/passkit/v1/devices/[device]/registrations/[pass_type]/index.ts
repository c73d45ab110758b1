// GET /api/passkit/v1/devices/[device]/registrations/[pass_type] — the serial numbers of a phone's passes updated since a tag
import { z } from "zod";
import { updatedSerials } from "../../../../../../../../lib/cards/apple/web-service";
import { route } from "../../../../../../../../server/route";
import { passkitCall } from "../../../../../../../../server/state";

export const GET = route({
  summary: "Passes of a device updated since a tag (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  hidden: true,
  raw: true,
  params: z.object({ device: z.string().min(1).max(200), pass_type: z.string().min(1).max(200) }),
  query: z.object({ passesUpdatedSince: z.string().max(100).optional() }),
  handler: async ({ deps, params, query, request }) => {
    const found = await updatedSerials(passkitCall(deps, request), {
      device: params.device,
      passType: params.pass_type,
      since: query.passesUpdatedSince,
    });
    return found ? Response.json(found) : new Response(null, { status: 204 });
  },
});
