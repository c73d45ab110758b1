// MCP tools for payments received: the bank statement import, the verb and shapes of POST
// payments/import.
import { z } from "zod";
import { importPayments } from "../../bank/import";
import { PaymentImportResult } from "../../bank/schemas";
import { tool, WRITE } from "../tool";

export const import_bank_statement = tool({
  name: "import_bank_statement",
  title: "Import a bank statement",
  description:
    "Records the payments of a bank statement by their RF creditor references. statement: the file's text, a CSV export (columns date, amount, currency, reference, counterparty; headings in English, French, German or Italian; ; or , separated; 12.50 or 12,50) or camt.053 XML. A credit line whose reference names a member or event registration awaiting exactly that amount is recorded (renewal, receipt mail) and listed in matched with member_id or registration_id; every other line is in unmatched with its reason (AMOUNT_DIFFERS with expected_cents, REFERENCE_UNKNOWN, ALREADY_PAID...): nothing is guessed. Run with dry_run true first to show the treasurer; importing the same statement again records nothing twice.",
  input: z.object({
    statement: z.string().min(1).max(1_000_000).meta({ description: "The statement's text: CSV, or camt.053 XML." }),
    dry_run: z.boolean().default(false).meta({ description: "true: match and report, record nothing." }),
  }),
  annotations: { ...WRITE, idempotentHint: true },
  output: PaymentImportResult,
  run: (ctx, input) => importPayments(ctx, { file: input.statement, dry_run: input.dry_run }),
});
