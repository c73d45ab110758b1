// GET /api/passkit/v1/passes/[pass_type]/[serial] — the latest version of a pass (Apple Wallet web service)
import { z } from "zod";
import { PKPASS_TYPE } from "../../../../../../lib/cards/apple/pass";
import { latestPass } from "../../../../../../lib/cards/apple/web-service";
import { route } from "../../../../../../server/route";
import { passkitCall } from "../../../../../../server/state";

export const GET = route({
  summary: "The latest version of a pass (Apple Wallet web service)",
  tags: ["passkit"],
  auth: "public",
  hidden: true,
  raw: true,
  params: z.object({ pass_type: z.string().min(1).max(200), serial: z.string().min(1).max(200) }),
  handler: async ({ deps, params, request }) => {
    const pass = await latestPass(passkitCall(deps, request), {
      passType: params.pass_type,
      serial: params.serial,
      ifModifiedSince: request.headers.get("if-modified-since"),
    });
    const headers = { "last-modified": pass.lastModified.toUTCString(), "cache-control": "no-store" };
    if (pass.notModified || !pass.body) return new Response(null, { status: 304, headers });
    return new Response(pass.body, { headers: { ...headers, "content-type": PKPASS_TYPE } });
  },
});
