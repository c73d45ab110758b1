// GET /api/clubs/[club_id]/members/[member_id]/invoices — a member's invoices
import { listMemberInvoices } from "../../../../../../lib/invoices";
import { InvoiceList, InvoiceListQuery } from "../../../../../../lib/invoices/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "List a member's invoices",
  operationId: "listMemberInvoices",
  description: "The member's invoices, newest first, with the same filters and pages as GET invoices.",
  tags: ["invoices"],
  scope: listMemberInvoices.scope,
  query: InvoiceListQuery.omit({ member_id: true }),
  response: InvoiceList,
  handler: ({ ctx, params, query }) => listMemberInvoices(ctx, { ...query, member_id: params.member_id }),
});
