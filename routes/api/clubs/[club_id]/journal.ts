// GET /api/clubs/[club_id]/journal — the period's double-entry journal, for the club's accountant (JSON, CSV, Banana, DATEV)
import { exportJournal, JournalJson, JournalQuery } from "../../../../lib/books/journal";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "Export the journal (JSON, CSV, Banana, DATEV)",
  operationId: "exportJournal",
  description: [
    "The double-entry lines of the period's payments on the club's accounts (`accounting_account_*`): a bank transfer or cash payment debits bank and credits revenue (memberships) or events (tickets); a card payment debits passage and credits revenue, then debits fees and credits passage for the provider's fee and the platform's commission; a refund is its payment's lines reversed. Each line: date, doc (the payment's receipt number), description, debit_account, credit_account, amount_cents, currency.",
    "`format`: `json` (lines and each account's totals: a trial balance summing to zero), `csv` (UTF-8 with BOM), `banana` (Banana Accounting's import: tab-separated UTF-8, header `Date Doc Description AccountDebit AccountCredit Amount`), `datev` (DATEV Buchungsstapel: EXTF header 700, category 21, Windows-1252, `;`, decimal comma; one calendar year per file; a text Windows-1252 lacks is written with the closest letters and a `Warning` header says so). The same period gives the same bytes.",
    "Days are UTC, `from` and `to` inclusive, at most 10 years.",
  ].join("\n\n"),
  tags: ["payments"],
  scope: exportJournal.scope,
  query: JournalQuery,
  response: JournalJson,
  raw: true,
  files: {
    "application/json": "The journal as JSON (`format=json`, default),",
    "text/csv": "as CSV (`format=csv`) or DATEV's Buchungsstapel (`format=datev`, Windows-1252),",
    "text/tab-separated-values": "or as Banana Accounting's import (`format=banana`).",
  },
  handler: ({ ctx, query }) => exportJournal(ctx, query),
});
