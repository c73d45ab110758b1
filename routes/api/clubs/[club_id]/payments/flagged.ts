// GET /api/clubs/[club_id]/payments/flagged — payments a provider reported that are not what was asked, recorded and not applied
import { FlaggedPaymentList, FlaggedPaymentQuery, listFlaggedPayments } from "../../../../../lib/stripe-events/flagged";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "Payments to check",
  operationId: "listFlaggedPayments",
  description: [
    "A payment Stripe reported in another currency or for another amount than the Checkout the club's page opened asked (a ticket's price, a membership's dues), or a refund in another currency or beyond what is left of its payment: recorded here and not applied (no renewal, no confirmed ticket, no payment row, no receipt). A member's shows in their history too (`payment_flagged`).",
    "Refund it at Stripe (`provider_payment_id`), or record it by hand (mark-paid, confirm). Newest first.",
  ].join("\n\n"),
  tags: ["payments"],
  scope: listFlaggedPayments.scope,
  query: FlaggedPaymentQuery,
  response: FlaggedPaymentList,
  handler: ({ ctx, query }) => listFlaggedPayments(ctx, query),
});
