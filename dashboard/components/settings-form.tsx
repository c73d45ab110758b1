// What the two settings pages share (dashboard/pages/settings.tsx, the club; settings-card.tsx,
// the card's appearance): a group of the club's fields as one form, saved through updateClub
// with the API's schema and the scopes lib/clubs gives its fields, and the tabs between the pages.
import type { Scope } from "../../lib/access";
import { clubFieldScopes, updateClub } from "../../lib/clubs";
import { ClubUpdate } from "../../lib/clubs/schemas";
import type { SettingsGroup, SettingsTexts } from "../../lib/i18n/dashboard-settings";
import { h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import type { PageInput } from "../page";
import { amountText, cents, check, Field, FieldNotes, Notice, type Problems, problemsOf, textOf } from "./form";

type Kind = "text" | "textarea" | "email" | "url" | "number" | "color" | "checkbox" | "days" | "amount" | "account" | { options: readonly string[] };
/**
 * `text`: sent as "" when left empty, for a text the club may leave blank but never null (an
 * account's name, the journal code), or one the schema must refuse blank (an account number).
 */
/** `wide`: a value longer than a column of the grid (an IBAN), on a row of its own. */
export type SettingField = { name: string; kind: Kind; required?: true; text?: true; wide?: true };
export type Group = {
  id: SettingsGroup;
  fields: SettingField[];
  /** What saving the group needs: updateClub's own scopes for these fields (PUT /api/clubs/<club>). */
  scope: Scope[];
  /** Shown only to an admin holding these (payout fields are absent from the Club otherwise). */
  readScope: Scope[];
};

/** A group of fields, with the scopes lib/clubs says reading and writing them need. */
export function group(id: SettingsGroup, fields: SettingField[]): Group {
  const { write, read } = clubFieldScopes(fields.map((f) => f.name));
  return { id, fields, scope: write, readScope: read };
}

/** A field's value as the form shows it (a stored value, or what was typed when the save was refused). */
function shown(field: SettingField, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (field.kind === "days" && Array.isArray(value)) return value.join(", ");
  if (field.kind === "amount" && typeof value === "number") return amountText(value);
  return String(value);
}

/** A number typed (`12`, `12.5`): the number; anything else stays text, for the schema to refuse with its message. */
const numberOr = (text: string): number | string => (/^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text);

/**
 * The group's fields read from the form, as ClubUpdate takes them: an empty text clears the field
 * (null), except a required one (sent empty: the schema refuses it); an unticked box is false.
 */
export function bodyOf(group: Group, form: FormData | null): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of group.fields) {
    const text = textOf(form, field.name);
    if (field.kind === "checkbox") body[field.name] = form?.has(field.name) ?? false;
    else if (text === "") body[field.name] = field.required || field.text ? "" : field.kind === "days" ? [] : null;
    else if (field.kind === "number") body[field.name] = numberOr(text);
    else if (field.kind === "amount") body[field.name] = cents(text);
    else if (field.kind === "days")
      body[field.name] = text
        .split(/[\s,;]+/)
        .filter(Boolean)
        .map(numberOr);
    else body[field.name] = text;
  }
  return body;
}

