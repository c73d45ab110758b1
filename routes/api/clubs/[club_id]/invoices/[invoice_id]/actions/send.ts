// POST /api/clubs/[club_id]/invoices/[invoice_id]/actions/send — mail the invoice's PDF to its member
import { sendInvoice } from "../../../../../../../lib/invoices/send";
import { InvoiceSent } from "../../../../../../../lib/invoices/schemas";
import { route } from "../../../../../../../server/route";

export const POST = route({
  summary: "Send an invoice",
  operationId: "sendInvoice",
  description:
    "Mails the member, in the club's language, a short note with the invoice's PDF attached (finances:edit and communication:edit). Sent again each time. A cancelled invoice, or one whose member was erased: 409. 502 if the mail server refuses.",
  tags: ["invoices"],
  scope: sendInvoice.scope,
  response: InvoiceSent,
  errors: [409, 502],
  handler: ({ ctx, params }) => sendInvoice(ctx, { invoice_id: params.invoice_id }),
});
