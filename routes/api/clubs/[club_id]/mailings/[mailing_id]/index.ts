// GET, PATCH /api/clubs/[club_id]/mailings/[mailing_id] — one mailing; change it while a draft
import { getMailing, updateMailing } from "../../../../../../lib/mailings";
import { Mailing, MailingUpdate } from "../../../../../../lib/mailings/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "Get a mailing",
  tags: ["mailings"],
  scope: getMailing.scope,
  response: Mailing,
  handler: ({ ctx, params }) => getMailing(ctx, { mailing_id: params.mailing_id }),
});

export const PATCH = route({
  summary: "Update a mailing",
  description: "Only the fields sent change, only while the mailing is a draft (else 409 `MAILING_NOT_DRAFT`). The same 422 and 413 as creating one.",
  tags: ["mailings"],
  scope: updateMailing.scope,
  body: MailingUpdate,
  response: Mailing,
  errors: [409, 413],
  handler: ({ ctx, params, body }) => updateMailing(ctx, { ...body, mailing_id: params.mailing_id }),
});
