// GET /api/clubs/[club_id]/payments — the payments ledger, newest first, with the totals of its filter
import { listPayments, PaymentList, PaymentListQuery } from "../../../../../lib/books/ledger";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "List payments (the ledger)",
  operationId: "listPayments",
  description: [
    "Every payment recorded for the club (memberships, tickets, refunds as negative amounts), newest first, with the provider's fee, the platform's commission and the net. Filters: `from` and `to` (UTC days, inclusive), `method`, `kind` (membership, event, refund, other), `member_id`.",
    "`totals` sums every payment the filter keeps, on all pages: for a month (its first to its last day) they are the stats' revenue of that month.",
  ].join("\n\n"),
  tags: ["payments"],
  scope: listPayments.scope,
  query: PaymentListQuery,
  response: PaymentList,
  handler: ({ ctx, query }) => listPayments(ctx, query),
});
