// Sign-in and sign-out of the dashboard, through the sessions of lib/auth/sessions (the same
// login as POST /api/auth/login: its per-address rate, its per-account back-off, its answers),
// and the page of a one-time sign-in link (lib/auth/sign-in-links: choose a password, then in).
// Before a session exists these forms are protected by a double-submit token (a random cookie
// repeated in the form), so another site cannot sign a browser into an account of its own.
import type { Db } from "../db";
import type { AuditWriter } from "../lib/audit";
import { resolveCaller } from "../lib/auth/caller";
import { endSession, LOGIN_RATE, LoginRequest, login } from "../lib/auth/sessions";
import { PASSWORD_MIN, SetPasswordRequest, signInLinkAdmin, useSignInLink } from "../lib/auth/sign-in-links";
import type { Config } from "../lib/config";
import { AppError, Forbidden } from "../lib/errors";
import type { Locale } from "../lib/i18n";
import { DASHBOARD_TEXTS, fill } from "../lib/i18n/dashboard";
import { randomBase62 } from "../lib/ids";
import { limitAddress } from "../lib/ratelimit";
import { errorAnswer } from "../http/errors";
import { auditWrite, cookieHeader, csrfToken, htmlResponse, readCookie, redirectTo, SESSION_COOKIE, SESSION_COOKIE_MAX_AGE, sameToken } from "./http";
import { check, Field, problemsOf, type Problems } from "./components/form";
import { instant } from "./format";
import { h, type Html } from "./jsx";
import { CsrfField, Document } from "./layout";

const LOGIN_COOKIE = "club_login";

type Handler = (request: Request, ip: string | null, requestId: string, locale: Locale) => Promise<Response>;

/** Only a dashboard path is a place to go back to after signing in (no open redirect). */
function nextPath(value: unknown): string {
  return typeof value === "string" && /^\/admin(\/|$|\?)/.test(value) && !value.startsWith("//") ? value : "/admin";
}

function SignInPage(props: { locale: Locale; token: string; next: string; email?: string; error?: string }): Html {
  const t = DASHBOARD_TEXTS[props.locale];
  return (
    <Document locale={props.locale} title={t.signInTitle}>
      <main id="main" class="login">
        <h1>{t.signInTitle}</h1>
        {props.error ? (
          <div class="notice error" role="alert">
            {props.error}
          </div>
        ) : null}
        <form method="post" action="/admin/login" class="card">
          <CsrfField token={props.token} />
          <input type="hidden" name="next" value={props.next} />
          <div class="field">
            <label for="email">{t.email}</label>
            <input id="email" name="email" type="email" autocomplete="username" required value={props.email ?? ""} />
          </div>
          <div class="field">
            <label for="password">{t.password}</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required />
          </div>
          <div class="actions">
            <button type="submit">{t.signIn}</button>
          </div>
        </form>
      </main>
    </Document>
  );
}

/** The page a one-time sign-in link opens: whose account, and the form that chooses its password. */
function WelcomePage(props: { locale: Locale; csrf: string; token: string; email: string; expiresAt: string; problems: Problems }): Html {
  const t = DASHBOARD_TEXTS[props.locale];
  const w = t.welcome;
  const { fields, message } = props.problems;
  return (
    <Document locale={props.locale} title={w.title}>
      <main id="main" class="login">
        <h1>{w.title}</h1>
        {message ? (
          <div class="notice error" role="alert">
            {message}
          </div>
        ) : null}
        <p>{fill(w.text, { email: props.email })}</p>
        <form method="post" action="/admin/welcome" class="card">
          <CsrfField token={props.csrf} />
          <input type="hidden" name="token" value={props.token} />
          {/* The account's email, for the browser's password manager to file the new password under. */}
          <input type="hidden" name="email" value={props.email} autocomplete="username" />
          <Field
            name="password"
            type="password"
            label={w.newPassword}
            autocomplete="new-password"
            required
            hint={fill(w.hint, { min: PASSWORD_MIN })}
            error={fields.password}
          />
          <Field name="confirm" type="password" label={w.confirm} autocomplete="new-password" required error={fields.confirm} />
          <div class="actions">
            <button type="submit">{w.submit}</button>
          </div>
        </form>
        <p class="muted">{fill(w.expires, { date: `${instant(props.expiresAt, props.locale, "UTC")} UTC` })}</p>
      </main>
    </Document>
  );
}

