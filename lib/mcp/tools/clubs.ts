// MCP tools of the foundation: who the key is, and the club's settings.
import { z } from "zod";
import { AdminMe, getAdminMe } from "../../auth/admins";
import { getClub, updateClub } from "../../clubs";
import { ClubAdmin, ClubUpdate } from "../../clubs/schemas";
import { READ_ONLY, tool } from "../tool";

export const whoami = tool({
  name: "whoami",
  title: "Who am I",
  description: "Returns the admin this API key acts for, the key's scopes (per area: view or edit), and the club with its club_id. Call it first.",
  input: z.object({}),
  annotations: READ_ONLY,
  output: AdminMe,
  scope: null,
  run: (ctx) => getAdminMe(ctx),
});

export const get_club = tool({
  name: "get_club",
  title: "Club settings",
  description:
    "Returns all of the club's settings: name, colours, membership fee and duration (fees in cents), locale, card appearance, social links, legal details.",
  input: z.object({}),
  annotations: READ_ONLY,
  output: ClubAdmin,
  scope: null,
  run: (ctx) => getClub(ctx),
});

export const update_club = tool({
  name: "update_club",
  title: "Update club settings",
  description:
    "Changes the club's settings. Send only the fields to change; null clears an optional field. Amounts are integer cents, colours #RRGGBB. card_* fields need the card:edit scope, fee/payout/accounting fields finances:edit. Returns the updated club.",
  input: ClubUpdate,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  output: ClubAdmin,
  scope: updateClub.scope,
  run: (ctx, input) => updateClub(ctx, input),
});
