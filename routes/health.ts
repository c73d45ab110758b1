// GET /health — liveness for a process supervisor or load balancer (no credentials, no club data)
import { z } from "zod";
import { checkHealth, HEALTH_RATE } from "../lib/health";
import { route } from "../server/route";

export const GET = route({
  summary: "Health check",
  description:
    "Answers 200 when the server runs and its database reads, 503 otherwise (600 checks a minute per address). Needs no key and says nothing about any club: point a supervisor, a load balancer or an uptime monitor at it.",
  tags: ["health"],
  auth: "public",
  rateLimit: HEALTH_RATE,
  response: z.object({ ok: z.literal(true), database: z.literal("ok") }).meta({ id: "Health" }),
  errors: [503],
  handler: ({ ctx }) => checkHealth(ctx),
});