/** A link that cannot be used: why, and the way to the sign-in form. */
function LinkRefusedPage(props: { locale: Locale; detail: string }): Html {
  const t = DASHBOARD_TEXTS[props.locale];
  return (
    <Document locale={props.locale} title={t.errorTitle}>
      <main id="main" class="login">
        <h1>{t.errorTitle}</h1>
        <div class="notice error" role="alert">
          <p>{props.detail}</p>
        </div>
        <p>
          <a href="/admin/login">{t.signIn}</a>
        </p>
      </main>
    </Document>
  );
}

export function signInRoutes(deps: { db: Db; config: Config; audit: AuditWriter; secure: boolean }) {
  const { db, config, audit, secure } = deps;

  /** The form, with a fresh double-submit token in a cookie and in the form. */
  function form(locale: Locale, next: string, status = 200, email?: string, error?: string): Response {
    const token = randomBase62(32);
    return htmlResponse(<SignInPage locale={locale} token={token} next={next} email={email} error={error} />, status, {
      "set-cookie": cookieHeader(LOGIN_COOKIE, token, 3600, secure),
    });
  }

  const show: Handler = async (request, _ip, _id, locale) => {
    const url = new URL(request.url);
    const next = nextPath(url.searchParams.get("next"));
    // Already signed in (a bookmark, the back button): straight on.
    const token = readCookie(request, SESSION_COOKIE);
    if (token && (await resolveCaller(db, `Bearer ${token}`).catch(() => null))) return redirectTo(request, next);
    return form(locale, next);
  };

  const submit: Handler = async (request, ip, requestId, locale) => {
    const started = performance.now();
    const fields = await request.formData().catch(() => new FormData());
    const email = String(fields.get("email") ?? "");
    const password = String(fields.get("password") ?? "");
    const next = nextPath(fields.get("next"));
    try {
      if (!sameToken(fields.get("_csrf") as string | null, readCookie(request, LOGIN_COOKIE) ?? "")) throw new Forbidden("CSRF_INVALID");
      await limitAddress(db, LOGIN_RATE.scope, LOGIN_RATE.perMinute, ip);
      // The API's own schema: a malformed pair is refused (422) before it costs a password check or counts as a failure.
      const checked = check(LoginRequest, { email, password }, locale);
      if (!checked.ok) return form(locale, next, 422, email, Object.values(checked.problems.fields).join(" "));
      const session = await login({ db, baseUrl: config.baseUrl, wallets: config.wallets, ip, locale, formProofBits: config.formProofBits }, checked.data);
      const response = redirectTo(request, next);
      response.headers.append("set-cookie", cookieHeader(SESSION_COOKIE, session.token, SESSION_COOKIE_MAX_AGE, secure));
      response.headers.append("set-cookie", cookieHeader(LOGIN_COOKIE, "", 0, secure));
      await auditWrite(audit, {
        request,
        path: "/admin/login",
        status: response.status,
        started,
        ip,
        requestId,
        clubId: session.club_id,
        adminId: session.admin_id,
      });
      return response;
    } catch (err) {
      const answer = errorAnswer(err, locale);
      const detail = typeof answer.body.detail === "string" ? answer.body.detail : answer.body.detail.map((i) => i.msg).join(" ");
      const response = form(locale, next, answer.status, email, detail);
      for (const [name, value] of Object.entries(answer.headers)) response.headers.set(name, value);
      return response;
    }
  };

  const signOut: Handler = async (request, ip, requestId) => {
    const started = performance.now();
    const token = readCookie(request, SESSION_COOKIE);
    const fields = await request.formData().catch(() => new FormData());
    const given = request.headers.get("x-csrf-token") ?? (fields.get("_csrf") as string | null);
    // Without the session's CSRF token another site could sign the admin out: refused, session kept.
    if (!token || !sameToken(given, csrfToken(token))) return redirectTo(request, "/admin");
    const caller = await resolveCaller(db, `Bearer ${token}`).catch(() => null);
    await endSession(db, token);
    const response = redirectTo(request, "/admin/login");
    response.headers.append("set-cookie", cookieHeader(SESSION_COOKIE, "", 0, secure));
    if (caller)
      await auditWrite(audit, {
        request,
        path: "/admin/logout",
        status: response.status,
        started,
        ip,
        requestId,
        clubId: caller.clubId,
        adminId: caller.adminId,
      });
    return response;
  };

  /** A refusal of a link as its page, in the club's language once the link is known. */
  function linkRefused(err: unknown, locale: Locale): Response {
    const answer = errorAnswer(err, err instanceof AppError && err.clubLocale ? err.clubLocale : locale);
    const detail = typeof answer.body.detail === "string" ? answer.body.detail : answer.body.detail.map((i) => i.msg).join(" ");
    return htmlResponse(<LinkRefusedPage locale={(err instanceof AppError && err.clubLocale) || locale} detail={detail} />, answer.status, answer.headers);
  }

  /** The link's form, with a fresh double-submit token. */
  function welcomeForm(locale: Locale, token: string, admin: { email: string; expires_at: string }, problems: Problems): Response {
    const csrf = randomBase62(32);
    return htmlResponse(
      <WelcomePage locale={locale} csrf={csrf} token={token} email={admin.email} expiresAt={admin.expires_at} problems={problems} />,
      problems.status,
      {
        "set-cookie": cookieHeader(LOGIN_COOKIE, csrf, 3600, secure),
        // The token is in this page's address: no other site may learn it from a Referer.
        "referrer-policy": "no-referrer",
      },
    );
  }

  // Opening the link spends nothing (link previews open it too): it shows whose account it is.
  const welcome: Handler = async (request, _ip, _id, locale) => {
    const token = new URL(request.url).searchParams.get("token") ?? "";
    try {
      const admin = await signInLinkAdmin(db, token);
      return welcomeForm(admin.locale, token, admin, { status: 200, fields: {}, message: null });
    } catch (err) {
      return linkRefused(err, locale);
    }
  };

  const setPassword: Handler = async (request, ip, requestId, locale) => {
    const started = performance.now();
    const fields = await request.formData().catch(() => new FormData());
    const input = { token: String(fields.get("token") ?? ""), password: String(fields.get("password") ?? ""), confirm: String(fields.get("confirm") ?? "") };
    let admin: Awaited<ReturnType<typeof signInLinkAdmin>>;
    try {
      if (!sameToken(fields.get("_csrf") as string | null, readCookie(request, LOGIN_COOKIE) ?? "")) throw new Forbidden("CSRF_INVALID");
      // Each try costs a password hash, as a sign-in does: the sign-in's rate per address.
      await limitAddress(db, LOGIN_RATE.scope, LOGIN_RATE.perMinute, ip);
      admin = await signInLinkAdmin(db, input.token);
    } catch (err) {
      return linkRefused(err, locale);
    }
    const checked = check(SetPasswordRequest, input, admin.locale);
    if (!checked.ok) return welcomeForm(admin.locale, input.token, admin, checked.problems);
    try {
      const session = await useSignInLink(db, checked.data, ip);
      const response = redirectTo(request, "/admin");
      response.headers.append("set-cookie", cookieHeader(SESSION_COOKIE, session.token, SESSION_COOKIE_MAX_AGE, secure));
      response.headers.append("set-cookie", cookieHeader(LOGIN_COOKIE, "", 0, secure));
      await auditWrite(audit, {
        request,
        path: "/admin/welcome",
        status: response.status,
        started,
        ip,
        requestId,
        clubId: session.club_id,
        adminId: session.admin_id,
      });
      return response;
    } catch (err) {
      if (err instanceof AppError && err.status === 422) return welcomeForm(admin.locale, input.token, admin, problemsOf(err, admin.locale));
      return linkRefused(err, locale);
    }
  };

  const routes: Record<string, Handler> = {
    "GET /admin/login": show,
    "POST /admin/login": submit,
    "POST /admin/logout": signOut,
    "GET /admin/welcome": welcome,
    "POST /admin/welcome": setPassword,
  };
  return {
    match(method: string, path: string): Handler | null {
      return routes[`${method} ${path.replace(/\/$/, "")}`] ?? null;
    },
  };
}
