// Form pieces every page uses: a labelled field with its error (aria-invalid, aria-describedby),
// a select, the notice after a write, and the one mapping of a refusal (a schema's issues or a
// lib/ error) to what the form shows: a message per field and one for the form, in the club's
// language, with the status the page answers.
import type { ZodType, z } from "zod";
import type { Locale } from "../../lib/i18n";
import { errorAnswer, parseInput } from "../../server/errors";
import { h, type Html, raw } from "../jsx";

export type Problems = { status: number; fields: Record<string, string>; message: string | null };

export const NO_PROBLEMS: Problems = { status: 200, fields: {}, message: null };

/** A refusal as the form shows it: issues whose `loc` names a field go beside it, the rest on top. */
export function problemsOf(err: unknown, locale: Locale): Problems {
  const answer = errorAnswer(err, locale);
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

/** The form's values checked by the API's own schema (422 and its messages, as the API would answer). */
export function check<S extends ZodType>(schema: S, value: unknown, locale: Locale): { ok: true; data: z.output<S> } | { ok: false; problems: Problems } {
  const result = parseInput(schema, value, "body", locale);
  if (result.success) return { ok: true, data: result.data };
  const fields: Record<string, string> = {};
  for (const item of result.items) fields[String(item.loc[1] ?? "")] ??= item.msg;
  return { ok: false, problems: { status: 422, fields, message: null } };
}

/** The text fields of a form, trimmed; an empty one is absent (the API's "not sent"). */
export function textFields(form: FormData | null, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = form?.get(name);
    if (typeof value === "string" && value.trim() !== "") out[name] = value.trim();
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
};

export function Field(props: FieldProps): Html {
  const id = props.id ?? `f-${props.name}`;
  const described = [props.hint ? `${id}-hint` : null, props.error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div class="field">
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
      {props.hint ? (
        <p id={`${id}-hint`} class="muted">
          {props.hint}
        </p>
      ) : null}
      <FieldError id={id} error={props.error} />
    </div>
  );
}

/** A field's error, named by the field's aria-describedby. */
function FieldError(props: { id: string; error?: string }): Html {
  return props.error ? (
    <p id={`${props.id}-error`} class="error-text">
      {props.error}
    </p>
  ) : (
    raw("")
  );
}

export function Select(props: { name: string; label: string; options: { value: string; label: string }[]; value?: string | null; error?: string }): Html {
  const id = `f-${props.name}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} name={props.name} aria-invalid={props.error ? "true" : undefined} aria-describedby={props.error ? `${id}-error` : undefined}>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === (props.value ?? "")}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={id} error={props.error} />
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
