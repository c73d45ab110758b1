// MCP tools for invoices (DESIGN.md section 20): the verbs and shapes of GET and POST invoices and
// of POST invoices/<id>/actions/send.
import { z } from "zod";
import { createInvoice, listInvoices } from "../../invoices";
import { Invoice, InvoiceCreate, InvoiceList, InvoiceListQuery, InvoiceSent } from "../../invoices/schemas";
import { sendInvoice } from "../../invoices/send";
import { READ_ONLY, tool, WRITE } from "../tool";

export const list_invoices = tool({
  name: "list_invoices",
  title: "List invoices",
  description:
    "The club's invoices, newest first, with number (YYYY-NNNN), member_id, lines, amount_cents, currency, issued_on, due_on, status (open, paid, cancelled), overdue, paid_cents, reference and pdf_url. Filters: status, overdue ('true': open and past due_on), member_id, from and to (issue dates, inclusive). Paged: page, limit.",
  input: InvoiceListQuery,
  annotations: READ_ONLY,
  output: InvoiceList,
  scope: listInvoices.scope,
  run: (ctx, input) => listInvoices(ctx, input),
});

export const create_invoice = tool({
  name: "create_invoice",
  title: "Create an invoice",
  description:
    "Invoices a member: lines [{label, amount_cents}] (negative for a discount), or tier_id to ask a tier's fee (its name and price first), or both. The total must be above zero. Gets the next number of the year and a payment reference; the PDF (pdf_url) carries the Swiss QR-bill or an EPC QR code. Does not mail it: send_invoice does. Find member_id with list_members and tier_id with list_tiers first.",
  input: InvoiceCreate,
  annotations: WRITE,
  output: Invoice,
  scope: createInvoice.scope,
  run: (ctx, input) => createInvoice(ctx, input),
});

export const send_invoice = tool({
  name: "send_invoice",
  title: "Send an invoice",
  description:
    "Mails the member the invoice's PDF with a short note in the club's language, now (again if sent before). A cancelled invoice is refused. Needs finances:edit and communication:edit.",
  input: z.object({ invoice_id: z.uuid() }),
  annotations: WRITE,
  output: InvoiceSent,
  scope: sendInvoice.scope,
  run: (ctx, input) => sendInvoice(ctx, input),
});
