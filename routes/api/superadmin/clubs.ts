// GET /api/superadmin/clubs — every club of the installation, for a superadmin's session only
import { z } from "zod";
import { listAllClubs } from "../../../lib/clubs";
import { route } from "../../../server/route";

export const GET = route({
  summary: "All clubs (superadmin)",
  operationId: "listAllClubs",
  tags: ["account"],
  auth: "superadmin",
  response: z.array(z.object({ id: z.uuid(), name: z.string(), slug: z.string(), created_at: z.string() })),
  handler: ({ ctx }) => listAllClubs(ctx.db),
});
