// MCP tools for invoices (DESIGN.md section 20): the verbs and shapes of GET and POST invoices, of
// POST invoices/<id>/actions/send and of POST invoices/run (a dry run unless confirmed).
import { z } from "zod";
import { createInvoice, listInvoices } from "../../invoices";
import { runDues } from "../../dues/run";
import { DuesRun, DuesRunRequest, Invoice, InvoiceCreate, InvoiceList, InvoiceListQuery, InvoiceSent } from "../../invoices/schemas";
import { sendInvoice } from "../../invoices/send";
import { t } from "../../i18n";
import type { Ctx } from "../../context";
import { invoice_pdf, resourceUriOf } from "../resources";
import { READ_ONLY, type ResourceLink, tool, WRITE } from "../tool";

/** An invoice's PDF as a resource the assistant can read (resources/read), beside its https pdf_url. */
const pdfLink = (ctx: Ctx, invoice: Pick<Invoice, "id" | "number">): ResourceLink => ({
  uri: resourceUriOf(ctx.clubId, invoice_pdf, { invoice_id: invoice.id }),
  name: `invoice-${invoice.number}.pdf`,
  title: `Invoice ${invoice.number}`,
  mimeType: "application/pdf",
});

export const list_invoices = tool({
  name: "list_invoices",
  title: "List invoices",
  description:
    "The club's invoices, newest first, with number (YYYY-NNNN), member_id, lines, amount_cents, currency, issued_on, due_on, status (open, paid, cancelled), overdue, paid_cents, reference and pdf_url. Filters: status, overdue ('true': open and past due_on), member_id, from and to (issue dates, inclusive). Paged: page, limit.",
  input: InvoiceListQuery,
  annotations: READ_ONLY,
  output: InvoiceList,
  links: (ctx, result) => (result as InvoiceList).items.map((invoice) => pdfLink(ctx, invoice)),
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
  links: (ctx, result) => [pdfLink(ctx, result as Invoice)],
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

export const run_invoices = tool({
  name: "run_invoices",
  title: "Run the dues",
  description:
    "The season's dues: one membership invoice for each paid member whose membership ends before until (YYYY-MM-DD; only tier_ids' members when given) and who has no open membership invoice nor one for that period, at their tier's price (else the club's fee) less their referral credit. Answers created, totals per currency, skipped by reason and a sample. dry_run true changes nothing and answers what it would make; a real run asks the user first (confirm). A second run makes none. The invoices are not mailed: send_invoice does.",
  input: DuesRunRequest,
  annotations: WRITE,
  output: DuesRun,
  scope: runDues.scope,
  task: true,
  confirm: {
    preview: (ctx, input) => runDues(ctx, { ...input, dry_run: true }),
    question: (ctx, _input, would) => t(ctx.locale, "CONFIRM_RUN_INVOICES", { count: Number(would.created), totals: totalsText(would as DuesRun) }),
    needless: (input) => input.dry_run,
  },
  run: (ctx, input, progress) => runDues(ctx, { ...input, onProgress: progress }),
});

/** "CHF 1,234.00 + EUR 50.00": what a run would invoice, for the question. */
const totalsText = (run: DuesRun) => run.totals.map((x) => `${x.currency} ${(x.amount_cents / 100).toFixed(2)}`).join(" + ") || "0";
