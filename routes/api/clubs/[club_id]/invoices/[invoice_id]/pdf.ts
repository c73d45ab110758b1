// GET /api/clubs/[club_id]/invoices/[invoice_id]/pdf — the invoice as a PDF with its payment part
import { invoicePdf } from "../../../../../../lib/invoices/pdf";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "An invoice as a PDF",
  operationId: "getInvoicePdf",
  description:
    "A4 in the club's language: its letterhead, the member, number, dates, lines and total. At the foot the payment part: the Swiss QR-bill (SIX, structured addresses) for CHF or EUR with a Swiss or Liechtenstein IBAN; an EPC QR code (GiroCode) for EUR with another SEPA IBAN; else the transfer details in text. Without a payout IBAN there is no payment part, and the page says why. A paid or cancelled invoice says so instead.",
  tags: ["invoices"],
  scope: invoicePdf.scope,
  raw: true,
  files: { "application/pdf": "The invoice." },
  handler: ({ ctx, params }) => invoicePdf(ctx, { invoice_id: params.invoice_id }),
});
