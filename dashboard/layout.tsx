// The dashboard's frame: the document, the header (club, admin, sign-out), the navigation and the
// main area every page renders into.
//
// HOW TO ADD A PAGE
// 1. Create `dashboard/pages/<name>.tsx` exporting `default definePage({ nav, routes })`
//    (dashboard/page.ts). The frame loads every file of that folder: no list to edit.
//    - `nav: { id, path, scope, order }` puts it in the navigation (id from NAV_IDS in
//      lib/i18n/dashboard.ts; shown only to admins holding `scope`).
//    - each route: `{ method, path, scope, handler }`; `path` is under /admin; `scope` is the
//      API's scope for the same thing (DESIGN.md section 4), refused with a 403 page otherwise.
// 2. In the handler, call lib/ verbs with `input.ctx` (never db/ or drizzle), and answer
//    `input.page(title, <body/>)`, a fragment for htmx (`input.htmx`), or `input.redirect(path)`
//    after a write. A lib/ error thrown is shown in the club's language with its status.
// 3. Every form that writes: `method="post"` and `<CsrfField token={input.csrf} />`; htmx
//    requests send the token by themselves (hx-headers on <body>). Hide what the admin may not
//    do with `input.can(verb.scope)`, the scope of the verb the control's post calls (never a
//    scope written out: the page then agrees with the API); the route's scope refuses it anyway.
// 4. Texts: `input.t` holds the frame's; a page's own go in lib/i18n/dashboard-<page>.ts, a
//    `Record<Locale, ...>` in fr, en, de and it, read with `input.locale`.
// 5. Markup: JSX through dashboard/jsx.ts (`import { h } from "../jsx"`): text is escaped;
//    `raw()` only for markup we built. No inline script or style (the CSP forbids them): add CSS
//    to dashboard/assets/dashboard.css, behaviour to dashboard/assets/dashboard.js or htmx.
// 6. Tests: test/dashboard/<name>.test.ts (app.handle with a signed-in cookie,
//    test/dashboard/helpers.ts) and a browser pass in test/dashboard/browser.test.ts (roles and
//    labels, axe-core, 390 px).
import type { AdminMe } from "../lib/auth/admins";
import { type DashboardTexts, fill, type NavId } from "../lib/i18n/dashboard";
import type { Locale } from "../lib/i18n";
import { assetUrl } from "./assets";
import { type Child, Fragment, h, type Html, raw } from "./jsx";

/**
 * htmx's settings: no inline styles or eval (the CSP forbids both), no script from a swapped
 * fragment; and a refusal (4xx, 5xx) is swapped in like a success, since its fragment is the
 * message to show (htmx's default drops it, leaving the person with no answer).
 */
const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  selfRequestsOnly: true,
  responseHandling: [
    { code: "204", swap: false },
    { code: "...", swap: true },
  ],
});

export type NavEntry = { id: NavId; path: string };

export function Document(props: { locale: Locale; title: string; csrf?: string; children?: Child }): Html {
  return (
    <Fragment>
      {raw("<!doctype html>")}
      <html lang={props.locale}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="htmx-config" content={HTMX_CONFIG} />
          <meta name="referrer" content="same-origin" />
          <title>{props.title}</title>
          <link rel="icon" type="image/svg+xml" href={assetUrl("favicon.svg")} />
          <link rel="stylesheet" href={assetUrl("dashboard.css")} />
          <script src={assetUrl("htmx.min.js")} defer></script>
          <script src={assetUrl("dashboard.js")} defer></script>
        </head>
        <body hx-headers={props.csrf ? JSON.stringify({ "x-csrf-token": props.csrf }) : undefined}>{props.children}</body>
      </html>
    </Fragment>
  );
}

/** The club's fields the frame shows (ClubAdmin's fields are listed at run time, so its type does not name them). */
export function clubOf(admin: AdminMe): { name: string; currency: string; country: string | null } {
  const club = admin.club as Record<string, unknown>;
  return { name: String(club.name ?? ""), currency: String(club.currency ?? ""), country: typeof club.country === "string" ? club.country : null };
}

export function Layout(props: {
  locale: Locale;
  t: DashboardTexts;
  admin: AdminMe;
  csrf: string;
  nav: NavEntry[];
  current: string;
  title: string;
  children?: Child;
}): Html {
  const { t, admin } = props;
  const club = clubOf(admin);
  return (
    <Document locale={props.locale} title={`${props.title} · ${club.name}`} csrf={props.csrf}>
      <a class="skip" href="#main">
        {t.skip}
      </a>
      <header class="top">
        <div class="brand">
          <span class="club">{club.name}</span>
          <span class="product">{t.product}</span>
        </div>
        <div class="who">
          <span>{fill(t.signedInAs, { email: admin.email })}</span>
          {admin.read_only ? <span class="badge">{t.readOnly}</span> : null}
          <form method="post" action="/admin/logout" class="inline">
            <CsrfField token={props.csrf} />
            <button type="submit" class="link">
              {t.signOut}
            </button>
          </form>
        </div>
      </header>
      <nav class="nav" aria-label={t.menu}>
        <ul>
          {props.nav.map((entry) => (
            <li>
              <a href={`/admin${entry.path}`} aria-current={isCurrent(props.current, entry.path) ? "page" : undefined}>
                {t.nav[entry.id]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabindex="-1">
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </Document>
  );
}

function isCurrent(current: string, path: string): boolean {
  const full = `/admin${path}`;
  return path === "" || path === "/" ? current === "/admin" || current === "/admin/" : current === full || current.startsWith(`${full}/`);
}

/** The hidden field that carries the CSRF token in a form that writes. */
export function CsrfField(props: { token: string }): Html {
  return <input type="hidden" name="_csrf" value={props.token} />;
}
