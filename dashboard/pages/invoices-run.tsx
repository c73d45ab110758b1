// /admin/invoices/run — the dues run (DESIGN.md section 20, POST invoices/run) for an admin who
// may edit the finances: a day and optional tiers; the first submit is the dry run (what would be
// made: count, totals per currency, who is skipped and why, the first invoices), whose button
// runs it for real with the same inputs; the result after. Both are the API's verb runDues, so a
// second run makes none and the members renewed in between are left out by the verb, not here.
import { plural } from "../../lib/i18n/dashboard";
import { type DuesRunTexts, INVOICES_TEXTS } from "../../lib/i18n/dashboard-invoices";
import { runDues } from "../../lib/dues/run";
import { type DuesRun, DuesRunRequest } from "../../lib/invoices/schemas";
import { listTiers } from "../../lib/tiers";
import { addDays, todayUtc } from "../../lib/days";
import { ValidationFailed } from "../../lib/errors";
import { CheckGroup, check, Field, Notice, NO_PROBLEMS, type Problems, problemsOf, textOf } from "../components/form";
import { RecordTable } from "../components/record-table";
import { day, money } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";
import { PdfLink } from "./invoices";

type RunValues = { until: string; tier_ids: string[] };

/** The run's inputs from its form (a tier ticked is one `tier_ids` value); none yet: the coming month. */
function readRun(form: FormData | null): RunValues {
  if (!form) return { until: addDays(todayUtc(), 30), tier_ids: [] };
  const tierIds = form
    .getAll("tier_ids")
    .filter((v): v is string => typeof v === "string" && v !== "")
    .slice(0, 100);
  return { until: textOf(form, "until"), tier_ids: tierIds };
}

/** The hidden inputs that carry the dry run's day and tiers to the real run. */
function Carried(props: { values: RunValues }): Html {
  return (
    <Fragment>
      <input type="hidden" name="until" value={props.values.until} />
      {props.values.tier_ids.map((id) => (
        <input type="hidden" name="tier_ids" value={id} />
      ))}
    </Fragment>
  );
}

async function RunForm(props: { input: PageInput; tr: DuesRunTexts; values: RunValues; problems: Problems }): Promise<Html> {
  const { input, tr, values, problems } = props;
  const tiers = input.can(listTiers.scope) ? await listTiers(input.ctx, {}) : [];
  const tierError = problems.fields.tier_ids;
  return (
    // To the answer (`#dry-run`) once it comes, below the form: on a phone it is out of sight.
    <form method="post" action="/admin/invoices/run#dry-run" class="card" novalidate>
      <Notice error={problems.message} />
      <CsrfField token={input.csrf} />
      <Field name="until" label={tr.until} type="date" value={values.until} hint={tr.untilHint} error={problems.fields.until} required />
      {tiers.length ? (
        <CheckGroup
          name="tier_ids"
          legend={tr.tiers}
          hint={tr.tiersHint}
          error={tierError}
          options={tiers.map((tier) => ({ value: tier.id, label: `${tier.name} · ${money(tier.price_cents, tier.currency, input.locale)}` }))}
          chosen={values.tier_ids}
        />
      ) : null}
      <div class="actions">
        <button type="submit" class="secondary">
          {tr.preview}
        </button>
        <a href="/admin/invoices">{tr.back}</a>
      </div>
    </form>
  );
}

