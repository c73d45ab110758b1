// /admin/keys — the club's API keys: the list (name, rights, created, last used; never a secret),
// a key created with a scope picker (7 areas x none/view/edit, a view-only switch) and shown
// once with a copy button, and revocation behind a confirmation. The verbs are those of
// /api/account/api-keys (a dashboard session's own routes: a read-only admin may still make
// view-only keys and revoke their own, as there).
//
// The list is made of rows of several kinds (ROW_SOURCES): API keys and the OAuth grants of
// assistants (issue 20), each with its own revoke route; another kind adds its source.
import { AREAS, type Area, type Level, mayRevokeCredentialOf, type Scopes } from "../../lib/access";
import { listTeam } from "../../lib/auth/admins";
import { ApiKeyCreate, createApiKey, listClubApiKeys, revokeApiKey } from "../../lib/auth/keys";
import { fill } from "../../lib/i18n/dashboard";
import { listGrants, revokeGrant } from "../../lib/oauth/grants";
import { KEYS_TEXTS, type KeysTexts } from "../../lib/i18n/dashboard-keys";
import { check, Field, Notice, NO_PROBLEMS, type Problems, problemsOf, textOf } from "../components/form";
import { type Column, RecordTable } from "../components/record-table";
import { ShownOnce } from "../components/shown-once";
import { day, instant, zoned } from "../format";
import { Fragment, h, type Html } from "../jsx";
import { CsrfField } from "../layout";
import { definePage, type PageInput } from "../page";

/** One credential of the list, whatever its kind. */
export type KeyRow = {
  kind: keyof KeysTexts["kind"];
  id: string;
  name: string;
  /** The admin it acts for (their email). */
  owner: string;
  scopes: Scopes;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  /** Where its revoke form posts; null when this admin may not revoke it. */
  revokePath: string | null;
};

type RowSource = (input: PageInput, owners: Map<string, string>) => Promise<KeyRow[]>;

async function apiKeyRows(input: PageInput, owners: Map<string, string>): Promise<KeyRow[]> {
  const keys = await listClubApiKeys(input.ctx, {});
  // The rule revokeApiKey applies: the link shows only where the revocation would be taken.
  const mayRevoke = (adminId: string) => mayRevokeCredentialOf(input.ctx.actor, adminId);
  return keys.map((k) => ({
    kind: "api_key",
    id: k.id,
    name: k.name ? `${k.name} (${k.prefix}…)` : `${k.prefix}…`,
    owner: owners.get(k.admin_id) ?? "",
    scopes: k.scopes,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
    expires_at: k.expires_at,
    revoked_at: k.revoked_at,
    revokePath: k.revoked_at || !mayRevoke(k.admin_id) ? null : `/admin/keys/${k.id}/revoke`,
  }));
}

/** The assistants allowed in over OAuth (issue 20): named by their client, acting for an admin until revoked. */
async function grantRows(input: PageInput, owners: Map<string, string>): Promise<KeyRow[]> {
  const grants = await listGrants(input.ctx.db, input.ctx.clubId);
  // The rule revokeGrant applies: the link shows only where the revocation would be taken.
  const mayRevoke = (adminId: string) => mayRevokeCredentialOf(input.ctx.actor, adminId);
  return grants.map((g) => ({
    kind: "oauth_grant",
    id: g.id,
    name: g.client_name,
    owner: owners.get(g.admin_id) ?? "",
    scopes: g.scopes,
    created_at: g.created_at,
    last_used_at: g.last_used_at,
    expires_at: null,
    revoked_at: g.revoked_at,
    revokePath: g.revoked_at || !mayRevoke(g.admin_id) ? null : `/admin/keys/grants/${g.id}/revoke`,
  }));
}

/** Every kind of credential the page lists, newest first. */
const ROW_SOURCES: RowSource[] = [apiKeyRows, grantRows];

function rightsOf(scopes: Scopes, tt: KeysTexts): string {
  const parts = AREAS.filter((a) => scopes[a]).map((a) => `${tt.areas[a]} (${tt.levels[scopes[a] as Level].toLowerCase()})`);
  return parts.length ? parts.join(", ") : tt.levels.none;
}

