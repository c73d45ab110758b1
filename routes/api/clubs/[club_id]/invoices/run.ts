// POST /api/clubs/[club_id]/invoices/run — the dues run (DESIGN.md section 20)
import { runDues } from "../../../../../lib/dues/run";
import { DuesRun, DuesRunRequest } from "../../../../../lib/invoices/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Run the dues",
  operationId: "runInvoices",
  description:
    "One membership invoice for each paid member whose membership_end is before `until` (of `tier_ids` when given; not those a running Stripe subscription renews) and who has no open membership invoice, nor an open or paid one for that period (`period_start`, the day after their end): the member's tier price, else the club's fee, less their referral credit (a discount line), issued today and due in 30 days. Members with nothing to pay, invoiced already, or whose fee is above what one invoice line takes (1,000,000.00), are counted in `skipped`. A second run makes none, also when two run at once. `dry_run: true` answers the same and writes nothing. The invoices are not mailed (`actions/send` does). 422 TIER_NOT_FOUND naming `tier_ids`. Fires `invoice.created` for each.",
  tags: ["invoices"],
  scope: runDues.scope,
  body: DuesRunRequest,
  response: DuesRun,
  handler: ({ ctx, body }) => runDues(ctx, body),
});
