// GET /c/[serial]/pass.pkpass — the member's Apple Wallet pass (no credentials: the pass serial is the secret)
import { z } from "zod";
import { downloadPass, PKPASS_TYPE } from "../../../lib/cards/apple/pass";
import { route } from "../../../server/route";
import { getState } from "../../../server/state";

export const GET = route({
  summary: "The member's Apple Wallet pass",
  tags: ["cards"],
  auth: "public",
  hidden: true,
  raw: true,
  params: z.object({ serial: z.string().min(1).max(2000) }),
  handler: async ({ deps, params, request }) => {
    const pass = await downloadPass(deps.db, deps.config, params.serial, getState(request)?.ip ?? null);
    return new Response(pass.body, {
      headers: { "content-type": PKPASS_TYPE, "cache-control": "no-store", "last-modified": new Date(pass.lastModified).toUTCString() },
    });
  },
});
