// Form pieces every page uses: a labelled field with its error (aria-invalid, aria-describedby),
// a select, the notice after a write, and the one mapping of a refusal (a schema's issues or a
// lib/ error) to what the form shows: a message per field and one for the form, in the club's
// language, with the status the page answers.
import type { ZodType, z } from "zod";
import { localToUtc, utcToLocal } from "../../lib/clubs/time-zone";
import { ValidationFailed } from "../../lib/errors";
import { type Locale, type MessageCode, t as translate } from "../../lib/i18n";
import { errorAnswer, parseInput } from "../../http/errors";
import { Fragment, h, type Html, raw } from "../jsx";

export type Problems = { status: number; fields: Record<string, string>; message: string | null };

export const NO_PROBLEMS: Problems = { status: 200, fields: {}, message: null };

/**
 * A refusal as the form shows it: issues whose `loc` names a field go beside it, the rest on top.
 * `labels`: the form's label of each API field a message names (DATE_ORDER's `ends_at`), so the
 * page says "Fin" where the API's answer, unchanged, says `ends_at`.
 */
export function problemsOf(err: unknown, locale: Locale, labels: Record<string, string> = {}): Problems {
  const answer = errorAnswer(err instanceof ValidationFailed ? relabelled(err, labels) : err, locale);
  if (answer.status >= 500) throw err;
  const { detail } = answer.body;
  if (typeof detail === "string") return { status: answer.status, fields: {}, message: detail };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const item of detail) {
    const field = item.loc.at(-1);
    if (typeof field === "string" && item.loc.length > 1) fields[field] ??= item.msg;
    else rest.push(item.msg);
  }
  return { status: answer.status, fields, message: rest.length ? rest.join(" ") : null };
}

/** A validation refusal whose messages name the form's fields by their `labels`. */
function relabelled(err: ValidationFailed, labels: Record<string, string>): ValidationFailed {
  const label = (v: string | number) => (typeof v === "string" && Object.hasOwn(labels, v) ? labels[v] : v);
  const items = err.items.map((i) => (i.params ? { ...i, params: Object.fromEntries(Object.entries(i.params).map(([k, v]) => [k, label(v)])) } : i));
  const copy = new ValidationFailed(items, err.code as MessageCode);
  copy.clubLocale = err.clubLocale;
  return copy;
}

/**
 * The form's values checked by the API's own schema (422 and its messages, as the API would
 * answer); `found` holds what the page found wrong before (a time that does not exist), by field.
 */
export function check<S extends ZodType>(
  schema: S,
  value: unknown,
  locale: Locale,
  found: Record<string, string> = {},
): { ok: true; data: z.output<S> } | { ok: false; problems: Problems } {
  const result = parseInput(schema, value, "body", locale);
  if (result.success && !Object.keys(found).length) return { ok: true, data: result.data };
  const fields: Record<string, string> = { ...found };
  if (!result.success)
    for (const item of result.items) fields[String(item.loc[1] ?? "")] ??= typedAmount(value, item.loc) ? translate(locale, "AMOUNT_TYPED") : item.msg;
  return { ok: false, problems: { status: 422, fields, message: null } };
}

/**
 * Whether an issue's place (`["body", ...path]`) is an amount in cents that `cents` could not read
 * (still text): the schema's "expected a number" says nothing to whoever typed `1.200,-`.
 */
function typedAmount(value: unknown, loc: readonly (string | number)[]): boolean {
  const name = loc.at(-1);
  if (typeof name !== "string" || !name.endsWith("_cents")) return false;
  let at: unknown = value;
  for (const key of loc.slice(1)) at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === "string";
}

/** One text field of a form, trimmed; empty when absent. */
export function textOf(form: FormData | null, name: string): string {
  const value = form?.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/** The text fields of a form, trimmed; an empty one is absent (the API's "not sent"). */
export function textFields(form: FormData | null, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = textOf(form, name);
    if (value !== "") out[name] = value;
  }
  return out;
}

type FieldProps = {
  name: string;
  /** The element's id (default `f-<name>`): set it when two forms of a page share a field name. */
  id?: string;
  label: string;
  type?: string;
  value?: string | number | null;
  error?: string;
  required?: boolean;
  hint?: string;
  autocomplete?: string;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  inputmode?: string;
  /** On a row of its own in a grid of fields (`.fields`): a value longer than a column (an IBAN). */
  wide?: boolean;
};

/** The ids of a field's hint and error, for its aria-describedby. */
function describedBy(id: string, hint?: string, error?: string): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

