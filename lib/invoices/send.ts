// Sending an invoice (POST .../invoices/<id>/actions/send, DESIGN.md section 20): the member is
// mailed, in the club's language, a short note with the invoice's PDF attached. Sent at once,
// outside any transaction, like the card email: the caller learns whether the mail server took
// it (502 if not). A cancelled invoice is not sent (409); nor is one whose member was erased.
// The mails that go with a change (a dunning level, a renewal reminder with its invoice) are
// queued in the change's transaction instead (`queueInvoiceMail`): a job's payload holds no file,
// so the job draws the PDF when it sends, as the invoice then stands.
import { and, eq } from "drizzle-orm";
import type { Queryable } from "../../db";
import { invoices } from "../../db/schema";
import type { ClubRow } from "../clubs/internal";
import { type Ctx, verb } from "../context";
import { BadGateway, Conflict } from "../errors";
import { INVOICE_TEXTS } from "../i18n/invoices";
import { enqueueJob, type JobKind, type JobKinds, TemporaryFailure } from "../jobs";
import { type MailMessage, sendMail } from "../mail";
import { brandedBody, fillText } from "../mail/layout";
import { clubMailLook, mailDay, mailMoney } from "../mail/look";
import { type InvoiceRow, invoiceRow, toInvoice } from "./index";
import { invoiceDocument } from "./pdf";
import type { Invoice } from "./schemas";

export type InvoiceSent = { sent: true; to: string; invoice: Invoice };
type Recipient = { first_name: string; email: string };
type Note = Omit<MailMessage, "attachments">;

/** The placeholders of an invoice's mails: the member's first name, the club, number, what is left to pay, the due date. */
export function invoiceMailParams(club: ClubRow, baseUrl: string, member: Recipient, invoice: InvoiceRow) {
  const look = clubMailLook(baseUrl, club);
  const params = {
    first: member.first_name,
    club: look.brand.name,
    number: invoice.number,
    amount: mailMoney(invoice.amount_cents - invoice.paid_cents, invoice.currency, look.locale),
    due: mailDay(invoice.due_on, look.locale),
  };
  return { ...look, params };
}

/** The note that carries an invoice (its first sending), without the PDF. */
function invoiceNote(club: ClubRow, baseUrl: string, member: Recipient, invoice: InvoiceRow): Note {
  const { locale, sender, brand, params } = invoiceMailParams(club, baseUrl, member, invoice);
  const tx = INVOICE_TEXTS[locale].mail;
  return {
    ...sender,
    to: member.email,
    subject: fillText(tx.subject, params),
    ...brandedBody(brand, { paragraphs: [fillText(tx.hello, params), fillText(tx.body, params)], bye: tx.bye }),
  };
}

const pdfAttachment = (doc: { filename: string; bytes: Uint8Array }) => ({
  filename: doc.filename,
  content: Buffer.from(doc.bytes),
  contentType: "application/pdf",
});

/** The mail of `invoice` with its PDF, as sent. */
export async function invoiceMail(ctx: Pick<Ctx, "db" | "baseUrl">, invoice: InvoiceRow) {
  const doc = await invoiceDocument(ctx.db, invoice);
  if (!doc.member) throw new Conflict("INVOICE_NO_RECIPIENT", { number: invoice.number });
  return { ...invoiceNote(doc.club, ctx.baseUrl, doc.member, invoice), attachments: [pdfAttachment(doc)] };
}

type InvoiceRef = { invoice_id: string };

/** Mails the invoice's PDF to its member; needs communication:edit besides finances:edit. */
export const sendInvoice = verb(["finances:edit", "communication:edit"], async function sendInvoice(ctx: Ctx, input: InvoiceRef): Promise<InvoiceSent> {
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

export const INVOICE_MAIL = "invoice_mail";

/**
 * Queues inside `t` the mail `note` with invoice `invoiceId`'s PDF attached when it goes out: it
 * exists if and only if the change commits. `reminder`: a dunning mail, not sent once the invoice
 * is paid or cancelled (a cancelled or paid invoice is never reminded).
 */
export async function queueInvoiceMail(t: Queryable, clubId: string, invoiceId: string, note: Note, options: { reminder?: boolean } = {}): Promise<void> {
  await enqueueJob(t, { clubId, kind: INVOICE_MAIL, payload: { invoice_id: invoiceId, message: note, reminder: !!options.reminder } });
}

/** Sends a queued invoice mail with the PDF drawn now; a refusal or an unreachable server is retried with the job's back-off. */
export const invoiceMailJob: JobKind = {
  orderKey: (job) => `${INVOICE_MAIL}:${job.id}`,
  run: async (db, job, env) => {
    const { invoice_id, message, reminder } = job.payload as { invoice_id: string; message: Note; reminder: boolean };
    const [row] = await db.read
      .select()
      .from(invoices)
      .where(and(eq(invoices.club_id, job.club_id), eq(invoices.id, invoice_id)))
      .limit(1);
    if (!row) return "invoice gone: not sent";
    if (reminder && row.status !== "open") return `invoice ${row.status} meanwhile: reminder not sent`;
    const doc = await invoiceDocument(db, row);
    try {
      const sent = await sendMail({ smtpUrl: env.config.smtpUrl, outboxDir: env.config.outboxDir }, { ...message, attachments: [pdfAttachment(doc)] });
      return `${sent.via} ${sent.messageId}`;
    } catch (err) {
      throw new TemporaryFailure(err instanceof Error ? err.message.slice(0, 300) : "mail failed");
    }
  },
};

export const INVOICE_JOBS: JobKinds = { [INVOICE_MAIL]: invoiceMailJob };
