// The OAuth consent page (/admin/oauth/authorize, DESIGN.md section 17): the authorization
// endpoint of the MCP server's OAuth. The frame has signed the admin in (the sign-in comes back
// here after), checks the CSRF token of the answer and audits it; this page shows the client's
// name and where it returns, lets the admin pick the scopes (never more than their own), and
// sends the admin back to the client with a code or `access_denied` (lib/oauth/authorize).
import { AREAS, type Area, type Level, type Scopes } from "../../lib/access";
import { fill } from "../../lib/i18n/dashboard";
import { OAUTH_TEXTS, type OAuthTexts } from "../../lib/i18n/dashboard-oauth";
import type { Locale } from "../../lib/i18n";
import {
  AUTHORIZE_PARAMS,
  type AuthorizeRequest,
  answerAuthorizeRequest,
  grantable,
  NotRedirectable,
  preselected,
  readAuthorizeRequest,
} from "../../lib/oauth/authorize";
import { formActionAlso, htmlResponse } from "../http";
import { h, type Html } from "../jsx";
import { CsrfField, Document } from "../layout";
import { definePage, type PageInput } from "../page";

/** 303 to the client's redirect URI (another site: not the frame's redirectTo, which stays in /admin). */
const toClient = (location: string) => new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

function Shell(props: { locale: Locale; title: string; children?: unknown }): Html {
  return (
    <Document locale={props.locale} title={props.title}>
      <main id="main" class="login consent">
        <h1>{props.title}</h1>
        {props.children as Html}
      </main>
    </Document>
  );
}

function refusedPage(locale: Locale, t: OAuthTexts, err: NotRedirectable): Response {
  const text = err.reason === "client" ? fill(t.unknownClient, { detail: err.detail }) : fill(t.foreignRedirect, { uri: err.detail });
  return htmlResponse(
    <Shell locale={locale} title={t.refusedTitle}>
      <div class="notice error" role="alert">
        <p>{text}</p>
      </div>
    </Shell>,
    400,
  );
}

function ConsentForm(props: { input: PageInput; t: OAuthTexts; request: AuthorizeRequest; chosen: Scopes; error?: string }): Html {
  const { input, t, request } = props;
  const may = grantable(input.ctx.actor);
  const host = new URL(request.redirectUri).host;
  const levels = (area: Area): Level[] => (may[area] === "edit" ? ["view", "edit"] : may[area] === "view" ? ["view"] : []);
  return (
    <Shell locale={input.locale} title={t.title}>
      <p>
        <strong>{fill(t.intro, { client: request.client.client_name })}</strong>
      </p>
      <p>{fill(t.redirectsTo, { host })}</p>
      <p class="hint">{t.unverified}</p>
      {props.error ? (
        <div class="notice error" role="alert">
          {props.error}
        </div>
      ) : null}
      <form method="post" action="/admin/oauth/authorize" class="card">
        <CsrfField token={input.csrf} />
        {AUTHORIZE_PARAMS.map((name) => (request.params[name] !== undefined ? <input type="hidden" name={name} value={request.params[name]} /> : null))}
        <fieldset>
          <legend>{t.scopesLegend}</legend>
          <p class="hint" id="scopes-hint">
            {t.scopesHint}
          </p>
          {AREAS.filter((area) => levels(area).length).map((area) => (
            <div class="field">
              <label for={`scope-${area}`}>{t.areas[area]}</label>
              <select id={`scope-${area}`} name={`scope_${area}`} aria-describedby="scopes-hint">
                <option value="" selected={!props.chosen[area]}>
                  {t.none}
                </option>
                {levels(area).map((level) => (
                  <option value={level} selected={props.chosen[area] === level}>
                    {t[level]}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
        <div class="actions">
          <button type="submit" name="decision" value="allow">
            {t.allow}
          </button>
          <button type="submit" name="decision" value="deny" class="secondary">
            {t.deny}
          </button>
        </div>
      </form>
    </Shell>
  );
}

/** The scopes picked in the form: only the seven areas, only view or edit. */
function picked(form: FormData): Scopes {
  const out: Scopes = {};
  for (const area of AREAS) {
    const value = form.get(`scope_${area}`);
    if (value === "view" || value === "edit") out[area] = value;
  }
  return out;
}

/** Reads the request; a refusal is either the refused page or a redirect to the client with its error. */
async function read(input: PageInput, source: URLSearchParams | FormData): Promise<AuthorizeRequest | Response> {
  const t = OAUTH_TEXTS[input.locale];
  try {
    const request = await readAuthorizeRequest(input.ctx, source);
    return "location" in request ? toClient(request.location) : request;
  } catch (err) {
    if (err instanceof NotRedirectable) return refusedPage(input.locale, t, err);
    throw err;
  }
}

export default definePage({
  routes: [
    {
      method: "GET",
      path: "/oauth/authorize",
      async handler(input) {
        const request = await read(input, input.query);
        if (request instanceof Response) return request;
        const t = OAUTH_TEXTS[input.locale];
        const chosen = preselected(request.asked, grantable(input.ctx.actor));
        return htmlResponse(<ConsentForm input={input} t={t} request={request} chosen={chosen} />, 200, formActionAlso(new URL(request.redirectUri).origin));
      },
    },
    {
      method: "POST",
      path: "/oauth/authorize",
      async handler(input) {
        const form = input.form ?? new FormData();
        const request = await read(input, form);
        if (request instanceof Response) return request;
        const t = OAUTH_TEXTS[input.locale];
        if (form.get("decision") !== "allow") return toClient((await answerAuthorizeRequest(input.ctx, request, { allow: false })).location);
        const scopes = picked(form);
        if (!Object.keys(scopes).length) {
          return htmlResponse(
            <ConsentForm input={input} t={t} request={request} chosen={scopes} error={t.noScope} />,
            422,
            formActionAlso(new URL(request.redirectUri).origin),
          );
        }
        return toClient((await answerAuthorizeRequest(input.ctx, request, { allow: true, scopes })).location);
      },
    },
  ],
});
