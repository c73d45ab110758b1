// POST /api/clubs/[club_id]/members/[member_id]/send-card-email — email the member their card
import { sendCardEmail } from "../../../../../../lib/members/card-email";
import { CardEmailResult } from "../../../../../../lib/members/schemas";
import { route } from "../../../../../../server/route";

export const POST = route({
  summary: "Send the card email",
  operationId: "sendCardEmail",
  description:
    "Emails the member, in the club's language, the link to their web card and its QR code. Always sent, even if sent before; sets card_email_sent_at. 502 if the mail server refuses.",
  tags: ["members"],
  stable: true,
  scope: sendCardEmail.scope,
  response: CardEmailResult,
  errors: [502],
  handler: ({ ctx, params }) => sendCardEmail(ctx, { member_id: params.member_id }),
});
