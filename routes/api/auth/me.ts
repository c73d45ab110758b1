// GET /api/auth/me — the admin behind the key, with their club (the first call: it gives club_id)
import { AdminMe, getAdminMe } from "../../../lib/auth/admins";
import { route } from "../../../server/route";

export const GET = route({
  summary: "Who am I: the admin, the key's scopes and the club",
  operationId: "getMe",
  tags: ["auth"],
  stable: true,
  response: AdminMe,
  handler: ({ ctx }) => getAdminMe(ctx),
});
