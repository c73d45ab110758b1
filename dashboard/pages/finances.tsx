// /admin/finances — the books (DESIGN.md section 21): the ledger of GET payments with its filters,
// totals and pages; the period's totals by account (the journal's trial balance); and the
// journal's exports (CSV, Banana, DATEV, JSON), the files of GET journal.
import { importPayments } from "../../lib/bank/import";
import { STATEMENT_TEXTS } from "../../lib/i18n/dashboard-statement";
import { exportJournal, JournalQuery, journalTotals } from "../../lib/books/journal";
import { listPayments, PAYMENT_KINDS, PaymentListQuery } from "../../lib/books/ledger";
import { clubSettings } from "../../lib/clubs/internal";
import { labelled } from "../../lib/i18n";
import { plural } from "../../lib/i18n/dashboard";
import { FINANCES_TEXTS, type FinancesTexts } from "../../lib/i18n/dashboard-finances";
import { MEMBERS_TEXTS } from "../../lib/i18n/dashboard-members";
import { PAYMENT_METHODS } from "../../lib/members/schemas";
import { replyResponse } from "../../http/reply";
import { check, Field, Notice, type Problems, problemsOf, Select } from "../components/form";
import { RecordTable } from "../components/record-table";
import { Pager } from "../components/pager";
import { day, methodName, money } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { definePage, type PageInput } from "../page";
import { STATEMENT_PATH } from "./payments-import";

const PAGE_SIZE = 50;
const FILTERS = ["from", "to", "kind", "method", "page"] as const;
const FORMATS = ["csv", "banana", "datev", "json"] as const;

/** The period shown when none is asked: this calendar year (UTC) to today. */
function defaultPeriod(now = new Date()): { from: string; to: string } {
  const today = now.toISOString().slice(0, 10);
  return { from: `${today.slice(0, 4)}-01-01`, to: today };
}

function link(values: Record<string, string>, page: number): string {
  const params = new URLSearchParams();
  for (const name of FILTERS) if (name !== "page" && values[name]) params.set(name, values[name]);
  if (page > 1) params.set("page", String(page));
  return `/admin/finances?${params}`;
}

function Filters(props: { tt: FinancesTexts; methods: Record<string, string>; values: Record<string, string>; problems: Problems }): Html {
  const { tt, methods, values, problems } = props;
  return (
    <form method="get" action="/admin/finances" class="card tight" aria-labelledby="filters">
      <h2 id="filters">{tt.filters}</h2>
      <div class="fields">
        <Field name="from" label={tt.from} type="date" value={values.from} error={problems.fields.from} />
        <Field name="to" label={tt.to} type="date" value={values.to} error={problems.fields.to} />
        <Select
          name="kind"
          label={tt.kind}
          value={values.kind}
          error={problems.fields.kind}
          options={[{ value: "", label: tt.anyKind }, ...PAYMENT_KINDS.map((k) => ({ value: k, label: tt.kinds[k] }))]}
        />
        <Select
          name="method"
          label={tt.method}
          value={values.method}
          error={problems.fields.method}
          options={[{ value: "", label: tt.anyKind }, ...PAYMENT_METHODS.map((m) => ({ value: m, label: methodName(methods, m) }))]}
        />
      </div>
      <div class="actions">
        <button type="submit">{tt.filter}</button>
        <a href="/admin/finances">{tt.reset}</a>
      </div>
    </form>
  );
}

