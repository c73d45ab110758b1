// GET /api/team/admins — the club's admins, for a dashboard session (keys get 403)
import { z } from "zod";
import { listTeam } from "../../../lib/auth/admins";
import { route } from "../../../server/route";

export const GET = route({
  summary: "The club's admins",
  tags: ["account"],
  auth: "session",
  response: z.array(
    z.object({
      id: z.uuid(),
      email: z.string(),
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
      role: z.string(),
      read_only: z.boolean(),
      access_expires_at: z.string().nullable(),
      removed_at: z.string().nullable(),
    }),
  ),
  handler: ({ ctx }) => listTeam(ctx),
});
