// /admin/members/import — importing a spreadsheet (lib/members/import.ts, the API's verb and
// query schema): the file, what to do with members already known and a default tier, then a
// preview (the dry run) with its line errors, then "Import the N good lines (skip M)" (`partial`)
// or "Fix and upload again"; the result says what was written. The import button submits the
// same form again: the browser still holds the chosen file (the preview only swaps the result in),
// and the preview's fingerprint of file and options must match, so what is written is what was
// previewed (else the new choice is previewed, nothing written).
import { fill, plural } from "../../lib/i18n/dashboard";
import type { Locale } from "../../lib/i18n";
import { IMPORT_TEXTS, type ImportTexts } from "../../lib/i18n/dashboard-import";
import { MEMBERS_TEXTS } from "../../lib/i18n/dashboard-members";
import { importMembers } from "../../lib/members/import";
import { ImportQuery, type ImportResult } from "../../lib/members/schemas";
import { listTiers } from "../../lib/tiers";
import { check, Notice, NO_PROBLEMS, type Problems, problemsOf, Select } from "../components/form";
import { zeroPriceWarning } from "../components/zero-price";
import { day, methodName, money } from "../format";
import { Fragment, h, type Html, raw } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";

const FORM_ID = "import-form";

/** What a run of the form gave: the verb's answer, the fingerprint of what was checked, and whether a write was refused because the choice changed since its preview. */
type Outcome = { result: ImportResult; fingerprint: string; changed: boolean };

/** The file and the options that decide what an import writes, as one hash: the preview's, which the import button carries back. */
function fingerprintOf(bytes: Uint8Array, mode: string, tierId: string | undefined): string {
  return new Bun.CryptoHasher("sha256")
    .update(`${mode}\n${tierId ?? ""}\n`)
    .update(bytes)
    .digest("hex");
}

function ImportForm(props: { input: PageInput; tt: ImportTexts; tiers: { value: string; label: string }[] }): Html {
  const { tt } = props;
  return (
    <form
      method="post"
      action="/admin/members/import"
      enctype="multipart/form-data"
      class="card"
      id={FORM_ID}
      hx-post="/admin/members/import"
      hx-encoding="multipart/form-data"
      hx-target="#import-result"
      hx-select="#import-result"
      hx-swap="outerHTML"
    >
      <CsrfField token={props.input.csrf} />
      <p>{tt.help}</p>
      <div class="field">
        <label for="f-file">{tt.file}</label>
        <input id="f-file" name="file" type="file" accept=".csv,text/csv,text/plain" required />
      </div>
      <Select
        name="mode"
        label={tt.mode}
        options={[
          { value: "create", label: tt.modes.create },
          { value: "update", label: tt.modes.update },
        ]}
        value="create"
      />
      <Select name="tier_id" label={tt.tier} options={props.tiers} value="" hint={tt.tierHint} />
      <div class="actions">
        <button type="submit" name="run" value="preview">
          {tt.preview}
        </button>
      </div>
    </form>
  );
}

/** The warnings in the page's words: a known member's line names this form's control, not the API's `mode=update`. */
function warningLines(result: ImportResult, tt: ImportTexts): { line: number; detail: string }[] {
  return result.warnings.map((w) =>
    w.code === "MEMBER_EXISTS" ? { line: w.line, detail: fill(tt.memberExists, { email: w.email, mode: tt.mode, update: tt.modes.update }) } : w,
  );
}

