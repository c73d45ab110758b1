// The admin dashboard (/admin, DESIGN.md section 16): a transport like routes/ and lib/mcp, over
// the same lib/ verbs. This frame owns what every page relies on: the static assets, sign-in and
// sign-out (the session's token in an HttpOnly cookie), the CSRF check of every write, the route's
// scope (the API's, lib/access), the admin's lib/ context, errors shown in the club's language,
// and the audit row (`via: dashboard`) of every write. Pages are the files of dashboard/pages/,
// loaded by themselves; how to add one: dashboard/layout.tsx.
import { join } from "node:path";
import type { Deps } from "../http/deps";
import { errorAnswer } from "../http/errors";
import { bySpecificity, compilePath, decodeParam, matchPath, type PathPattern } from "../http/paths";
import { type AdminCaller, hasScope, type Needs, requireScope, scopeList } from "../lib/access";
import { changesColumn } from "../lib/audit";
import { type AdminMe, getAdminMe } from "../lib/auth/admins";
import { resolveCaller, SESSION_PREFIX } from "../lib/auth/caller";
import { refreshSession } from "../lib/auth/sessions";
import { clubTimeZone } from "../lib/clubs/time-zone";
import { type Ctx, siteOf } from "../lib/context";
import { AppError, Forbidden, nulItems, ValidationFailed } from "../lib/errors";
import { type Locale, localeFromAcceptLanguage } from "../lib/i18n";
import { DASHBOARD_TEXTS } from "../lib/i18n/dashboard";
import { assetResponse } from "./assets";
import { auditWrite, csrfToken, htmlResponse, readCookie, redirectTo, SESSION_COOKIE, sameToken } from "./http";
import { type Html, h } from "./jsx";
import { clubOf, Document, Layout, type NavEntry } from "./layout";
import type { DashPage, DashRoute, PageInput } from "./page";
import { signInRoutes } from "./sign-in";

export const PAGES_DIR = join(import.meta.dir, "pages");

export type Dashboard = {
  /**
   * Answers a dashboard request. `readBody` reads a write's body within the route's size cap (413
   * beyond): called once the admin is known, so that a refused body leaves its audit row too.
   */
  handle(request: Request, ip: string | null, requestId: string, readBody: (request: Request) => Promise<Request>): Promise<Response>;
  /** A refusal met before `handle` knew the admin (a sign-in form over MAX_BODY_BYTES) as a page, not the API's JSON. */
  refused(err: unknown, request: Request): Response;
  /** The largest body the route of `method` and `path` reads, where it declares more than MAX_BODY_BYTES. */
  maxBodyBytes(method: string, path: string): number | undefined;
};

/** The form of a write (url-encoded or multipart); an empty one for anything else. */
async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    try {
      return await request.formData();
    } catch {
      return new FormData();
    }
  }
  return new FormData();
}

type Compiled = { route: DashRoute; pattern: PathPattern };

const compile = (route: DashRoute): Compiled => ({ route, pattern: compilePath(`/admin${route.path === "/" ? "" : route.path}`, { trailingSlash: true }) });

export async function loadPages(): Promise<DashPage[]> {
  const files = [...new Bun.Glob("*.tsx").scanSync(PAGES_DIR)].sort();
  const pages: DashPage[] = [];
  for (const file of files) pages.push(((await import(join(PAGES_DIR, file))) as { default: DashPage }).default);
  return pages;
}

