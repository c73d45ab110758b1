// PUT /api/clubs/[club_id] — change the club's settings (GET reads them)
import { getClub, updateClub } from "../../../../lib/clubs";
import { ClubAdmin, ClubUpdate } from "../../../../lib/clubs/schemas";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "The club's settings",
  tags: ["clubs"],
  response: ClubAdmin,
  handler: ({ ctx }) => getClub(ctx),
});

export const PUT = route({
  summary: "Update the club",
  description:
    "Only the fields sent change. `card_*` fields also need `card:edit`; fee, payout and accounting fields also need `finances:edit`. A new `card_custom_link_url` pushes an update to every active wallet pass in the background.",
  tags: ["clubs"],
  stable: true,
  scope: updateClub.scope,
  body: ClubUpdate,
  response: ClubAdmin,
  handler: ({ ctx, body }) => updateClub(ctx, body),
});
