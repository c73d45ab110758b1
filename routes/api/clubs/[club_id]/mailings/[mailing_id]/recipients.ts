// GET /api/clubs/[club_id]/mailings/[mailing_id]/recipients — who, and each one's delivery state
import { listMailingRecipients } from "../../../../../../lib/mailings";
import { MailingRecipientList, MailingRecipientsQuery } from "../../../../../../lib/mailings/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "List a mailing's recipients",
  description:
    "The members taken when sending started, each with `state` (pending, sent, failed, bounced, skipped_opt_out) and the mail server's answer when it refused. Filter by `state`.",
  tags: ["mailings"],
  scope: listMailingRecipients.scope,
  query: MailingRecipientsQuery,
  response: MailingRecipientList,
  handler: ({ ctx, params, query }) => listMailingRecipients(ctx, { ...query, mailing_id: params.mailing_id }),
});
