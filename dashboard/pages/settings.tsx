// /admin/settings — the club's settings in groups (identity, membership, renewal reminders, fee
// and payouts, language), each its own form saved through the verb of PUT /api/clubs/<club>
// (updateClub) with the API's schema and scopes, and the club's logo, uploaded and removed
// through the verbs of PUT and DELETE /api/clubs/<club>/logo; and /admin/settings/card — the
// card's appearance with a live preview, the web card itself drawn for a sample member
// (lib/cards/preview) in a frame that htmx reloads as the fields change.
import type { Scope } from "../../lib/access";
import { CARD_PREVIEW_FIELDS, previewCard } from "../../lib/cards/preview";
import { privatePageHeaders } from "../../lib/cards/web";
import { clubFieldScopes, getClub, updateClub } from "../../lib/clubs";
import { LOGO_MAX_BYTES, logoFileFromBody, removeClubLogo, uploadClubLogo } from "../../lib/clubs/logo";
import { BARCODE_FORMATS, CARD_BACK_FIELD_TYPES, type CardBackField, ClubUpdate, MEMBERSHIP_MODES } from "../../lib/clubs/schemas";
import { LOCALES } from "../../lib/i18n";
import { fill } from "../../lib/i18n/dashboard";
import { SETTINGS_TEXTS, type SettingsGroup, type SettingsTexts } from "../../lib/i18n/dashboard-settings";
import { amountText, cents, check, Field, FieldNotes, Notice, NO_PROBLEMS, type Problems, problemsOf, textOf } from "../components/form";
import { Fragment, h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";
import { zeroPriceWarning } from "../components/zero-price";

type Kind = "text" | "textarea" | "email" | "url" | "number" | "color" | "checkbox" | "days" | "amount" | "account" | { options: readonly string[] };
/**
 * `text`: sent as "" when left empty, for a text the club may leave blank but never null (an
 * account's name, the journal code), or one the schema must refuse blank (an account number).
 */
type SettingField = { name: string; kind: Kind; required?: true; text?: true };
type Group = {
  id: SettingsGroup;
  fields: SettingField[];
  /** What saving the group needs: updateClub's own scopes for these fields (PUT /api/clubs/<club>). */
  scope: Scope[];
  /** Shown only to an admin holding these (payout fields are absent from the Club otherwise). */
  readScope: Scope[];
};

/** A group of fields, with the scopes lib/clubs says reading and writing them need. */
function group(id: SettingsGroup, fields: SettingField[]): Group {
  const { write, read } = clubFieldScopes(fields.map((f) => f.name));
  return { id, fields, scope: write, readScope: read };
}

const GROUPS: Group[] = [
  group("identity", [
    { name: "name", kind: "text", required: true },
    { name: "description", kind: "textarea" },
    { name: "contact_email", kind: "email" },
    { name: "social_website_url", kind: "url" },
    { name: "legal_name", kind: "text" },
    { name: "address", kind: "text" },
    { name: "postal_code", kind: "text" },
    { name: "city", kind: "text" },
    { name: "country", kind: "text" },
    { name: "vat_number", kind: "text" },
  ]),
  group("membership", [
    { name: "membership_mode", kind: { options: MEMBERSHIP_MODES } },
    { name: "application_instructions", kind: "textarea" },
    { name: "membership_duration_months", kind: "number" },
  ]),
  group("reminders", [
    { name: "renewal_reminder_days", kind: "days" },
    { name: "grace_period_days", kind: "number" },
    { name: "expiry_notice", kind: "checkbox" },
  ]),
  group("payout", [
    { name: "membership_fee_cents", kind: "amount" },
    { name: "currency", kind: "text", required: true },
    { name: "payout_beneficiary_name", kind: "text" },
    { name: "payout_iban", kind: "text" },
    { name: "payout_bic", kind: "text" },
    { name: "payout_bank_name", kind: "text" },
  ]),
  // Dunning and renewal invoices (DESIGN.md section 20) and the chart of accounts the journal
  // writes (section 21): each account's number (1 to 10 digits: ClubUpdate says it) beside its name.
  group("finances", [
    { name: "dunning_days", kind: "days" },
    { name: "dunning_fee_cents", kind: "amount" },
    { name: "suspend_after_dunning", kind: "checkbox" },
    { name: "renewal_invoices", kind: "checkbox" },
    ...(["revenue", "fees", "bank", "events", "passage"] as const).flatMap((account): SettingField[] => [
      { name: `accounting_account_${account}`, kind: "account", text: true },
      { name: `accounting_account_${account}_name`, kind: "text", text: true },
    ]),
    { name: "accounting_journal", kind: "text", text: true },
  ]),
  group("language", [{ name: "locale", kind: { options: LOCALES } }]),
];

const CARD_GROUP: Group = group("card", [
  { name: "primary_color", kind: "color" },
  { name: "secondary_color", kind: "color" },
  { name: "card_label_color", kind: "color" },
  { name: "card_welcome_message", kind: "textarea" },
  { name: "card_custom_link_label", kind: "text" },
  { name: "card_custom_link_url", kind: "url" },
  { name: "card_barcode_format", kind: { options: BARCODE_FORMATS } },
  { name: "card_sharing_prohibited", kind: "checkbox" },
]);

/** Blank rows offered after the club's back fields, to add some. */
const BLANK_BACK_ROWS = 2;

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
function bodyOf(group: Group, form: FormData | null): Record<string, unknown> {
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

/**
 * The back fields from the form's rows, each laid over the stored field of its row so that what
 * the form does not show (a partner's address, the tiers) is kept; a row without label and value
 * is dropped.
 */
function backFieldsOf(form: FormData | null, stored: CardBackField[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < stored.length + BLANK_BACK_ROWS; i++) {
    const get = (name: string) => textOf(form, `back_${name}_${i}`);
    if (!get("label") && !get("value")) continue;
    rows.push({ ...(stored[i] ?? {}), type: get("type") || "text", label: get("label"), value: get("value"), is_perk: form?.get(`back_perk_${i}`) !== null });
  }
  return rows;
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
    />
  );
}

/** One group's form: its fields (disabled without the scope to save them) and, with it, its Save button. */
function GroupForm(props: {
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

function Tabs(props: { tt: SettingsTexts; current: "club" | "card" }): Html {
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
function logoSrc(logoUrl: unknown): string | null {
  if (typeof logoUrl !== "string" || !logoUrl) return null;
  const url = URL.parse(logoUrl);
  return url?.pathname.startsWith("/logos/") ? `${url.pathname}${url.search}` : logoUrl;
}

/** The logo, with a form to upload another (multipart: the file in `file`) and one to remove it, for an admin who may. */
function LogoForm(props: { input: PageInput; tt: SettingsTexts; logoUrl: unknown; problems: Problems }): Html {
  const { input, tt, problems } = props;
  const src = logoSrc(props.logoUrl);
  const error = problems.fields.file;
  const described = ["f-logo-file-hint", error ? "f-logo-file-error" : null].filter(Boolean).join(" ");
  return (
    <section class="card settings" id="logo" aria-labelledby="g-logo">
      <h2 id="g-logo">{tt.logo}</h2>
      <Notice error={problems.message} />
      {src ? <img src={src} alt={tt.logoAlt} class="logo-preview" /> : <p>{tt.noLogo}</p>}
      {input.can(uploadClubLogo.scope) ? (
        <Fragment>
          <form method="post" action="/admin/settings/logo" enctype="multipart/form-data">
            <CsrfField token={input.csrf} />
            <div class="field">
              <label for="f-logo-file">{tt.logoFile}</label>
              <input
                id="f-logo-file"
                name="file"
                type="file"
                accept="image/png,image/jpeg,image/webp,image/svg+xml"
                required
                aria-invalid={error ? "true" : undefined}
                aria-describedby={described}
              />
              <FieldNotes id="f-logo-file" hint={tt.logoHint} error={error} />
            </div>
            <div class="actions">
              <button type="submit">{tt.logoUpload}</button>
            </div>
          </form>
          {src ? (
            <form method="post" action="/admin/settings/logo/remove" class="actions">
              <CsrfField token={input.csrf} />
              <button type="submit" class="secondary">
                {tt.logoRemove}
              </button>
            </form>
          ) : null}
        </Fragment>
      ) : (
        <p class="muted">{tt.logoHint}</p>
      )}
    </section>
  );
}

async function clubPage(
  input: PageInput,
  failed?: { group: SettingsGroup; values: Record<string, unknown>; problems: Problems },
  logoProblems: Problems = NO_PROBLEMS,
): Promise<Response> {
  const tt = SETTINGS_TEXTS[input.locale];
  const club = (await getClub(input.ctx)) as Record<string, unknown>;
  const done = input.query.get("done");
  return input.page(
    input.t.nav.settings,
    <Fragment>
      <Tabs tt={tt} current="club" />
      <Notice done={done ? tt.saved : null} />
      {await zeroPriceWarning(input)}
      <div class="settings-grid">
        <LogoForm input={input} tt={tt} logoUrl={club.logo_url} problems={logoProblems} />
        {GROUPS.filter((g) => input.can(g.readScope)).map((group) => {
          const mine = failed?.group === group.id;
          return (
            <GroupForm
              input={input}
              tt={tt}
              group={group}
              values={mine ? { ...club, ...failed.values } : club}
              problems={mine ? failed.problems : NO_PROBLEMS}
              action={`/admin/settings/${group.id}`}
              id={group.id}
            />
          );
        })}
      </div>
    </Fragment>,
    { status: failed?.problems.status ?? (logoProblems.status === 200 ? undefined : logoProblems.status) },
  );
}

/**
 * Uploads the form's file through the API's verb; a refusal shows the page again with the reason
 * beside the field (a file over the limit in words, not bytes).
 */
async function uploadLogo(input: PageInput): Promise<Response> {
  try {
    await uploadClubLogo(input.ctx, { file: await logoFileFromBody({ file: input.form?.get("file") }) });
  } catch (err) {
    const problems = problemsOf(err, input.locale);
    const tooLarge = problems.status === 413 ? { fields: { file: SETTINGS_TEXTS[input.locale].logoTooLarge }, message: null } : {};
    return clubPage(input, undefined, { ...problems, ...tooLarge });
  }
  return input.redirect("/admin/settings?done=logo#logo");
}

/** Saves one group through updateClub; a refusal shows the page again with the typed values and the API's messages. */
async function save(input: PageInput, group: Group, body: Record<string, unknown>, again: (p: Problems) => Promise<Response>): Promise<Response> {
  const checked = check(ClubUpdate, body, input.locale);
  if (!checked.ok) return again(checked.problems);
  try {
    await updateClub(input.ctx, checked.data);
  } catch (err) {
    return again(problemsOf(err, input.locale));
  }
  return input.redirect(group.id === "card" ? "/admin/settings/card?done=1" : `/admin/settings?done=${group.id}#${group.id}`);
}

/** The preview's address: the frame below, with the form's unsaved values. */
function previewSrc(values: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (typeof v === "string") params.set(k, v);
  return `/admin/settings/card/frame?${params}`;
}

function PreviewFrame(props: { src: string; tt: SettingsTexts }): Html {
  return <iframe src={props.src} title={props.tt.previewTitle} class="card-preview" loading="lazy"></iframe>;
}

/** The form's appearance values, as the preview takes them (the back fields from their rows). */
function previewValues(query: URLSearchParams, stored: CardBackField[]): Record<string, unknown> {
  const form = new FormData();
  for (const [k, v] of query) form.append(k, v);
  const out: Record<string, unknown> = {
    ...bodyOf({ ...CARD_GROUP, fields: CARD_GROUP.fields.filter((f) => query.has(f.name) || f.kind === "checkbox") }, form),
  };
  if (!query.has("card_sharing_prohibited") && !query.has("_form")) delete out.card_sharing_prohibited;
  if ([...query.keys()].some((k) => k.startsWith("back_"))) out.card_back_fields = backFieldsOf(form, stored);
  for (const k of Object.keys(out)) if (!(CARD_PREVIEW_FIELDS as readonly string[]).includes(k)) delete out[k];
  return out;
}

function BackFields(props: { tt: SettingsTexts; fields: Record<string, unknown>[]; error?: string }): Html {
  const { tt } = props;
  const rows = [...props.fields, ...Array.from({ length: BLANK_BACK_ROWS }, () => ({}) as Record<string, unknown>)];
  return (
    <fieldset class="back-fields wide">
      <legend>{tt.backFields}</legend>
      <p class="muted">{tt.backFieldsHint}</p>
      {props.error ? <p class="error-text">{props.error}</p> : null}
      {rows.map((row, i) => {
        const name = fill(tt.backField, { n: i + 1 });
        return (
          <fieldset class="back-row">
            <legend class="row-title">{name}</legend>
            <div class="field">
              <label for={`back-type-${i}`}>{tt.labels.back_type}</label>
              <select id={`back-type-${i}`} name={`back_type_${i}`}>
                {CARD_BACK_FIELD_TYPES.map((type) => (
                  <option value={type} selected={type === (row.type ?? "text")}>
                    {tt.backTypes[type]}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for={`back-label-${i}`}>{tt.labels.back_label}</label>
              <input id={`back-label-${i}`} name={`back_label_${i}`} type="text" value={String(row.label ?? "")} />
            </div>
            <div class="field">
              <label for={`back-value-${i}`}>{tt.labels.back_value}</label>
              <input id={`back-value-${i}`} name={`back_value_${i}`} type="text" value={String(row.value ?? "")} />
            </div>
            <div class="field check">
              <input id={`back-perk-${i}`} name={`back_perk_${i}`} type="checkbox" value="true" checked={row.is_perk === true} />
              <label for={`back-perk-${i}`}>{tt.perk}</label>
            </div>
          </fieldset>
        );
      })}
    </fieldset>
  );
}

async function cardPage(input: PageInput, failed?: { values: Record<string, unknown>; problems: Problems }): Promise<Response> {
  const tt = SETTINGS_TEXTS[input.locale];
  const club = (await getClub(input.ctx)) as Record<string, unknown>;
  const values = failed ? { ...club, ...failed.values } : club;
  const backs = (values.card_back_fields as Record<string, unknown>[] | null) ?? [];
  const logo = logoSrc(club.logo_url);
  const problems = failed?.problems ?? NO_PROBLEMS;
  const backError = problems.fields.card_back_fields;
  const previewQuery = Object.fromEntries(CARD_PREVIEW_FIELDS.filter((k) => typeof values[k] === "string").map((k) => [k, values[k]]));
  return input.page(
    tt.cardTitle,
    <Fragment>
      <Tabs tt={tt} current="card" />
      <Notice done={input.query.get("done") ? tt.saved : null} />
      <div class="card-layout">
        <GroupForm
          input={input}
          tt={tt}
          group={CARD_GROUP}
          values={values}
          problems={problems}
          action="/admin/settings/card"
          id="card-form"
          extra={
            <Fragment>
              <input type="hidden" name="_form" value="card" />
              <BackFields tt={tt} fields={backs} error={backError} />
            </Fragment>
          }
        />
        <section class="card preview" aria-labelledby="preview-title">
          <h2 id="preview-title">{tt.preview}</h2>
          <p class="muted" id="preview-hint">
            {tt.previewHint}
          </p>
          <div
            id="card-preview"
            hx-get="/admin/settings/card/preview"
            hx-trigger="input delay:400ms from:#card-form, change from:#card-form"
            hx-include="#card-form"
            hx-params="not _csrf"
            aria-live="polite"
          >
            <PreviewFrame src={previewSrc(previewQuery)} tt={tt} />
          </div>
          <h3>{tt.logo}</h3>
          {logo ? <img src={logo} alt={tt.logoAlt} class="logo-preview" /> : <p>{tt.noLogo}</p>}
          <p class="muted">
            <a href="/admin/settings#logo">{tt.logoElsewhere}</a>
          </p>
        </section>
      </div>
    </Fragment>,
    { status: problems.status === 200 ? undefined : problems.status },
  );
}

const groupRoutes = GROUPS.map((group) => ({
  method: "POST" as const,
  path: `/settings/${group.id}`,
  scope: group.scope,
  handler: (input: PageInput) => {
    const body = bodyOf(group, input.form);
    return save(input, group, body, (problems) => clubPage(input, { group: group.id, values: body, problems }));
  },
}));

export default definePage({
  // The club is read with no scope (getClub: any caller reads it); the page is for who may see
  // the club's page settings, its forms each saved by its verb's scopes. docs/decisions.md, tidy32.
  nav: { id: "settings", path: "/settings", scope: "page:view", order: 70 },
  routes: [
    { method: "GET", path: "/settings", scope: "page:view", handler: (input) => clubPage(input) },
    ...groupRoutes,
    // Up to twice the limit reaches the form, whose answer says the file is too large; past that the frame refuses it.
    { method: "POST", path: "/settings/logo", scope: uploadClubLogo.scope, maxBodyBytes: 2 * LOGO_MAX_BYTES, handler: uploadLogo },
    {
      method: "POST",
      path: "/settings/logo/remove",
      scope: removeClubLogo.scope,
      handler: async (input) => {
        await removeClubLogo(input.ctx, {});
        return input.redirect("/admin/settings?done=logo#logo");
      },
    },
    { method: "GET", path: "/settings/card", scope: previewCard.scope, handler: (input) => cardPage(input) },
    {
      method: "POST",
      path: "/settings/card",
      scope: CARD_GROUP.scope,
      handler: async (input) => {
        const club = await getClub(input.ctx);
        const body = { ...bodyOf(CARD_GROUP, input.form), card_back_fields: backFieldsOf(input.form, club.card_back_fields ?? []) };
        return save(input, CARD_GROUP, body, (problems) => cardPage(input, { values: body, problems }));
      },
    },
    {
      // The frame's address for the form's current values (htmx swaps it in as the fields change).
      method: "GET",
      path: "/settings/card/preview",
      scope: previewCard.scope,
      handler: (input) => {
        const params = new URLSearchParams();
        for (const [k, v] of input.query) if (k !== "_csrf") params.append(k, v);
        return <PreviewFrame src={`/admin/settings/card/frame?${params}`} tt={SETTINGS_TEXTS[input.locale]} />;
      },
    },
    {
      // The web card of a sample member with the unsaved values: a page of its own, framed by ours only.
      method: "GET",
      path: "/settings/card/frame",
      scope: previewCard.scope,
      handler: async (input) => {
        const tt = SETTINGS_TEXTS[input.locale];
        const club = await getClub(input.ctx);
        const html = await previewCard(input.ctx, {
          overrides: previewValues(input.query, club.card_back_fields ?? []),
          sample: { name: tt.sampleName, tierName: tt.sampleTier },
        });
        const headers = privatePageHeaders();
        headers["content-security-policy"] = headers["content-security-policy"].replace("frame-ancestors 'none'", "frame-ancestors 'self'");
        return new Response(html, { headers: { ...headers, "content-type": "text/html; charset=utf-8" } });
      },
    },
  ],
});
