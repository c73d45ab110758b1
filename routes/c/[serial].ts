// GET /c/[serial] — the member's web card (HTML, no credentials: the pass serial is the secret)
import { z } from "zod";
import { renderWebCard, webCardResponse } from "../../lib/cards/web";
import { route } from "../../server/route";
import { getState } from "../../server/state";

export const GET = route({
  summary: "The member's web card",
  tags: ["cards"],
  auth: "public",
  hidden: true,
  raw: true,
  // Any length: a serial that matches no card gets the 404 page, not a JSON 422.
  params: z.object({ serial: z.string().min(1).max(2000) }),
  handler: async ({ deps, params, request }) =>
    webCardResponse(await renderWebCard(deps.db, params.serial, request.headers.get("accept-language"), deps.config, getState(request)?.ip ?? null)),
});
