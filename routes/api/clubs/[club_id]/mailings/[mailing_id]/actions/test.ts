// POST /api/clubs/[club_id]/mailings/[mailing_id]/actions/test — mail the mailing to one address now
import { sendTestMailing } from "../../../../../../../lib/mailings";
import { MailingTest, MailingTestSent } from "../../../../../../../lib/mailings/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Send a test of a mailing",
  operationId: "testMailing",
  description: "Mails it now to `email`, marked as a test, filled with the first member of its audience. Whatever its status. 502 if the mail server refuses.",
  tags: ["mailings"],
  scope: sendTestMailing.scope,
  body: MailingTest,
  response: MailingTestSent,
  errors: [502],
  handler: ({ ctx, params, body }) => sendTestMailing(ctx, { mailing_id: params.mailing_id, email: body.email }),
});
