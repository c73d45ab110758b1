// /admin/payments/import — the bank statement uploaded by the treasurer (DESIGN.md section 20,
// "Paying an invoice"): the file (camt.053, camt.054 or the API's CSV) goes to importPayments,
// the verb of POST payments/import and of the MCP tool import_bank_statement, with its scope and
// its refusals (a file that is no statement: 422 beside the field, nothing recorded). No preview:
// the verb records only lines whose reference is exactly an invoice's, a member's or a
// registration's, and each line once (its statement line key), so sending the file again records
// nothing twice (docs/decisions.md, stmt27). The answer lists what the file did: invoices paid
// (now paid, or partly), other payments, overpayments, lines imported before, lines not matched.
import { importPayments } from "../../lib/bank/import";
import type { PaymentImportResult } from "../../lib/bank/schemas";
import { fill, plural } from "../../lib/i18n/dashboard";
import { INVOICES_TEXTS } from "../../lib/i18n/dashboard-invoices";
import { STATEMENT_TEXTS, type StatementTexts } from "../../lib/i18n/dashboard-statement";
import type { Locale } from "../../lib/i18n";
import { invoiceMemberNames, type InvoiceNamed, namedInvoicesById } from "../../lib/invoices/named";
import { listMembers } from "../../lib/members";
import { FieldNotes, NO_PROBLEMS, type Problems, problemsOf } from "../components/form";
import { RecordTable } from "../components/record-table";
import { day, money } from "../format";
import { Fragment, h, type Html, raw } from "../jsx";
import { clubOf, CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";

export const STATEMENT_PATH = "/admin/payments/import";

/** A column of a result's table: its heading and classes (`num`, `wrap`, `nowrap`, `hide-small`). */
const col = (label: string, classes: string) => ({ label, class: classes });

type Matched = PaymentImportResult["matched"][number];
type Missed = PaymentImportResult["unmatched"][number];

function UploadForm(props: { input: PageInput; tt: StatementTexts; error?: string }): Html {
  const { tt, error } = props;
  const id = "f-file";
  return (
    <form method="post" action={`${STATEMENT_PATH}#statement-result`} enctype="multipart/form-data" class="card">
      <CsrfField token={props.input.csrf} />
      <div class="field">
        <label for={id}>{tt.file}</label>
        <input
          id={id}
          name="file"
          type="file"
          accept=".xml,.csv,.txt,application/xml,text/xml,text/csv,text/plain"
          required
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        />
        <FieldNotes id={id} hint={tt.fileHint} error={error} />
      </div>
      <div class="actions">
        <button type="submit">{tt.submit}</button>
      </div>
    </form>
  );
}

/** A section of the result under its heading; nothing when it has no row. */
function Part(props: { id: string; title: string; hint?: string; rows: number; children?: Html }): Html {
  if (!props.rows) return raw("");
  return (
    <section aria-labelledby={props.id}>
      <h3 id={props.id}>{props.title}</h3>
      {props.hint ? <p class="muted">{props.hint}</p> : null}
      {props.children}
    </section>
  );
}

/** What the upload did, line by line, in the treasurer's words. */
async function Result(props: { input: PageInput; result: PaymentImportResult }): Promise<Html> {
  const { input, result } = props;
  const { locale } = input;
  const tt = STATEMENT_TEXTS[locale];
  const currency = clubOf(input.admin).currency;
  const cash = (cents: number, ccy: string | null) => money(cents, ccy ?? currency, locale);
  const invoiceLines = result.matched.filter((m) => m.invoice_id);
  const otherLines = result.matched.filter((m) => !m.invoice_id);
  const before = result.unmatched.filter((u) => u.reason === "STATEMENT_LINE_ALREADY_RECORDED");
  const unmatched = result.unmatched.filter((u) => u.reason !== "STATEMENT_LINE_ALREADY_RECORDED");
  const invoices = await namedInvoicesById(input.ctx, { invoice_ids: invoiceLines.map((m) => m.invoice_id as string) });
  const names = await invoiceMemberNames(input.ctx, { member_ids: otherLines.flatMap((m) => (m.member_id ? [m.member_id] : [])) });
  const canSeeMembers = input.can(listMembers.scope);
  const erased = INVOICES_TEXTS[locale].erased;
  const memberCell = (id: string | undefined, name: string | null | undefined) =>
    !id || !name ? erased : canSeeMembers ? <a href={`/admin/members/${id}`}>{name}</a> : name;
  /** An invoice line's invoice (number, member) as the first cells of a row, and the invoice's currency. */
  const paidInvoice = (m: Matched) => {
    const inv: InvoiceNamed | undefined = invoices.get(m.invoice_id as string);
    return { inv, ccy: inv?.currency ?? m.currency, cells: [inv?.number ?? "", memberCell(m.member_id, inv?.member_name)] };
  };
  const amountColumn = { label: tt.amount, class: "num" };
  const whose = [
    { label: tt.invoice, class: "nowrap" },
    { label: tt.member, class: "wrap" },
  ];
  const overpaid = invoiceLines.filter((m) => m.overpaid_cents);
  const recorded = result.matched.length;
  return (
    <section id="statement-result" class="card" aria-labelledby="statement-result-title">
      <h2 id="statement-result-title">{recorded ? tt.doneTitle : tt.nothingTitle}</h2>
      <p role="status">
        {fill(tt.summary, {
          lines: plural(locale, tt.lines, recorded + result.unmatched.length),
          format: result.format,
          recorded,
          before: before.length,
          unmatched: unmatched.length,
        })}
      </p>
      <Part id="statement-invoices" title={tt.invoicesPaid} rows={invoiceLines.length}>
        <RecordTable
          compact
          columns={[{ label: tt.line, class: "num hide-small" }, ...whose, amountColumn, { label: tt.invoiceNow, class: "wrap" }]}
          rows={invoiceLines.map((m) => {
            const { inv, ccy, cells } = paidInvoice(m);
            const now =
              m.invoice_status === "paid"
                ? tt.nowPaid
                : fill(tt.nowPartly, { paid: cash(m.invoice_paid_cents ?? 0, ccy), total: inv ? cash(inv.amount_cents, inv.currency) : "" });
            return [String(m.line), ...cells, cash(m.amount_cents, ccy), now];
          })}
        />
      </Part>
      <Part id="statement-overpaid" title={tt.overpaid} hint={tt.overpaidHint} rows={overpaid.length}>
        <RecordTable
          compact
          columns={[...whose, { label: tt.received, class: "num" }, { label: tt.invoiced, class: "num" }, { label: tt.over, class: "num" }]}
          rows={overpaid.map((m) => {
            const { inv, ccy, cells } = paidInvoice(m);
            return [...cells, cash(m.invoice_paid_cents ?? 0, ccy), inv ? cash(inv.amount_cents, inv.currency) : "", cash(m.overpaid_cents ?? 0, ccy)];
          })}
        />
      </Part>
      <Part id="statement-others" title={tt.othersPaid} rows={otherLines.length}>
        <RecordTable
          compact
          columns={[{ label: tt.line, class: "num hide-small" }, { label: tt.date, class: "nowrap" }, { label: tt.paidFor, class: "wrap" }, amountColumn]}
          rows={otherLines.map((m) => [
            String(m.line),
            day(m.date, locale),
            m.member_id
              ? fill(tt.membership, { name: names.get(m.member_id) ?? erased })
              : m.registration_id
                ? tt.registration
                : fill(tt.payout, { id: m.payout_id ?? "" }),
            cash(m.amount_cents, m.currency),
          ])}
        />
      </Part>
      <Part id="statement-before" title={tt.before} hint={tt.beforeHint} rows={before.length}>
        <Lines lines={before} tt={tt} locale={locale} cash={cash} reasons={false} />
      </Part>
      <Part id="statement-unmatched" title={tt.unmatched} hint={tt.unmatchedHint} rows={unmatched.length}>
        <Lines lines={unmatched} tt={tt} locale={locale} cash={cash} reasons />
      </Part>
      <p>
        <a href="/admin/invoices">{tt.toInvoices}</a>
      </p>
    </section>
  );
}

/** Lines the import left as they were: as the bank wrote them, with the verb's reason (in the club's language). */
function Lines(props: { lines: Missed[]; tt: StatementTexts; locale: Locale; cash: (cents: number, ccy: string | null) => string; reasons: boolean }): Html {
  const { tt } = props;
  return (
    <RecordTable
      columns={[
        ...[col(tt.line, "num"), col(tt.date, "nowrap"), col(tt.amount, "num"), col(tt.reference, "wrap"), col(tt.counterparty, "wrap")],
        ...(props.reasons ? [col(tt.reason, "wrap")] : []),
      ]}
      rows={props.lines.map((u) => [
        String(u.line),
        day(u.date, props.locale),
        u.amount_cents === null ? "—" : props.cash(u.amount_cents, u.currency),
        u.reference ? <code>{u.reference}</code> : "—",
        u.counterparty ?? "—",
        ...(props.reasons ? [u.detail] : []),
      ])}
    />
  );
}

async function statementPage(input: PageInput, problems: Problems, result: PaymentImportResult | null = null): Promise<Response> {
  const tt = STATEMENT_TEXTS[input.locale];
  const error = problems.message ?? (Object.values(problems.fields).join(" ") || undefined);
  return input.page(
    tt.title,
    <Fragment>
      <p>{tt.intro}</p>
      <UploadForm input={input} tt={tt} error={error} />
      {result ? await Result({ input, result }) : null}
    </Fragment>,
    { status: problems.status },
  );
}

/** POST: the file to the API's verb; its refusal (no statement) beside the field, nothing recorded. */
async function upload(input: PageInput): Promise<Response> {
  const file = input.form?.get("file");
  if (!(file instanceof File) || file.size === 0) return statementPage(input, { status: 422, fields: {}, message: STATEMENT_TEXTS[input.locale].chooseFile });
  try {
    const result = await importPayments(input.ctx, { file: new Uint8Array(await file.arrayBuffer()) });
    return statementPage(input, NO_PROBLEMS, result);
  } catch (err) {
    return statementPage(input, problemsOf(err, input.locale));
  }
}

export default definePage({
  routes: [
    { method: "GET", path: "/payments/import", scope: importPayments.scope, handler: (input) => statementPage(input, NO_PROBLEMS) },
    { method: "POST", path: "/payments/import", scope: importPayments.scope, handler: upload },
  ],
});
