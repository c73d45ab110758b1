// POST /api/clubs/[club_id]/mailings/[mailing_id]/actions/send — send a mailing now or at send_at
import { sendMailing } from "../../../../../../../lib/mailings";
import { Mailing, MailingSend } from "../../../../../../../lib/mailings/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Send a mailing",
  operationId: "sendMailing",
  description:
    "Now (`sending`: its recipients are taken, then mailed at `MAIL_RATE_PER_MINUTE`, each once) or at a later `send_at` (`scheduled`). Members who said no to mailings, or whose address bounced, are skipped and counted. Fires `mailing.sent` when every recipient is done. Not a draft or scheduled (sending, sent, cancelled): 409.",
  tags: ["mailings"],
  scope: sendMailing.scope,
  body: MailingSend.optional(),
  response: Mailing,
  errors: [409],
  handler: ({ ctx, params, body }) => sendMailing(ctx, { ...body, mailing_id: params.mailing_id }),
});
