// GET /api/public/manage/[manage_token]/invoices/[invoice_id]/pdf — one of my invoices as a PDF (the member's page's token is the key)
import { z } from "zod";
import { MEMBER_PAGE_RATE, myInvoicePdf } from "../../../../../../../lib/member-page";
import { ManageParams } from "../../../../../../../lib/member-page/schemas";
import { route } from "../../../../../../../server/route";

export const GET = route({
  summary: "Download one of my invoices",
  operationId: "getMemberPageInvoicePdf",
  description:
    "The invoice as the club's PDF (A4, with its payment part), for the member whose page this is. Another member's invoice, or none, is a 404 like a wrong token.",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  // Any text: an id that names no invoice of the member is a plain 404, never a 422.
  params: ManageParams.extend({ invoice_id: z.string().min(1).max(200) }),
  raw: true,
  files: { "application/pdf": "The invoice." },
  errors: [404],
  handler: ({ ctx, params }) => myInvoicePdf(ctx, params.manage_token, params.invoice_id),
});
