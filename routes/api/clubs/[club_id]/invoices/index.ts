// GET, POST /api/clubs/[club_id]/invoices — the club's invoices (DESIGN.md section 20)
import { createInvoice, listInvoices } from "../../../../../lib/invoices";
import { Invoice, InvoiceCreate, InvoiceList, InvoiceListQuery } from "../../../../../lib/invoices/schemas";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "List invoices",
  description:
    "Newest first. Filter by `status` (open, paid, cancelled), `overdue` (open and past due_on), `member_id`, and the issue date (`from`, `to`, inclusive). Paged like the member list.",
  tags: ["invoices"],
  scope: listInvoices.scope,
  query: InvoiceListQuery,
  response: InvoiceList,
  handler: ({ ctx, query }) => listInvoices(ctx, query),
});

export const POST = route({
  summary: "Create an invoice",
  description:
    "For a member of the club: `lines`, or a tier's fee (`tier_id`: its name and price as the first line, its currency), or both. The number (`YYYY-NNNN`, per club and year, in order without gaps) and the payment reference are given here. 422 naming the field for an unknown member or tier, no line, a total of zero or less, a due date before the issue date. Fires `invoice.created`.",
  tags: ["invoices"],
  scope: createInvoice.scope,
  body: InvoiceCreate,
  status: 201,
  response: Invoice,
  handler: ({ ctx, body }) => createInvoice(ctx, body),
});