/** A field's hint and error below it (their ids: `describedBy`). */
export function FieldNotes(props: { id: string; hint?: string; error?: string }): Html {
  return (
    <Fragment>
      {props.hint ? (
        <p id={`${props.id}-hint`} class="muted">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${props.id}-error`} class="error-text">
          {props.error}
        </p>
      ) : null}
    </Fragment>
  );
}

export function Field(props: FieldProps): Html {
  const id = props.id ?? `f-${props.name}`;
  const described = describedBy(id, props.hint, props.error);
  return (
    <div class={props.wide ? "field wide" : "field"}>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value === null || props.value === undefined ? undefined : String(props.value)}
        required={props.required}
        autocomplete={props.autocomplete}
        min={props.min === undefined ? undefined : String(props.min)}
        max={props.max === undefined ? undefined : String(props.max)}
        step={props.step === undefined ? undefined : String(props.step)}
        inputmode={props.inputmode as never}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={described}
      />
      <FieldNotes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

export function Select(props: {
  name: string;
  /** The element's id (default `f-<name>`), as `Field`'s. */
  id?: string;
  label: string;
  options: { value: string; label: string }[];
  value?: string | null;
  error?: string;
  hint?: string;
}): Html {
  const id = props.id ?? `f-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} aria-invalid={props.error ? "true" : undefined} aria-describedby={describedBy(id, props.hint, props.error)}>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === (props.value ?? "")}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** The message on top of a form: a refusal (role=alert) or what was just done (role=status). */
export function Notice(props: { error?: string | null; done?: string | null }): Html {
  if (props.error)
    return (
      <div class="notice error" role="alert">
        {props.error}
      </div>
    );
  if (props.done)
    return (
      <div class="notice ok" role="status">
        {props.done}
      </div>
    );
  return raw("");
}

/** A multi-line text field, labelled like `Field`. */
export function TextArea(props: { name: string; id?: string; label: string; value?: string | null; error?: string; hint?: string; rows?: number }): Html {
  const id = props.id ?? `f-${props.name}`;
  const described = describedBy(id, props.hint, props.error);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea id={id} name={props.name} rows={String(props.rows ?? 4)} aria-invalid={props.error ? "true" : undefined} aria-describedby={described}>
        {props.value ?? ""}
      </textarea>
      <FieldNotes id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** A checkbox with its label beside it (sent as `value`, absent when unticked). */
export function Checkbox(props: { name: string; id?: string; label: string; checked?: boolean; value?: string }): Html {
  const id = props.id ?? `f-${props.name}`;
  return (
    <div class="field check">
      <input id={id} type="checkbox" name={props.name} value={props.value ?? "yes"} checked={props.checked} />
      <label for={id} class="inline-label">
        {props.label}
      </label>
    </div>
  );
}

/**
 * A group of checkboxes sharing a name (each ticked one a value of it), in a fieldset with its
 * legend, hint and error; `inline`: side by side where they fit (short labels).
 */
export function CheckGroup(props: {
  name: string;
  legend: string;
  options: { value: string; label: string }[];
  chosen: readonly string[] | undefined;
  hint?: string;
  error?: string;
  inline?: boolean;
}): Html {
  const id = `f-${props.name}`;
  return (
    <fieldset aria-describedby={describedBy(id, props.hint, props.error)}>
      <legend>{props.legend}</legend>
      <div class={props.inline ? "checks" : undefined}>
        {props.options.map((o) => (
          <div class="field check">
            <input id={`${id}-${o.value}`} type="checkbox" name={props.name} value={o.value} checked={(props.chosen ?? []).includes(o.value)} />
            <label for={`${id}-${o.value}`} class="inline-label">
              {o.label}
            </label>
          </div>
        ))}
      </div>
      <FieldNotes id={id} hint={props.hint} error={props.error} />
    </fieldset>
  );
}

/** Cents as an amount field shows them (`1500` -> `15.00`); empty for none. */
export function amountText(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? "" : (cents / 100).toFixed(2);
}

/**
 * An amount typed as people write it in cents: `50`, `50.00`, `50,5`, thousands grouped by an
 * apostrophe or a space (`1'200.00`, `1 200,50`), whole francs as `50.-`, and the field's own
 * `currency` before or after (`CHF 10`). `1,200` or `1.200` (a thousand, or one and a fifth?) is
 * not guessed: anything else is left for the schema to refuse, and `check` says how to type it.
 */
export function cents(text: string | undefined, currency?: string): number | string | undefined {
  if (text === undefined) return undefined;
  let typed = text.trim();
  const code = currency?.replace(/\W/g, "");
  if (code) typed = typed.replace(new RegExp(`^${code}\\.?\\s*|\\s*${code}\\.?$`, "i"), "");
  typed = typed.replace(/[.,][-\u2013\u2014]$/, "");
  if (/^\d{1,3}(['\u2019 \u00a0\u202f]\d{3})+([.,]\d{1,2})?$/.test(typed)) typed = typed.replace(/['\u2019 \u00a0\u202f]/g, "");
  return /^\d{1,9}([.,]\d{1,2})?$/.test(typed) ? Math.round(Number(typed.replace(",", ".")) * 100) : text;
}

/** A whole number typed in a field; anything else is left for the schema to refuse. */
export function whole(text: string | undefined): number | string | undefined {
  return text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : text;
}

/** The `done` notice named in the address bar after a write, when the page knows it. */
export function doneOf<K extends string>(query: URLSearchParams, texts: Record<K, string>): string | null {
  const done = query.get("done");
  // Own keys only: `?done=constructor` is no notice of ours.
  return done && Object.hasOwn(texts, done) ? texts[done as K] : null;
}

/**
 * The `datetime-local` fields `names` of `values`, typed in the club's zone (`2026-12-01T18:30`), as
 * the API's UTC date-times (lib/clubs/time-zone: the hour lived twice in autumn is its first);
 * anything else is left for the schema to refuse. `skipped`: the message of each field naming
 * the hour the clocks skip in spring, refused rather than moved.
 */
export function utcTimes<N extends string>(
  values: Partial<Record<N, string>>,
  names: readonly N[],
  timeZone: string,
  locale: Locale,
): { times: Partial<Record<N, string>>; skipped: Record<string, string> } {
  const times: Partial<Record<N, string>> = {};
  const skipped: Record<string, string> = {};
  for (const name of names) {
    const text = values[name];
    if (text === undefined) continue;
    const at = localToUtc(text, timeZone);
    if ("iso" in at) times[name] = at.iso;
    else if ("skipped" in at) {
      times[name] = text;
      skipped[name] = translate(locale, "LOCAL_TIME_SKIPPED", { time: text.replace("T", " "), zone: timeZone });
    } else times[name] = text;
  }
  return { times, skipped };
}

/** A stored UTC date-time as a `datetime-local` field shows it in the club's zone (minutes); empty for none. */
export function localInput(iso: string | null | undefined, timeZone: string): string {
  return iso ? utcToLocal(iso, timeZone) : "";
}
