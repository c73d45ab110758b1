// GET /c/[serial]/google — "save to Google Wallet": a redirect to Google with the signed card (no credentials: the pass serial is the secret)
import { z } from "zod";
import { googleSaveUrl } from "../../../lib/cards/google";
import { route } from "../../../server/route";
import { getState } from "../../../server/state";

export const GET = route({
  summary: "Save the member's card to Google Wallet",
  tags: ["cards"],
  auth: "public",
  hidden: true,
  raw: true,
  params: z.object({ serial: z.string().min(1).max(2000) }),
  handler: async ({ deps, params, request }) =>
    new Response(null, {
      status: 302,
      headers: {
        location: await googleSaveUrl(deps.db, params.serial, deps.config, getState(request)?.ip ?? null),
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      },
    }),
});
