// GET /health — liveness for a process supervisor (no credentials, no data)
import { z } from "zod";
import { route } from "../server/route";

export const GET = route({
  summary: "Liveness",
  tags: ["auth"],
  auth: "public",
  hidden: true,
  response: z.object({ ok: z.boolean() }),
  handler: () => ({ ok: true }),
});
