// POST /api/clubs/[club_id]/mailings/[mailing_id]/actions/cancel — cancel a mailing before it starts
import { cancelMailing } from "../../../../../../../lib/mailings";
import { Mailing } from "../../../../../../../lib/mailings/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Cancel a mailing",
  operationId: "cancelMailing",
  description: "A draft or a scheduled mailing. One that is sending or sent: 409.",
  tags: ["mailings"],
  scope: cancelMailing.scope,
  response: Mailing,
  errors: [409],
  handler: ({ ctx, params }) => cancelMailing(ctx, { mailing_id: params.mailing_id }),
});
