// POST /api/clubs/[club_id]/invoices/[invoice_id]/actions/cancel — cancel an unpaid invoice
import { cancelInvoice } from "../../../../../../../lib/invoices";
import { Invoice } from "../../../../../../../lib/invoices/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Cancel an invoice",
  operationId: "cancelInvoice",
  description:
    "An open invoice nothing was paid on becomes `cancelled`: never reminded, never matched to a payment. Already cancelled: answered as it is. Paid, even in part: 409 INVOICE_PAID (refund first). Fires `invoice.cancelled`.",
  tags: ["invoices"],
  scope: cancelInvoice.scope,
  response: Invoice,
  errors: [409],
  handler: ({ ctx, params }) => cancelInvoice(ctx, { invoice_id: params.invoice_id }),
});