/** The import's lines with a message (errors, warnings), under a caption; nothing when there are none. */
function LineTable(props: { caption: string; lines: { line: number; detail: string }[]; tt: ImportTexts }): Html {
  if (!props.lines.length) return raw("");
  return (
    <div class="table-wrap">
      <table class="lines">
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              {props.tt.line}
            </th>
            <th scope="col">{props.tt.problem}</th>
          </tr>
        </thead>
        <tbody>
          {props.lines.map((e) => (
            <tr>
              <td class="num">{e.line}</td>
              <td>{e.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The dry run's changes, line by line (the first 200), in the secretary's words: each field by
 * the member form's label, a date as a date, a tier by its name, a new member's fields without
 * the empty "before".
 */
function Changes(props: { result: ImportResult; tt: ImportTexts; locale: Locale; tierNames: Map<string, string> }): Html {
  const changes = props.result.changes ?? [];
  if (!changes.length) return raw("");
  const { tt, locale } = props;
  const mt = MEMBERS_TEXTS[locale];
  const labels: Record<string, string> = {
    first_name: mt.firstName,
    last_name: mt.lastName,
    email: mt.email,
    membership_start: mt.start,
    membership_end: mt.end,
    payment_status: tt.paymentStatus,
    payment_method: mt.paymentMethod,
    tier_id: mt.tier,
  };
  const label = (field: string) => labels[field] ?? field.replace(/^custom_fields\./, "");
  const value = (field: string, v: string | null): string => {
    if (v === null || v === "") return "—";
    if (field === "tier_id") return props.tierNames.get(v) ?? v;
    if (field === "membership_start" || field === "membership_end") return day(v, locale);
    if (field === "payment_status") return tt.paymentStatuses[v as keyof ImportTexts["paymentStatuses"]] ?? v;
    if (field === "payment_method") return methodName(mt.methods, v);
    return v;
  };
  return (
    <details>
      <summary>{tt.changes}</summary>
      <ul>
        {changes.slice(0, 200).map((c) => (
          <li>
            {fill(tt.changeLine, {
              line: c.line,
              email: c.email,
              action: tt.lineActions[c.action as "create" | "update"] ?? c.action,
              fields: c.fields
                .filter((f) => c.action !== "create" || f.field !== "email")
                .map((f) =>
                  fill(tt.fieldValue, {
                    field: label(f.field),
                    value: c.action === "create" ? value(f.field, f.to) : `${value(f.field, f.from)} → ${value(f.field, f.to)}`,
                  }),
                )
                .join(" · "),
            })}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The preview: what the file comes to, and the two ways on (import the good lines, or fix the file). */
function Preview(props: { outcome: Outcome; tt: ImportTexts; locale: Locale; tierNames: Map<string, string> }): Html {
  const { outcome, tt, locale } = props;
  const r = outcome.result;
  const errors = r.errors.length;
  const good = r.created + r.updated;
  return (
    <section id="import-result" aria-labelledby="import-result-title">
      {outcome.changed ? <Notice error={tt.changedSincePreview} /> : null}
      <h2 id="import-result-title">{tt.previewTitle}</h2>
      <p role="status">
        {fill(tt.previewCounts, {
          lines: plural(locale, tt.previewLines, good + r.skipped + errors),
          create: r.created,
          update: r.updated,
          unchanged: r.skipped,
          errors,
        })}
      </p>
      {good === 0 ? <p>{errors ? tt.noGoodLine : tt.nothingToImport}</p> : null}
      <input type="hidden" form={FORM_ID} name="previewed" value={outcome.fingerprint} />
      <div class="actions">
        {good > 0 ? (
          <button type="submit" form={FORM_ID} name="run" value={errors ? "partial" : "import"}>
            {errors ? plural(locale, tt.importGood, good, { m: errors }) : plural(locale, tt.importAll, good)}
          </button>
        ) : null}
        {errors ? (
          <a class="button secondary" href="#f-file">
            {tt.fixAgain}
          </a>
        ) : null}
      </div>
      {errors ? <p class="muted">{tt.fixHint}</p> : null}
      <LineTable caption={tt.lineErrors} lines={r.errors} tt={tt} />
      <LineTable caption={tt.warnings} lines={warningLines(r, tt)} tt={tt} />
      <Changes result={r} tt={tt} locale={locale} tierNames={props.tierNames} />
    </section>
  );
}

/** The result of a write: what was written (never "done" when nothing was), and the lines left out. */
function Written(props: { result: ImportResult; tt: ImportTexts; locale: Locale }): Html {
  const { result: r, tt, locale } = props;
  const errors = r.errors.length;
  const said = r.written
    ? [
        fill(tt.written, { created: plural(locale, tt.createdCount, r.created), updated: plural(locale, tt.updatedCount, r.updated) }),
        errors ? plural(locale, tt.skippedErrors, errors) : "",
        r.skipped ? plural(locale, tt.unchanged, r.skipped) : "",
      ]
    : [errors ? plural(locale, tt.stopped, errors) : tt.nothingToImport];
  return (
    <section id="import-result" aria-labelledby="import-result-title">
      <h2 id="import-result-title">{r.written ? tt.doneTitle : tt.nothingTitle}</h2>
      <p role="status">{said.filter(Boolean).join(" ")}</p>
      <p>
        <a href="/admin/members">{tt.toMembers}</a>
      </p>
      <LineTable caption={tt.lineErrors} lines={r.errors} tt={tt} />
      <LineTable caption={tt.warnings} lines={warningLines(r, tt)} tt={tt} />
    </section>
  );
}

async function importPage(input: PageInput, outcome: Outcome | null, problems: Problems): Promise<Response> {
  const tt = IMPORT_TEXTS[input.locale];
  const tiers = await listTiers(input.ctx, { include_inactive: true });
  const offered = [
    { value: "", label: tt.noTier },
    ...tiers
      .filter((t) => t.is_active)
      .map((t) => ({ value: t.id, label: fill(tt.tierOption, { name: t.name, price: money(t.price_cents, t.currency, input.locale) }) })),
  ];
  const tierNames = new Map(tiers.map((t) => [t.id, t.name]));
  const result = !outcome ? (
    <div id="import-result">
      <Notice error={problems.message ?? (Object.values(problems.fields).join(" ") || null)} />
    </div>
  ) : outcome.result.dry_run ? (
    <Preview outcome={outcome} tt={tt} locale={input.locale} tierNames={tierNames} />
  ) : (
    <Written result={outcome.result} tt={tt} locale={input.locale} />
  );
  return input.page(
    tt.title,
    <Fragment>
      {await zeroPriceWarning(input)}
      <ImportForm input={input} tt={tt} tiers={offered} />
      {result}
    </Fragment>,
    { status: outcome?.changed ? 409 : problems.status },
  );
}

/**
 * The form's run: `preview` (the dry run), `import` (all or nothing) or `partial` (the good lines).
 * A write happens only when the preview's fingerprint matches the file and options sent now.
 */
async function runImport(input: PageInput): Promise<Response> {
  const tt = IMPORT_TEXTS[input.locale];
  const run = input.form?.get("run");
  const writing = run === "import" || run === "partial";
  const file = input.form?.get("file");
  if (!(file instanceof File) || file.size === 0)
    return importPage(input, null, { status: 422, fields: {}, message: writing ? tt.chooseAgain : tt.chooseFile });
  const text = (name: string) => {
    const v = input.form?.get(name);
    return typeof v === "string" && v ? v : undefined;
  };
  // The mode and the tier by the API's own query schema.
  const checked = check(ImportQuery, { mode: text("mode"), tier_id: text("tier_id") }, input.locale);
  if (!checked.ok) return importPage(input, null, checked.problems);
  const bytes = new Uint8Array(await file.arrayBuffer());
  const fingerprint = fingerprintOf(bytes, checked.data.mode, checked.data.tier_id);
  const changed = writing && text("previewed") !== fingerprint;
  const write = writing && !changed;
  try {
    const result = await importMembers(input.ctx, { ...checked.data, csv: bytes, dry_run: !write, partial: write && run === "partial" });
    return importPage(input, { result, fingerprint, changed }, NO_PROBLEMS);
  } catch (err) {
    return importPage(input, null, problemsOf(err, input.locale));
  }
}

export default definePage({
  routes: [
    { method: "GET", path: "/members/import", scope: importMembers.scope, handler: (input) => importPage(input, null, NO_PROBLEMS) },
    { method: "POST", path: "/members/import", scope: importMembers.scope, handler: runImport },
  ],
});
