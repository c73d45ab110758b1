// Sending an invoice (POST .../invoices/<id>/actions/send, DESIGN.md section 20): the member is
// mailed, in the club's language, a short note with the invoice's PDF attached. Sent at once,
// outside any transaction, like the card email: the caller learns whether the mail server took
// it (502 if not). A cancelled invoice is not sent (409); nor is one whose member was erased.
import { clubMailLook, mailDay, mailMoney } from "../mail/look";
import { type Ctx, verb } from "../context";
import { BadGateway, Conflict } from "../errors";
import { INVOICE_TEXTS } from "../i18n/invoices";
import { sendMail } from "../mail";
import { brandedBody, fillText } from "../mail/layout";
import { type InvoiceRow, invoiceRow, toInvoice } from "./index";
import { invoiceDocument } from "./pdf";
import type { Invoice } from "./schemas";

export type InvoiceSent = { sent: true; to: string; invoice: Invoice };

/** The mail of `invoice` with its PDF, as sent (exported for the dunning and renewal mails to come). */
export async function invoiceMail(ctx: Pick<Ctx, "db" | "baseUrl">, invoice: InvoiceRow) {
  const doc = await invoiceDocument(ctx.db, invoice);
  if (!doc.member) throw new Conflict("INVOICE_NO_RECIPIENT", { number: invoice.number });
  const { locale, sender, brand } = clubMailLook(ctx.baseUrl, doc.club);
  const tx = INVOICE_TEXTS[locale].mail;
  const p = {
    first: doc.member.first_name,
    club: brand.name,
    number: invoice.number,
    amount: mailMoney(invoice.amount_cents - invoice.paid_cents, invoice.currency, locale),
    due: mailDay(invoice.due_on, locale),
  };
  return {
    ...sender,
    to: doc.member.email,
    subject: fillText(tx.subject, p),
    ...brandedBody(brand, { paragraphs: [fillText(tx.hello, p), fillText(tx.body, p)], bye: tx.bye }),
    attachments: [{ filename: doc.filename, content: Buffer.from(doc.bytes), contentType: "application/pdf" }],
  };
}

/** Mails the invoice's PDF to its member; needs communication:edit besides finances:edit. */
export const sendInvoice = verb(["finances:edit", "communication:edit"], async (ctx: Ctx, input: { invoice_id: string }): Promise<InvoiceSent> => {
  const invoice = await invoiceRow(ctx.db.read, ctx.clubId, input.invoice_id);
  if (invoice.status === "cancelled") throw new Conflict("INVOICE_CANCELLED", { number: invoice.number });
  const message = await invoiceMail(ctx, invoice);
  try {
    await sendMail(ctx.mail, message);
  } catch (err) {
    throw new BadGateway("INVOICE_MAIL_FAILED", { reason: err instanceof Error ? err.message.slice(0, 300) : "unknown" });
  }
  return { sent: true, to: message.to, invoice: toInvoice(invoice, ctx.baseUrl) };
});
