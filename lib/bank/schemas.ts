// The shapes of the bank statement import (POST payments/import, MCP import_bank_statement).
import { z } from "zod";

export const PaymentImportQuery = z.object({
  dry_run: z.stringbool().default(false).meta({ description: "Match and report without recording anything." }),
});

const StatementLineFields = {
  line: z.int().meta({ description: "The line of the file the statement line starts on." }),
  date: z.string().nullable().meta({ description: "Booking date (YYYY-MM-DD), as read." }),
  amount_cents: z.int().nullable().meta({ description: "Amount received, in cents, as read." }),
  currency: z.string().nullable(),
  reference: z.string().meta({ description: "The reference as read (spaces out, upper case); empty when none." }),
  counterparty: z.string().nullable(),
};

export const PaymentImportMatch = z.object({
  ...StatementLineFields,
  amount_cents: z.int(),
  member_id: z.uuid().optional().meta({ description: "The member whose membership the line pays (mark-paid)." }),
  registration_id: z.uuid().optional().meta({ description: "The event registration the line pays (confirm)." }),
  invoice_id: z.uuid().optional().meta({ description: "The invoice whose QRR or RF reference the line quotes: any amount is recorded on it." }),
  invoice_status: z
    .enum(["open", "paid"])
    .optional()
    .meta({ description: "The invoice after the line: `open` while partly paid, `paid` once covered (a membership invoice renews then, as mark-paid)." }),
  invoice_paid_cents: z.int().optional().meta({ description: "What the invoice has received in all, this line included." }),
  payout_id: z.string().optional().meta({
    description:
      "A Stripe payout reaching the bank (the line quotes its `po_...` id, or names Stripe and matches a recorded payout's amount within 5 days): its id.",
  }),
  payout_recorded: z.boolean().optional().meta({
    description:
      "With payout_id: true when the payout was recorded from this line (Stripe's payout.paid had not), false when the line was matched to the payout recorded.",
  }),
  overpaid_cents: z
    .int()
    .optional()
    .meta({ description: "Present when the invoice has received more than its amount: by how much. The money is recorded, never dropped." }),
});

export const PaymentImportMiss = z.object({
  ...StatementLineFields,
  reason: z
    .enum([
      "LINE_UNREADABLE",
      "LINE_NOT_CREDIT",
      "REFERENCE_MISSING",
      "REFERENCE_INVALID",
      "REFERENCE_UNKNOWN",
      "CURRENCY_DIFFERS",
      "AMOUNT_DIFFERS",
      "ALREADY_PAID",
      "NOT_PAYABLE",
      "STATEMENT_LINE_ALREADY_RECORDED",
      "PAYOUT_NOT_RECORDED",
    ])
    .meta({ description: "Why the line was not matched (stable code)." }),
  detail: z.string().meta({ description: "The reason in the club's language." }),
  expected_cents: z.int().optional().meta({ description: "With AMOUNT_DIFFERS: the amount the reference calls for." }),
});

export const PaymentImportResult = z
  .object({
    format: z.enum(["csv", "camt.053", "camt.054"]),
    dry_run: z.boolean(),
    matched: z.array(PaymentImportMatch).meta({
      description:
        "Lines whose reference names a member or registration awaiting exactly that amount, or an open invoice (any amount): recorded (unless dry_run).",
    }),
    unmatched: z.array(PaymentImportMiss).meta({ description: "Lines left for the treasurer, with the reason; nothing is guessed." }),
  })
  .meta({ id: "PaymentImportResult" });

export type PaymentImportResult = z.output<typeof PaymentImportResult>;
export type PaymentImportMiss = z.output<typeof PaymentImportMiss>;
