// /admin/settings — the club's settings in groups (identity, membership, renewal reminders, fee
// and payouts, language), each its own form saved through the verb of PUT /api/clubs/<club>
// (updateClub) with the API's schema and scopes, and the club's logo, uploaded and removed
// through the verbs of PUT and DELETE /api/clubs/<club>/logo. The card's appearance:
// settings-card.tsx.
import { getClub } from "../../lib/clubs";
import { LOGO_MAX_BYTES, logoFileFromBody, removeClubLogo, uploadClubLogo } from "../../lib/clubs/logo";
import { MEMBERSHIP_MODES } from "../../lib/clubs/schemas";
import { LOCALES } from "../../lib/i18n";
import { SETTINGS_TEXTS, type SettingsGroup, type SettingsTexts } from "../../lib/i18n/dashboard-settings";
import { FieldNotes, Notice, NO_PROBLEMS, type Problems, problemsOf } from "../components/form";
import { bodyOf, type Group, GroupForm, group, logoSrc, save, type SettingField, Tabs } from "../components/settings-form";
import { Fragment, h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";
import { zeroPriceWarning } from "../components/zero-price";

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
    { name: "payout_iban", kind: "text", wide: true },
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
  ],
});
