// /admin/invoices — the club's invoices (DESIGN.md section 20): tabs open / overdue / paid /
// cancelled / all, in pages, each with its PDF and the actions send and cancel (asked first); a
// new invoice for a member (a tier's fee and/or lines); the ways an invoice gets paid: the bank
// statement's page (dashboard/pages/payments-import.tsx), or the member page's "record a payment"
// (mark-paid, which pays the member's open membership invoice). Each is the API's verb with its scope:
// listInvoices, invoicePdf, sendInvoice, cancelInvoice, createInvoice. The member page's section
// of the member's invoices (dashboard/pages/member.tsx) uses the pieces exported here.
import { importPayments } from "../../lib/bank/import";
import { STATEMENT_TEXTS } from "../../lib/i18n/dashboard-statement";
import { createInvoice } from "../../lib/invoices";
import { listNamedInvoices, invoiceMemberNames } from "../../lib/invoices/named";
import { invoicePdf } from "../../lib/invoices/pdf";
import { runDues } from "../../lib/dues/run";
import { type Invoice, InvoiceCreate } from "../../lib/invoices/schemas";
import { sendInvoice } from "../../lib/invoices/send";
import { cancelInvoice } from "../../lib/invoices";
import { fill, plural } from "../../lib/i18n/dashboard";
import { INVOICE_TABS, INVOICES_TEXTS, type InvoicesTab, type InvoicesTexts } from "../../lib/i18n/dashboard-invoices";
import { listMembers, markMemberPaid } from "../../lib/members";
import { exportMemberData } from "../../lib/members/history";
import { listTiers } from "../../lib/tiers";
import { replyResponse } from "../../http/reply";
import { cents, check, doneOf, Field, Notice, NO_PROBLEMS, type Problems, problemsOf, Select, textFields, textOf } from "../components/form";
import { RecordTable } from "../components/record-table";
import { Pager } from "../components/pager";
import { day, money } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { clubOf, CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";
import { STATEMENT_PATH } from "./payments-import";

const PAGE_SIZE = 50;
/** Blank lines offered on a new invoice. */
const LINES = 3;

/** The filters of each tab, as GET invoices takes them. */
const TAB_QUERY: Record<InvoicesTab, { status?: Invoice["status"]; overdue?: "true" }> = {
  open: { status: "open" },
  overdue: { overdue: "true" },
  paid: { status: "paid" },
  cancelled: { status: "cancelled" },
  all: {},
};

/** An invoice's state as a badge: open past its due date reads overdue. */
export function InvoiceState(props: { invoice: Pick<Invoice, "status" | "overdue">; tt: InvoicesTexts }): Html {
  const state = props.invoice.overdue ? "overdue" : props.invoice.status;
  const look = { open: "pending", overdue: "suspended", paid: "active", cancelled: "expired" }[state];
  return <span class={`status status-${look}`}>{props.tt.states[state]}</span>;
}

/** The dashboard's address of an invoice's PDF (the API's needs a key; this one the session). */
export const invoicePdfPath = (id: string) => `/admin/invoices/${id}/pdf`;

/** The link to an invoice's PDF, named after the invoice. */
export function PdfLink(props: { invoice: Pick<Invoice, "id" | "number">; tt: InvoicesTexts }): Html {
  return (
    <a href={invoicePdfPath(props.invoice.id)} aria-label={fill(props.tt.pdfOf, { number: props.invoice.number })}>
      {props.tt.pdf}
    </a>
  );
}

function tabOf(query: URLSearchParams): InvoicesTab {
  const show = query.get("show");
  return (INVOICE_TABS as readonly string[]).includes(show ?? "") ? (show as InvoicesTab) : "open";
}

function pageOf(query: URLSearchParams): number {
  const page = Number(query.get("page"));
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

function listLink(tab: InvoicesTab, page: number): string {
  return `/admin/invoices?show=${tab}${page > 1 ? `&page=${page}` : ""}`;
}

/** The list an action came from (a hidden field of its form), or the open tab: only a list of this page, nothing else. */
function backOf(form: FormData | null): URLSearchParams {
  const back = textOf(form, "back");
  const m = /^\/admin\/invoices\?([\w=&-]{0,100})$/.exec(back);
  return new URLSearchParams(m ? m[1] : "");
}

async function list(input: PageInput, problems: Problems = NO_PROBLEMS, query = input.query): Promise<Response> {
  const { ctx, locale, t } = input;
  const tt = INVOICES_TEXTS[locale];
  const tab = tabOf(query);
  const page = pageOf(query);
  const result = await listNamedInvoices(ctx, { ...TAB_QUERY[tab], page, limit: PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
  const here = listLink(tab, page);
  const canSend = input.can(sendInvoice.scope);
  const canCancel = input.can(cancelInvoice.scope);
  const canSeeMembers = input.can(listMembers.scope);
  const canUpload = input.can(importPayments.scope);
  // By hand: the member page's "record a payment" (mark-paid pays the member's oldest open membership invoice).
  const canRecord = input.can(markMemberPaid.scope) && input.can(exportMemberData.scope);
  /** A row's button: its form posts to the action, with the list to come back to. */
  const button = (i: Invoice, name: "send" | "cancel", confirm?: string) => (
    <form method="post" action={`/admin/invoices/${i.id}/${name}`} class="inline" data-confirm={confirm}>
      <CsrfField token={input.csrf} />
      <input type="hidden" name="back" value={here} />
      <button type="submit" class={name === "send" ? "secondary" : "danger"} aria-label={fill(name === "send" ? tt.sendOf : tt.cancelOf, { number: i.number })}>
        {name === "send" ? tt.send : tt.cancel}
      </button>
    </form>
  );
  const rowActions = (i: Invoice) => (
    <div class="row-actions">
      <PdfLink invoice={i} tt={tt} />
      {canSend && i.status !== "cancelled" ? button(i, "send") : null}
      {canCancel && i.status === "open" && i.paid_cents === 0 ? button(i, "cancel", fill(tt.cancelConfirm, { number: i.number })) : null}
      {canRecord && i.status === "open" && i.kind === "membership" ? (
        <a href={`/admin/members/${i.member_id}#a-mark-paid`} aria-label={fill(tt.recordPaymentOf, { number: i.number })}>
          {tt.recordPayment}
        </a>
      ) : null}
    </div>
  );
  return input.page(
    t.nav.invoices,
    <Fragment>
      <Notice error={problems.message} done={problems.message ? null : doneOf(query, tt.done)} />
      <p>{tt.intro}</p>
      <p>
        {tt.paidBy} {canUpload ? <a href={STATEMENT_PATH}>{STATEMENT_TEXTS[locale].title}</a> : null}
      </p>
      <p>{tt.byHand}</p>
      {input.can(createInvoice.scope) ? (
        <div class="actions">
          <a class="button" href="/admin/invoices/new">
            {tt.add}
          </a>
          {/* The dues run (POST invoices/run): dashboard/pages/invoices-run.tsx. */}
          {input.can(runDues.scope) ? (
            <a class="button secondary" href="/admin/invoices/run">
              {tt.run.title}
            </a>
          ) : null}
        </div>
      ) : null}
      <nav class="tabs" aria-label={tt.tabsLabel}>
        {INVOICE_TABS.map((name) => (
          <a href={listLink(name, 1)} aria-current={name === tab ? "page" : undefined}>
            {tt.tabs[name]}
          </a>
        ))}
      </nav>
      <p class="muted" role="status">
        {plural(locale, tt.found, result.total)}
      </p>
      {result.items.length ? (
        <RecordTable
          compact
          columns={[
            { label: tt.number, class: "nowrap" },
            { label: tt.member, class: "wrap" },
            { label: tt.issued, class: "nowrap hide-small" },
            { label: tt.due, class: "nowrap" },
            { label: tt.amount, class: "num" },
            { label: tt.paid, class: "num" },
            { label: tt.status },
            { label: tt.dunning, class: "num" },
            { label: tt.actions, actions: true },
          ]}
          rows={result.items.map((i) => [
            i.number,
            i.member_name === null ? tt.erased : canSeeMembers ? <a href={`/admin/members/${i.member_id}`}>{i.member_name}</a> : i.member_name,
            day(i.issued_on, locale),
            day(i.due_on, locale),
            money(i.amount_cents, i.currency, locale),
            money(i.paid_cents, i.currency, locale),
            <InvoiceState invoice={i} tt={tt} />,
            String(i.dunning_level),
            rowActions(i),
          ])}
        />
      ) : (
        <p class="card">{tt.empty}</p>
      )}
      {pages > 1 ? <Pager t={t} page={page} pages={pages} link={(p) => listLink(tab, p)} /> : null}
    </Fragment>,
    { status: problems.status },
  );
}

/** POST .../send and .../cancel: the verb, then back to the list it came from; a refusal is shown on that list in the club's language. */
function actionRoute(name: "send" | "cancel") {
  const verb = name === "send" ? sendInvoice : cancelInvoice;
  return {
    method: "POST" as const,
    path: `/invoices/:invoice_id/${name}`,
    scope: verb.scope,
    async handler(input: PageInput): Promise<Response> {
      const back = backOf(input.form);
      try {
        await verb(input.ctx, { invoice_id: input.params.invoice_id });
      } catch (err) {
        return list(input, problemsOf(err, input.locale), back);
      }
      back.set("done", name === "send" ? "sent" : "cancelled");
      return input.redirect(`/admin/invoices?${back}`);
    },
  };
}

async function pdfFile(input: PageInput): Promise<Response> {
  return replyResponse(await invoicePdf(input.ctx, { invoice_id: input.params.invoice_id }));
}

// ---- A new invoice ----

type NewValues = { member_id: string; tier_id: string; due_on: string; lines: { label: string; amount: string }[] };

function readNew(form: FormData | null, query: URLSearchParams): NewValues {
  const f = textFields(form, ["member_id", "tier_id", "due_on"]);
  const lines = Array.from({ length: LINES }, (_, i) => ({ label: textOf(form, `line${i}_label`), amount: textOf(form, `line${i}_amount`) }));
  return { member_id: f.member_id ?? query.get("member_id")?.trim().toLowerCase() ?? "", tier_id: f.tier_id ?? "", due_on: f.due_on ?? "", lines };
}

/** The member chooser: a search among the members (members:view), each found one a link to the form for them. */
async function MemberChooser(props: { input: PageInput; tt: InvoicesTexts; error?: string }): Promise<Html> {
  const { input, tt } = props;
  const search = input.query.get("search")?.trim().slice(0, 200) ?? "";
  const found = search ? await listMembers(input.ctx, { search, limit: 10 }) : null;
  return (
    <section class="card" aria-labelledby="choose">
      <h2 id="choose">{tt.chooseMember}</h2>
      {props.error ? <Notice error={props.error} /> : null}
      <form method="get" action="/admin/invoices/new" class="filters">
        <Field name="search" label={tt.search} value={search} autocomplete="off" />
        <button type="submit">{tt.searchButton}</button>
      </form>
      {found ? (
        found.items.length ? (
          <ul class="choices">
            {found.items.map((m) => (
              <li>
                <a href={`/admin/invoices/new?member_id=${m.id}`}>
                  {m.first_name} {m.last_name}
                </a>{" "}
                <span class="muted">{m.email}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p role="status">{tt.noMatch}</p>
        )
      ) : null}
    </section>
  );
}

async function newForm(input: PageInput, values: NewValues, problems: Problems): Promise<Response> {
  const tt = INVOICES_TEXTS[input.locale];
  const names = values.member_id ? await invoiceMemberNames(input.ctx, { member_ids: [values.member_id] }) : new Map<string, string>();
  const name = names.get(values.member_id);
  // No member chosen yet (or one not of the club): the search first.
  if (!name) {
    if (input.can(listMembers.scope)) {
      const error = values.member_id ? (problems.fields.member_id ?? input.t.notFoundText) : undefined;
      return input.page(tt.newTitle, await MemberChooser({ input, tt, error }), { status: values.member_id ? 404 : 200 });
    }
    return input.page(tt.newTitle, <Notice error={input.t.notFoundText} />, { status: 404 });
  }
  const currency = clubOf(input.admin).currency;
  const tiers = input.can(listTiers.scope) ? await listTiers(input.ctx, {}) : [];
  return input.page(
    fill(tt.newFor, { name }),
    <form method="post" action="/admin/invoices/new" class="card" novalidate>
      <Notice error={problems.message} />
      <CsrfField token={input.csrf} />
      <input type="hidden" name="member_id" value={values.member_id} />
      {tiers.length ? (
        <Select
          name="tier_id"
          label={tt.tier}
          hint={tt.tierHint}
          value={values.tier_id}
          error={problems.fields.tier_id}
          options={[
            { value: "", label: tt.noTier },
            ...tiers.map((tier) => ({ value: tier.id, label: `${tier.name} · ${money(tier.price_cents, tier.currency, input.locale)}` })),
          ]}
        />
      ) : null}
      <fieldset aria-describedby="lines-hint">
        <legend>{tt.lines}</legend>
        <p id="lines-hint" class="muted small">
          {tt.linesHint}
        </p>
        {problems.fields.lines ? <p class="error-text">{problems.fields.lines}</p> : null}
        {values.lines.map((line, i) => (
          <div class="fields">
            <Field name={`line${i}_label`} label={`${tt.label} ${i + 1}`} value={line.label} autocomplete="off" />
            <Field name={`line${i}_amount`} label={fill(tt.lineAmount, { currency, n: i + 1 })} inputmode="decimal" value={line.amount} />
          </div>
        ))}
      </fieldset>
      <Field name="due_on" label={tt.dueOn} type="date" value={values.due_on} hint={tt.dueHint} error={problems.fields.due_on} />
      <div class="actions">
        <button type="submit">{tt.create}</button>
        <a href="/admin/invoices/new">{tt.otherMember}</a>
        <a href="/admin/invoices">{input.t.cancel}</a>
      </div>
    </form>,
    { status: problems.status },
  );
}

/** A line's amount as typed (`80`, `-12,50`: a discount, `CHF 80`) in cents; anything else is left for the schema to refuse. */
function signedCents(text: string, currency: string): number | string {
  const amount = cents(text.replace(/^-\s*/, ""), currency);
  if (typeof amount !== "number") return text;
  return text.startsWith("-") ? -amount : amount;
}

async function create(input: PageInput): Promise<Response> {
  const values = readNew(input.form, input.query);
  const currency = clubOf(input.admin).currency;
  const lines = values.lines.filter((l) => l.label || l.amount).map((l) => ({ label: l.label, amount_cents: signedCents(l.amount, currency) }));
  const body = {
    member_id: values.member_id,
    tier_id: values.tier_id || undefined,
    lines: lines.length ? lines : undefined,
    due_on: values.due_on || undefined,
  };
  const checked = check(InvoiceCreate, body, input.locale);
  if (!checked.ok) return newForm(input, values, checked.problems);
  try {
    await createInvoice(input.ctx, checked.data);
  } catch (err) {
    // The form's labels, not the API's field names, in a refusal that compares two dates.
    const tt = INVOICES_TEXTS[input.locale];
    return newForm(input, values, problemsOf(err, input.locale, { due_on: tt.dueOn, issued_on: tt.issued }));
  }
  return input.redirect("/admin/invoices?show=open&done=created");
}

export default definePage({
  nav: { id: "invoices", path: "/invoices", scope: listNamedInvoices.scope, order: 56 },
  routes: [
    { method: "GET", path: "/invoices", scope: listNamedInvoices.scope, handler: (input) => list(input) },
    { method: "GET", path: "/invoices/new", scope: createInvoice.scope, handler: (input) => newForm(input, readNew(null, input.query), NO_PROBLEMS) },
    { method: "POST", path: "/invoices/new", scope: createInvoice.scope, handler: create },
    { method: "GET", path: "/invoices/:invoice_id/pdf", scope: invoicePdf.scope, handler: pdfFile },
    actionRoute("send"),
    actionRoute("cancel"),
  ],
});
