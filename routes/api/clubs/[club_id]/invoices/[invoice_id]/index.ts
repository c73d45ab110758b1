// GET /api/clubs/[club_id]/invoices/[invoice_id] — one invoice
import { getInvoice } from "../../../../../../lib/invoices";
import { Invoice } from "../../../../../../lib/invoices/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "Get an invoice",
  tags: ["invoices"],
  scope: getInvoice.scope,
  response: Invoice,
  handler: ({ ctx, params }) => getInvoice(ctx, { invoice_id: params.invoice_id }),
});
