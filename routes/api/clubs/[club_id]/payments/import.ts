// POST /api/clubs/[club_id]/payments/import — record the payments of a bank statement (CSV, camt.053 or camt.054) by their references
import { csvFromBody } from "../../../../../lib/members/import";
import { importPayments } from "../../../../../lib/bank/import";
import { PaymentImportQuery, PaymentImportResult } from "../../../../../lib/bank/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Import a bank statement",
  operationId: "importBankStatement",
  description: [
    "Body: the statement as `text/csv` (columns date, amount, currency, reference, counterparty; headings in English, French, German or Italian; `;` or `,` between cells; amounts with `.` or `,` as the decimal mark) or as camt.053 or camt.054 XML (`application/xml`, ISO 20022 BkToCstmrStmt or BkToCstmrDbtCdtNtfctn). A line quoting an open invoice's QRR or RF reference is recorded on that invoice, whatever the amount: a part leaves it open, the payment that completes a membership invoice renews as mark-paid does, an overpayment is recorded and shown in `overpaid_cents`.",
    "A credit line whose RF creditor reference (check digits verified) names a member or an event registration of the club awaiting exactly that amount in that currency is recorded as mark-paid or confirm would (renewal, receipt mail, webhooks) and listed in `matched`. Every other line is listed in `unmatched` with its reason: a debit, no or a malformed reference, an unknown one, another amount or currency, already paid, nothing to pay, a line recorded by an earlier import. Nothing is guessed.",
    "A line is recorded once: importing the same statement again records nothing new. `dry_run=true` records nothing and answers what would be matched.",
  ].join("\n\n"),
  tags: ["payments"],
  scope: importPayments.scope,
  query: PaymentImportQuery,
  response: PaymentImportResult,
  bytes: true,
  requestBody: () => ({
    required: true,
    content: {
      "text/csv": {
        schema: { type: "string", description: "The bank's CSV export: date, amount, currency, reference, counterparty; `;` or `,` separated." },
        example: "Datum;Betrag;Währung;Referenz;Auftraggeber\n03.11.2026;50,00;CHF;RF18 5390 0754 7034;Noah Keller\n",
      },
      "application/xml": { schema: { type: "string", description: "An ISO 20022 camt.053 bank-to-customer statement." } },
    },
  }),
  handler: async ({ ctx, query, body }) => importPayments(ctx, { file: await csvFromBody(body), dry_run: query.dry_run }),
});
