// GET /api/clubs/[club_id]/mailings/[mailing_id]/preview — the mail as one member gets it
import { previewMailing } from "../../../../../../lib/mailings";
import { MailingPreview, MailingPreviewQuery } from "../../../../../../lib/mailings/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "Preview a mailing",
  description:
    "Subject, HTML and text as `member_id` gets them, merge fields filled (their page's link is shown with a stand-in token: making a real one would end their current link).",
  tags: ["mailings"],
  scope: previewMailing.scope,
  query: MailingPreviewQuery,
  response: MailingPreview,
  handler: ({ ctx, params, query }) => previewMailing(ctx, { mailing_id: params.mailing_id, member_id: query.member_id }),
});