function stateOf(row: KeyRow, tt: KeysTexts): { text: string; cls: string } {
  if (row.revoked_at) return { text: tt.revoked, cls: "status-suspended" };
  if (row.expires_at && Date.parse(row.expires_at) <= Date.now()) return { text: tt.expired, cls: "status-expired" };
  return { text: tt.active, cls: "status-active" };
}

function KeyList(props: { input: PageInput; tt: KeysTexts; rows: KeyRow[] }): Html {
  const { input, tt } = props;
  const { locale } = input;
  if (!props.rows.length) return <p class="card">{tt.empty}</p>;
  const columns: Column[] = [
    { label: tt.name, class: "wrap" },
    { label: tt.scopes, class: "wrap" },
    { label: tt.owner, class: "wrap" },
    { label: tt.created },
    { label: zoned(tt.lastUsed, input.timeZone) },
    { label: tt.state },
    { label: tt.revoke, actions: true },
  ];
  const rows = props.rows.map((row) => {
    const state = stateOf(row, tt);
    return [
      <Fragment>
        {row.name}
        <br />
        <span class="muted">{tt.kind[row.kind]}</span>
      </Fragment>,
      rightsOf(row.scopes, tt),
      row.owner,
      day(row.created_at, locale),
      row.last_used_at ? instant(row.last_used_at, locale, input.timeZone) : tt.never,
      <Fragment>
        <span class={`status ${state.cls}`}>{state.text}</span>
        {row.expires_at && !row.revoked_at ? <span class="muted"> {`${tt.expires} ${day(row.expires_at, locale)}`}</span> : null}
      </Fragment>,
      row.revokePath ? (
        <form method="post" action={row.revokePath} class="inline" data-confirm={tt.revokeConfirm}>
          <CsrfField token={input.csrf} />
          <button type="submit" class="danger" aria-label={fill(tt.revokeOf, { name: row.name })}>
            {tt.revoke}
          </button>
        </form>
      ) : null,
    ];
  });
  return <RecordTable columns={columns} rows={rows} />;
}