function Input(props: { field: SettingField; tt: SettingsTexts; value: unknown; error?: string }): Html {
  const { field, tt } = props;
  const id = `f-${field.name}`;
  const label = tt.labels[field.name] ?? field.name;
  const hint = tt.hints[field.name];
  const described = [hint ? `${id}-hint` : null, props.error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  const after = <FieldNotes id={id} hint={hint} error={props.error} />;

  const invalid = props.error ? "true" : undefined;
  if (field.kind === "checkbox")
    return (
      <div class="field check">
        <input id={id} name={field.name} type="checkbox" value="true" checked={props.value === true} aria-invalid={invalid} aria-describedby={described} />
        <label for={id}>{label}</label>
        {after}
      </div>
    );
  if (field.kind === "textarea")
    return (
      <div class="field wide">
        <label for={id}>{label}</label>
        <textarea id={id} name={field.name} rows="3" aria-invalid={invalid} aria-describedby={described}>
          {shown(field, props.value)}
        </textarea>
        {after}
      </div>
    );
  if (typeof field.kind === "object") {
    const names: Record<string, string> = { ...tt.modes, ...tt.locales, ...tt.barcodes };
    return (
      <div class="field wide">
        <label for={id}>{label}</label>
        <select id={id} name={field.name} aria-invalid={invalid} aria-describedby={described}>
          {field.kind.options.map((o) => (
            <option value={o} selected={o === String(props.value ?? "")}>
              {names[o] ?? o}
            </option>
          ))}
        </select>
        {after}
      </div>
    );
  }
  const type = { text: "text", email: "email", url: "url", number: "number", color: "color", days: "text", amount: "text", account: "text" }[field.kind];
  return (
    <Field
      name={field.name}
      label={label}
      type={type}
      value={shown(field, props.value)}
      error={props.error}
      hint={hint}
      required={field.required}
      inputmode={field.kind === "amount" ? "decimal" : field.kind === "days" || field.kind === "account" ? "numeric" : undefined}
      wide={field.wide}
    />
  );
}

/** One group's form: its fields (disabled without the scope to save them) and, with it, its Save button. */
export function GroupForm(props: {
  input: PageInput;
  tt: SettingsTexts;
  group: Group;
  values: Record<string, unknown>;
  problems: Problems;
  action: string;
  id?: string;
  extra?: Html;
}): Html {
  const { input, tt, group, problems } = props;
  const editable = input.can(group.scope);
  return (
    <form method="post" action={props.action} class="card settings" id={props.id} aria-labelledby={`g-${group.id}`}>
      <h2 id={`g-${group.id}`}>{tt.groups[group.id]}</h2>
      {tt.groupHints[group.id] ? <p class="muted">{tt.groupHints[group.id]}</p> : null}
      <Notice error={problems.message} />
      <CsrfField token={input.csrf} />
      <fieldset disabled={!editable} class="fields">
        {group.fields.map((f) => (
          <Input field={f} tt={tt} value={props.values[f.name]} error={problems.fields[f.name]} />
        ))}
        {props.extra}
      </fieldset>
      {editable ? (
        <div class="actions">
          <button type="submit">{input.t.save}</button>
        </div>
      ) : null}
    </form>
  );
}

export function Tabs(props: { tt: SettingsTexts; current: "club" | "card" }): Html {
  return (
    <nav class="tabs" aria-label={props.tt.clubTab}>
      <a href="/admin/settings" aria-current={props.current === "club" ? "page" : undefined}>
        {props.tt.clubTab}
      </a>
      <a href="/admin/settings/card" aria-current={props.current === "card" ? "page" : undefined}>
        {props.tt.cardTab}
      </a>
    </nav>
  );
}

/**
 * The logo as the dashboard shows it: the path of one we serve (the page's CSP takes images from
 * this host only, and BASE_URL may name another address of it); an outside address as it is.
 */
export function logoSrc(logoUrl: unknown): string | null {
  if (typeof logoUrl !== "string" || !logoUrl) return null;
  const url = URL.parse(logoUrl);
  return url?.pathname.startsWith("/logos/") ? `${url.pathname}${url.search}` : logoUrl;
}

/** Saves one group through updateClub; a refusal shows the page again with the typed values and the API's messages. */
export async function save(input: PageInput, group: Group, body: Record<string, unknown>, again: (p: Problems) => Promise<Response>): Promise<Response> {
  const checked = check(ClubUpdate, body, input.locale);
  if (!checked.ok) return again(checked.problems);
  try {
    await updateClub(input.ctx, checked.data);
  } catch (err) {
    return again(problemsOf(err, input.locale));
  }
  return input.redirect(group.id === "card" ? "/admin/settings/card?done=1" : `/admin/settings?done=${group.id}#${group.id}`);
}
