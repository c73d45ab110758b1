// /admin/settings/card — the card's appearance with a live preview, the web card itself drawn
// for a sample member (lib/cards/preview) in a frame that htmx reloads as the fields change; saved
// through updateClub as the club's settings are (settings.tsx).
import { CARD_PREVIEW_FIELDS, previewCard } from "../../lib/cards/preview";
import { privatePageHeaders } from "../../lib/cards/web";
import { getClub } from "../../lib/clubs";
import { BARCODE_FORMATS, CARD_BACK_FIELD_TYPES, type CardBackField } from "../../lib/clubs/schemas";
import { fill } from "../../lib/i18n/dashboard";
import { SETTINGS_TEXTS, type SettingsTexts } from "../../lib/i18n/dashboard-settings";
import { Notice, NO_PROBLEMS, type Problems, textOf } from "../components/form";
import { bodyOf, type Group, GroupForm, group, logoSrc, save, Tabs } from "../components/settings-form";
import { Fragment, h, type Html } from "../jsx";
import { definePage, type PageInput } from "../page";

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

export default definePage({
  routes: [
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