/** What a run made (or would make): the totals per currency, who was skipped and why, the first invoices. */
function RunResult(props: { input: PageInput; tr: DuesRunTexts; run: DuesRun }): Html {
  const { input, tr, run } = props;
  const { locale } = input;
  const tt = INVOICES_TEXTS[locale];
  const skipped = (["already_invoiced", "nothing_to_pay", "over_limit"] as const).filter((k) => run.skipped[k] > 0);
  return (
    <Fragment>
      {run.totals.length ? (
        <dl class="stats few" aria-label={tr.totals}>
          {run.totals.map((sum) => (
            <div>
              <dt>
                {tr.totals} · {plural(locale, tt.found, sum.count)}
              </dt>
              <dd class="nowrap">{money(sum.amount_cents, sum.currency, locale)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {skipped.length ? (
        <Fragment>
          <h3>{tr.skipped}</h3>
          <ul>
            {skipped.map((k) => (
              <li>{plural(locale, tr.skippedReasons[k], run.skipped[k])}</li>
            ))}
          </ul>
        </Fragment>
      ) : null}
      {run.sample.length ? (
        <Fragment>
          <h3>{tr.sample}</h3>
          {run.created > run.sample.length ? <p class="muted small">{tr.sampleMore}</p> : null}
          <RecordTable
            compact
            columns={[
              ...(run.dry_run ? [] : [{ label: tt.number, class: "nowrap" }]),
              { label: tt.member, class: "wrap" },
              { label: tr.periodFrom, class: "nowrap" },
              { label: tt.amount, class: "num" },
              ...(run.dry_run ? [] : [{ label: tt.pdf, actions: true as const }]),
            ]}
            rows={run.sample.map((item) => [
              ...(run.dry_run ? [] : [item.number]),
              `${item.first_name} ${item.last_name}`,
              day(item.period_start, locale),
              money(item.amount_cents, item.currency, locale),
              ...(run.dry_run || !item.invoice_id || !item.number ? [] : [<PdfLink invoice={{ id: item.invoice_id, number: item.number }} tt={tt} />]),
            ])}
          />
        </Fragment>
      ) : null}
    </Fragment>
  );
}

/** The page: the form, and below it a dry run's answer with the button that makes its invoices. */
async function runPage(input: PageInput, values: RunValues, problems: Problems = NO_PROBLEMS, dry?: DuesRun): Promise<Response> {
  const tr = INVOICES_TEXTS[input.locale].run;
  return input.page(
    tr.title,
    <Fragment>
      <p>{tr.intro}</p>
      {await RunForm({ input, tr, values, problems })}
      {dry ? (
        <section class="card" aria-labelledby="dry-run" aria-live="polite">
          <h2 id="dry-run">{dry.created ? plural(input.locale, tr.wouldMake, dry.created) : tr.nothing}</h2>
          <RunResult input={input} tr={tr} run={dry} />
          {dry.created ? (
            <form method="post" action="/admin/invoices/run" class="actions">
              <CsrfField token={input.csrf} />
              <Carried values={values} />
              <button type="submit" name="go" value="run">
                {plural(input.locale, tr.make, dry.created)}
              </button>
            </form>
          ) : null}
        </section>
      ) : null}
    </Fragment>,
    { status: problems.status },
  );
}

/** A refusal of the verb: a tier not of the club (`tier_ids`, 422) beside the tiers rather than on top. */
function runProblems(err: unknown, input: PageInput): Problems {
  const problems = problemsOf(err, input.locale);
  if (err instanceof ValidationFailed && err.items.some((i) => i.loc[1] === "tier_ids") && problems.message)
    return { ...problems, fields: { ...problems.fields, tier_ids: problems.message }, message: null };
  return problems;
}

/** POST: the dry run, or (`go=run`, the dry run's button) the run itself, then what it made. */
async function run(input: PageInput): Promise<Response> {
  const values = readRun(input.form);
  const dryRun = textOf(input.form, "go") !== "run";
  const checked = check(DuesRunRequest, { until: values.until, tier_ids: values.tier_ids.length ? values.tier_ids : undefined, dry_run: dryRun }, input.locale);
  if (!checked.ok) return runPage(input, values, checked.problems);
  let result: DuesRun;
  try {
    result = await runDues(input.ctx, checked.data);
  } catch (err) {
    return runPage(input, values, runProblems(err, input));
  }
  if (result.dry_run) return runPage(input, values, NO_PROBLEMS, result);
  const tr = INVOICES_TEXTS[input.locale].run;
  return input.page(
    tr.title,
    <section class="card" aria-labelledby="made">
      <h2 id="made">{result.created ? plural(input.locale, tr.made, result.created) : tr.nothing}</h2>
      <RunResult input={input} tr={tr} run={result} />
      <div class="actions">
        <a class="button" href="/admin/invoices?show=open">
          {tr.openTab}
        </a>
        <a href="/admin/invoices/run">{tr.other}</a>
      </div>
    </section>,
  );
}

export default definePage({
  routes: [
    { method: "GET", path: "/invoices/run", scope: runDues.scope, handler: (input) => runPage(input, readRun(null)) },
    { method: "POST", path: "/invoices/run", scope: runDues.scope, handler: run },
  ],
});