async function financesPage(input: PageInput): Promise<Response> {
  const { ctx, locale, t } = input;
  const tt = FINANCES_TEXTS[locale];
  const values: Record<string, string> = { ...defaultPeriod() };
  for (const name of FILTERS) {
    const v = input.query.get(name)?.trim();
    if (v !== undefined) values[name] = v;
  }
  const checked = check(PaymentListQuery, { ...Object.fromEntries(Object.entries(values).filter(([, v]) => v)), limit: PAGE_SIZE }, locale);
  let problems: Problems = checked.ok ? { status: 200, fields: {}, message: null } : checked.problems;
  const filters = () => <Filters tt={tt} methods={MEMBERS_TEXTS[locale].methods} values={values} problems={problems} />;
  if (!checked.ok) return input.page(t.nav.finances, filters(), { status: 422 });
  const q = checked.data;
  let ledger: Awaited<ReturnType<typeof listPayments>>;
  try {
    ledger = await listPayments(ctx, q);
  } catch (err) {
    problems = problemsOf(err, locale);
    return input.page(t.nav.finances, <Fragment>{filters()}</Fragment>, { status: problems.status });
  }
  // The totals by account and the exports are the period's (every kind and method), when it has both ends.
  const period = q.from && q.to ? { from: q.from, to: q.to } : null;
  const accounts = period ? await journalTotals(ctx, period) : [];
  // The events account has no name by default (SPEC): the page names it by its role meanwhile.
  const eventsAccount = (input.admin.club as Record<string, unknown>).accounting_account_events;
  const { currency } = await clubSettings(ctx.db.read, ctx.clubId);
  const cash = (cents: number) => money(cents, currency, locale);
  const pages = Math.max(1, Math.ceil(ledger.total / PAGE_SIZE));
  const totals = [
    [tt.gross, ledger.totals.gross_cents],
    [tt.fees, ledger.totals.provider_fees_cents],
    [tt.commission, ledger.totals.platform_commission_cents],
    [tt.net, ledger.totals.net_cents],
  ] as const;
  return input.page(
    t.nav.finances,
    <Fragment>
      <p>{tt.intro}</p>
      {/* The bank's payments come in on the statement's page (dashboard/pages/payments-import.tsx). */}
      {input.can(importPayments.scope) ? (
        <p>
          <a href={STATEMENT_PATH}>{STATEMENT_TEXTS[locale].title}</a>
        </p>
      ) : null}
      {filters()}
      <section aria-labelledby="totals">
        <h2 id="totals">{tt.totals}</h2>
        <p class="muted" role="status">
          {plural(locale, tt.found, ledger.total)}
        </p>
        <dl class="stats">
          {totals.map(([label, cents]) => (
            <div>
              <dt>{label}</dt>
              <dd>{cash(cents)}</dd>
            </div>
          ))}
        </dl>
      </section>
      {period ? null : (
        <section aria-labelledby="exports" class="card tight">
          <h2 id="exports">{tt.exports}</h2>
          <p role="note">{tt.needsPeriod}</p>
        </section>
      )}
      {period ? (
        <section aria-labelledby="exports" class="card tight">
          <h2 id="exports">{tt.exports}</h2>
          <p class="muted">{tt.exportsHint}</p>
          <form method="get" action="/admin/finances/journal" class="actions">
            <input type="hidden" name="from" value={period.from} />
            <input type="hidden" name="to" value={period.to} />
            {FORMATS.map((format) => (
              <button type="submit" name="format" value={format} class="secondary">
                {tt.formats[format]}
              </button>
            ))}
          </form>
        </section>
      ) : null}
      {period ? (
        <section aria-labelledby="accounts">
          <h2 id="accounts">{tt.accounts}</h2>
          <p class="muted">{tt.accountsHint}</p>
          {accounts.length ? (
            <RecordTable
              columns={[
                { label: tt.account },
                { label: tt.accountName, class: "wrap" },
                { label: tt.debit, class: "num" },
                { label: tt.credit, class: "num" },
                { label: tt.balance, class: "num" },
              ]}
              rows={accounts.map((a) => [
                <code>{a.account}</code>,
                a.name || (a.account === eventsAccount ? tt.eventsAccountName : ""),
                cash(a.debit_cents),
                cash(a.credit_cents),
                cash(a.balance_cents),
              ])}
            />
          ) : (
            <p class="card">{tt.noLines}</p>
          )}
        </section>
      ) : null}
      <section aria-labelledby="ledger">
        <h2 id="ledger">{tt.ledger}</h2>
        {ledger.items.length ? (
          <RecordTable
            columns={[
              { label: tt.date },
              { label: tt.description, class: "wrap" },
              { label: tt.kind, class: "hide-small" },
              { label: tt.method, class: "hide-small" },
              { label: tt.amount, class: "num" },
              { label: tt.fees, class: "num hide-small" },
              { label: tt.net, class: "num" },
            ]}
            rows={ledger.items.map((p) => [
              day(p.paid_at, locale),
              p.description,
              tt.kinds[p.kind],
              methodName(MEMBERS_TEXTS[locale].methods, p.method),
              money(p.amount_cents, p.currency, locale),
              money(p.provider_fee_cents + p.platform_commission_cents, p.currency, locale),
              money(p.net_cents, p.currency, locale),
            ])}
          />
        ) : (
          <p class="card">{tt.empty}</p>
        )}
      </section>
      <Pager t={t} page={q.page} pages={pages} link={(p) => link(values, p)} />
    </Fragment>,
  );
}

/** The journal's file; a bound not given is the page's default period's (this year to today). */
async function journalFile(input: PageInput): Promise<Response> {
  const query = {
    ...defaultPeriod(),
    ...Object.fromEntries(["from", "to", "format"].flatMap((name) => (input.query.get(name) ? [[name, input.query.get(name)]] : []))),
  };
  const checked = check(JournalQuery, query, input.locale);
  if (!checked.ok) {
    const tt = FINANCES_TEXTS[input.locale];
    const labels: Record<string, string> = { from: tt.from, to: tt.to, format: tt.exports };
    const said = Object.entries(checked.problems.fields).map(([name, msg]) => labelled(input.locale, labels[name] ?? name, msg));
    return input.page(
      input.t.nav.finances,
      <Fragment>
        <Notice error={said.join(" ")} />
        <p>
          <a href="/admin/finances">{input.t.nav.finances}</a>
        </p>
      </Fragment>,
      { status: 422 },
    );
  }
  return replyResponse(await exportJournal(input.ctx, checked.data));
}

export default definePage({
  nav: { id: "finances", path: "/finances", scope: listPayments.scope, order: 55 },
  routes: [
    { method: "GET", path: "/finances", scope: listPayments.scope, handler: financesPage },
    { method: "GET", path: "/finances/journal", scope: exportJournal.scope, handler: journalFile },
  ],
});
