// MCP tools for payments received: the bank statement import (the verb and shapes of POST
// payments/import), the ledger (GET payments) and the journal (GET journal).
import { z } from "zod";
import { importPayments } from "../../bank/import";
import { PaymentImportResult } from "../../bank/schemas";
import { AssistantJournal, JournalQuery, journalForAssistant } from "../../books/journal";
import { listPayments, PaymentList, PaymentListQuery } from "../../books/ledger";
import { t } from "../../i18n";
import { READ_ONLY, tool, WRITE } from "../tool";

export const import_bank_statement = tool({
  name: "import_bank_statement",
  title: "Import a bank statement",
  description:
    "Records the payments of a bank statement by their references (RF creditor references, and invoices' QR references). statement: the file's text, a CSV export (columns date, amount, currency, reference, counterparty; headings in English, French, German or Italian; ; or , separated; 12.50 or 12,50) or camt.053 / camt.054 XML. A credit line whose reference names a member or event registration awaiting exactly that amount is recorded (renewal, receipt mail) and listed in matched with member_id or registration_id; a line quoting an open invoice's reference is recorded on it whatever the amount (matched with invoice_id, invoice_status, overpaid_cents when over); every other line is in unmatched with its reason (AMOUNT_DIFFERS with expected_cents, REFERENCE_UNKNOWN, ALREADY_PAID...): nothing is guessed. Run with dry_run true first to show the treasurer; importing the same statement again records nothing twice.",
  input: z.object({
    statement: z.string().min(1).max(1_000_000).meta({ description: "The statement's text: CSV, or camt.053 or camt.054 XML." }),
    dry_run: z.boolean().default(false).meta({ description: "true: match and report, record nothing." }),
  }),
  annotations: { ...WRITE, idempotentHint: true },
  output: PaymentImportResult,
  scope: importPayments.scope,
  confirm: {
    preview: (ctx, input) => importPayments(ctx, { file: input.statement, dry_run: true }),
    question: (ctx, _input, would) =>
      t(ctx.locale, "CONFIRM_IMPORT_STATEMENT", {
        matched: (would.matched as unknown[]).length,
        lines: (would.matched as unknown[]).length + (would.unmatched as unknown[]).length,
      }),
    needless: (input) => input.dry_run,
  },
  run: (ctx, input) => importPayments(ctx, { file: input.statement, dry_run: input.dry_run }),
});

export const list_payments = tool({
  name: "list_payments",
  title: "List payments (the ledger)",
  description:
    "Lists the club's payments newest first, one page at a time (total, page, limit, items, totals): each with paid_at, amount_cents (negative: a refund), method, kind (membership, event, refund, other), provider_fee_cents, platform_commission_cents, net_cents, member_id, registration_id, reference and description. Filter by from and to (UTC days YYYY-MM-DD, inclusive), method, kind, member_id. totals sums every payment the filter keeps (all pages): for a month it is club_stats' revenue.",
  input: PaymentListQuery,
  annotations: READ_ONLY,
  output: PaymentList,
  scope: listPayments.scope,
  run: (ctx, input) => listPayments(ctx, input),
});

export const export_journal = tool({
  name: "export_journal",
  title: "Export the accounting journal",
  description:
    "The double-entry journal of a period (from, to: UTC days YYYY-MM-DD, inclusive, at most 10 years) on the club's accounts (accounting_account_*): bank transfers and cash debit bank and credit revenue (events for tickets); card payments debit passage, with the provider's fee and the platform's commission from passage to fees; refunds reversed. Answers each account's totals (a trial balance summing to zero), line_count and url (the file to download with the same key). format json gives the lines, csv and banana (Banana Accounting's import) the file's text, up to 500 lines; datev (DATEV Buchungsstapel, Windows-1252, one calendar year) only the url.",
  input: JournalQuery,
  annotations: READ_ONLY,
  output: AssistantJournal,
  scope: journalForAssistant.scope,
  run: (ctx, input) => journalForAssistant(ctx, input),
});