export async function createDashboard(deps: Deps): Promise<Dashboard> {
  const { db, config, audit } = deps;
  const site = siteOf(config);
  const secure = config.baseUrl.startsWith("https:");
  const pages = await loadPages();
  const nav = pages
    .flatMap((p) => (p.nav ? [p.nav] : []))
    .sort((a, b) => a.order - b.order)
    .map((n) => ({ ...n }));
  // More fixed segments first: `/members/new` before `/members/:member_id`.
  const table = pages
    .flatMap((p) => p.routes)
    .map(compile)
    .sort(bySpecificity);
  const signIn = signInRoutes({ db, config, audit, secure });

  function match(method: string, path: string): { route: DashRoute; params: Record<string, string> } | "method" | null {
    let wrongMethod = false;
    for (const c of table) {
      const groups = matchPath(c.pattern, path);
      if (!groups) continue;
      if (c.route.method !== method) {
        wrongMethod = true;
        continue;
      }
      const params: Record<string, string> = {};
      for (const [name, raw] of Object.entries(groups)) {
        const value = decodeParam(name, raw);
        // An address that does not decode is no page's.
        if (value === null) return null;
        params[name] = value;
      }
      return { route: c.route, params };
    }
    return wrongMethod ? "method" : null;
  }

  /** The page shown for a refusal or an error (the layout when the admin is known). */
  function errorPage(err: unknown, locale: Locale, layout: ((title: string, body: Html, status: number) => Response) | null, htmx: boolean): Response {
    const answer = errorAnswer(err, locale);
    const t = DASHBOARD_TEXTS[locale];
    const detail = typeof answer.body.detail === "string" ? answer.body.detail : answer.body.detail.map((i) => i.msg).join(" ");
    const body = (
      <div class="notice error" role="alert">
        <p>{detail}</p>
      </div>
    );
    if (htmx) return htmlResponse(body, answer.status, answer.headers);
    if (layout) return layout(t.errorTitle, body, answer.status);
    return htmlResponse(
      <Document locale={locale} title={t.errorTitle}>
        <main id="main" class="login">
          <h1>{t.errorTitle}</h1>
          {body}
          <p>
            <a href="/admin">{t.back}</a>
          </p>
        </main>
      </Document>,
      answer.status,
      answer.headers,
    );
  }

  async function handle(request: Request, ip: string | null, requestId: string, readBody: (request: Request) => Promise<Request>): Promise<Response> {
    const started = performance.now();
    const url = new URL(request.url);
    const path = url.pathname;
    const method = request.method === "HEAD" ? "GET" : request.method;
    const htmx = request.headers.get("hx-request") === "true";
    let locale = localeFromAcceptLanguage(request.headers.get("accept-language"));

    if (path.startsWith("/admin/assets/")) return assetResponse(path.slice("/admin/assets/".length)) ?? htmlResponse("", 404);
    const own = signIn.match(method, path);
    if (own) return own(method === "GET" ? request : await readBody(request), ip, requestId, locale);

    const token = readCookie(request, SESSION_COOKIE);
    let caller: AdminCaller | null = null;
    if (token?.startsWith(SESSION_PREFIX)) {
      try {
        caller = await resolveCaller(db, `Bearer ${token}`);
      } catch {
        caller = null;
      }
    }
    if (!caller || !token) {
      const next = method === "GET" ? `?next=${encodeURIComponent(path + url.search)}` : "";
      return redirectTo(request, `/admin/login${next}`);
    }
    locale = caller.locale;
    const t = DASHBOARD_TEXTS[locale];
    const csrf = csrfToken(token);
    const ctx: Ctx = { db, actor: caller, clubId: caller.clubId, locale, ...site, notes: {} };
    const signedIn = caller;
    let admin: AdminMe | null = null;
    const can = (needs: Needs) => scopeList(needs).every((scope) => hasScope(signedIn.scopes, scope));
    const layout = (title: string, body: Html, status = 200) =>
      htmlResponse(
        <Layout locale={locale} t={t} admin={admin as AdminMe} csrf={csrf} nav={nav.filter((n) => can(n.scope)) as NavEntry[]} current={path} title={title}>
          {body}
        </Layout>,
        status,
      );

    let response: Response;
    try {
      await refreshSession(db, token);
      admin = await getAdminMe(ctx);
      const found = match(method, path);
      if (method !== "GET") {
        const form = await readForm(await readBody(request));
        // Every write carries the session's token, in its form or (htmx) its header.
        const given = request.headers.get("x-csrf-token") ?? (form.get("_csrf") as string | null);
        if (!sameToken(given, csrf)) throw new Forbidden("CSRF_INVALID");
        response = await run(found, form);
      } else response = await run(found, null);
    } catch (err) {
      response = errorPage(err, locale, admin ? layout : null, htmx);
    }

    async function run(found: ReturnType<typeof match>, form: FormData | null): Promise<Response> {
      if (found === null) return layout(t.notFoundTitle, <p>{t.notFoundText}</p>, 404);
      if (found === "method") throw new AppError(405, "METHOD_NOT_ALLOWED", { path, method });
      requireScope(signedIn, ...scopeList(found.route.scope));
      // A NUL in the address or a form field: refused, as on the API (lib/errors nulItems).
      const fields = form ? [...form.entries()].filter(([, v]) => typeof v === "string") : [];
      const nul = [...nulItems(Object.fromEntries(url.searchParams), ["query"]), ...nulItems(Object.fromEntries(fields), ["body"])];
      if (nul.length) throw new ValidationFailed(nul);
      const input: PageInput = {
        ctx,
        locale,
        t,
        admin: admin as AdminMe,
        timeZone: clubTimeZone(clubOf(admin as AdminMe).country),
        csrf,
        can,
        params: found.params,
        query: url.searchParams,
        form,
        request,
        htmx,
        page: (title, body, options) => layout(title, body, options?.status),
        redirect: (to) => redirectTo(request, to),
      };
      const out = await found.route.handler(input);
      return out instanceof Response ? out : htmlResponse(out);
    }

    // Every write by a signed-in admin, refused or not, leaves its row (DESIGN.md section 16).
    if (method !== "GET") {
      await auditWrite(audit, {
        request,
        path,
        status: response.status,
        started,
        ip,
        requestId,
        clubId: signedIn.clubId,
        adminId: signedIn.adminId,
        changes: changesColumn(ctx.notes),
      });
    }
    return response;
  }

  function refused(err: unknown, request: Request): Response {
    const locale = localeFromAcceptLanguage(request.headers.get("accept-language"));
    return errorPage(err, locale, null, request.headers.get("hx-request") === "true");
  }

  function maxBodyBytes(method: string, path: string): number | undefined {
    const found = match(method, path);
    return found && found !== "method" ? found.route.maxBodyBytes : undefined;
  }

  return { handle, refused, maxBodyBytes };
}
