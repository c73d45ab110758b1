// The member's invoices on their own page (DESIGN.md section 20: "the member's page lists the
// member's invoices with their PDFs"): each with its PDF at an address under the page's token (no
// admin key), and for an open one how to pay it by bank transfer (the club's account, the
// invoice's own reference, what is left to pay). The PDF itself: lib/member-page myInvoicePdf.
import { and, desc, eq } from "drizzle-orm";
import type { Queryable } from "../../db";
import { invoices } from "../../db/schema";
import type { ClubRow } from "../clubs/internal";
import { toInvoice } from "../invoices";
import { invoiceTransfer } from "../invoices/payment-part";
import { todayUtc } from "../days";
import { MemberPageInvoice } from "./schemas";

/** The most invoices the page lists (newest first): a member has a few a year. */
export const PAGE_INVOICES = 20;

/** The address of an invoice's PDF for the member whose page token is `token`. */
export const myInvoicePdfUrl = (baseUrl: string, token: string, invoiceId: string) => `${baseUrl}/api/public/manage/${token}/invoices/${invoiceId}/pdf`;

/** The member's invoices as their page shows them. */
export async function memberPageInvoices(
  q: Queryable,
  baseUrl: string,
  token: string,
  m: { id: string; club_id: string },
  club: ClubRow,
): Promise<MemberPageInvoice[]> {
  const rows = await q
    .select()
    .from(invoices)
    .where(and(eq(invoices.club_id, m.club_id), eq(invoices.member_id, m.id)))
    .orderBy(desc(invoices.issued_on), desc(invoices.number))
    .limit(PAGE_INVOICES);
  const today = todayUtc();
  // The Invoice as the API shows it, cut to what the page needs (the schema keeps its fields only).
  return rows.map((row) =>
    MemberPageInvoice.parse({
      ...toInvoice(row, baseUrl, today),
      pdf_url: myInvoicePdfUrl(baseUrl, token, row.id),
      bank_transfer: row.status === "open" ? invoiceTransfer(club, row) : null,
    }),
  );
}