/** The picker: per area none/view/edit (edit left out for a read-only admin: their keys only read). */
function ScopePicker(props: { tt: KeysTexts; chosen: Scopes; readOnly: boolean }): Html {
  const { tt } = props;
  const levels = props.readOnly ? (["none", "view"] as const) : (["none", "view", "edit"] as const);
  return (
    <div class="scope-picker">
      {AREAS.map((area) => (
        <fieldset class="scope-row">
          <legend>{tt.areas[area]}</legend>
          {levels.map((level) => (
            <label>
              <input type="radio" name={`scope_${area}`} value={level} checked={(props.chosen[area] ?? "none") === level} />
              {tt.levels[level]}
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  );
}

type FormState = { values: Record<string, string>; chosen: Scopes; problems: Problems };

async function keysPage(input: PageInput, opts: { created?: { api_key: string; name: string }; form?: FormState; status?: number } = {}): Promise<Response> {
  const tt = KEYS_TEXTS[input.locale];
  const team = await listTeam(input.ctx);
  const owners = new Map(team.map((a) => [a.id, a.email]));
  const rows = (await Promise.all(ROW_SOURCES.map((source) => source(input, owners)))).flat().sort((a, b) => b.created_at.localeCompare(a.created_at));
  const form = opts.form ?? { values: {}, chosen: {}, problems: NO_PROBLEMS };
  const done = input.query.get("done");
  const readOnly = input.admin.read_only;
  return input.page(
    input.t.nav.keys,
    <Fragment>
      <Notice done={done === "revoked" ? tt.revokedDone : null} />
      {opts.created ? (
        <ShownOnce id="new-key" title={tt.createdTitle} text={tt.createdText} value={opts.created.api_key} copy={tt.copy} copied={tt.copied} />
      ) : null}
      <p>{tt.intro}</p>
      <section aria-labelledby="list" class="block">
        <h2 id="list">{tt.listTitle}</h2>
        <KeyList input={input} tt={tt} rows={rows} />
      </section>
      <section aria-labelledby="create">
        <form method="post" action="/admin/keys" class="card tight" aria-labelledby="create">
          <h2 id="create">{tt.createTitle}</h2>
          <Notice error={form.problems.message} />
          {readOnly ? <p class="muted">{tt.readOnlyAdmin}</p> : null}
          <CsrfField token={input.csrf} />
          <div class="fields">
            <Field name="name" label={tt.name} value={form.values.name} error={form.problems.fields.name} autocomplete="off" />
            <Field
              name="expires_at"
              label={tt.expires}
              type="date"
              value={form.values.expires_at}
              error={form.problems.fields.expires_at}
              hint={tt.expiresHint}
            />
          </div>
          <h3>{tt.scopes}</h3>
          {form.problems.fields.scopes ? <p class="error-text">{form.problems.fields.scopes}</p> : null}
          <ScopePicker tt={tt} chosen={form.chosen} readOnly={readOnly} />
          {readOnly ? null : (
            <div class="field check">
              <input
                id="f-view_only"
                name="view_only"
                type="checkbox"
                value="true"
                checked={form.values.view_only === "true"}
                aria-describedby="f-view_only-hint"
              />
              <label for="f-view_only">{tt.viewOnly}</label>
              <p id="f-view_only-hint" class="muted">
                {tt.viewOnlyHint}
              </p>
            </div>
          )}
          <div class="actions">
            <button type="submit">{tt.create}</button>
          </div>
        </form>
      </section>
    </Fragment>,
    { status: opts.status },
  );
}

/** The picker's choice as the API's `scopes`: areas at none left out; all capped at view with the view-only switch. */
function scopesOf(form: FormData | null): Scopes {
  const viewOnly = form?.get("view_only") === "true";
  const scopes: Scopes = {};
  for (const area of AREAS) {
    const level = form?.get(`scope_${area}`);
    if (level === "view" || level === "edit") scopes[area as Area] = viewOnly ? "view" : level;
    else if (typeof level === "string" && level !== "none" && level !== "") scopes[area as Area] = level as Level;
  }
  return scopes;
}

async function create(input: PageInput): Promise<Response> {
  const text = (name: string) => textOf(input.form, name);
  const values = { name: text("name"), expires_at: text("expires_at"), view_only: text("view_only") };
  const chosen = scopesOf(input.form);
  const again = (problems: Problems) => keysPage(input, { form: { values, chosen, problems }, status: problems.status });
  // A day typed: the key works through that whole day (UTC).
  const expires = /^\d{4}-\d{2}-\d{2}$/.test(values.expires_at) ? `${values.expires_at}T23:59:59.999Z` : values.expires_at || null;
  const checked = check(ApiKeyCreate, { name: values.name || null, scopes: chosen, expires_at: expires }, input.locale);
  if (!checked.ok) return again(checked.problems);
  try {
    const key = await createApiKey(input.ctx.db, {
      adminId: input.admin.id,
      scopes: checked.data.scopes,
      name: checked.data.name,
      expiresAt: checked.data.expires_at,
    });
    return keysPage(input, { created: { api_key: key.api_key, name: key.name ?? key.prefix }, status: 201 });
  } catch (err) {
    return again(problemsOf(err, input.locale));
  }
}

export default definePage({
  // Keys are made in each admin's own account section (SPEC): the list's verb needs no area, so
  // the entry and the page are every admin's (docs/decisions.md, pages32).
  nav: { id: "keys", path: "/keys", scope: listClubApiKeys.scope, order: 80 },
  routes: [
    { method: "GET", path: "/keys", scope: listClubApiKeys.scope, handler: (input) => keysPage(input) },
    { method: "POST", path: "/keys", scope: listClubApiKeys.scope, handler: create },
    {
      method: "POST",
      path: "/keys/:key_id/revoke",
      handler: async (input) => {
        await revokeApiKey(input.ctx.db, input.params.key_id, { clubId: input.ctx.clubId, actor: input.ctx.actor });
        return input.redirect("/admin/keys?done=revoked");
      },
    },
    {
      method: "POST",
      path: "/keys/grants/:grant_id/revoke",
      handler: async (input) => {
        await revokeGrant(input.ctx.db, input.params.grant_id, { clubId: input.ctx.clubId, actor: input.ctx.actor });
        return input.redirect("/admin/keys?done=revoked");
      },
    },
  ],
});
