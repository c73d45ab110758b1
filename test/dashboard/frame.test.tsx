// The dashboard's frame: sign-in and its refusals, the session cookie, sign-out, the idle and
// absolute session limits, the CSRF check, the audit row of a write, the assets, escaping.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq } from "drizzle-orm";
import { adminSessions, auditLog, clubs } from "../../db/schema";
import { refreshSession, SESSION_MAX_DAYS } from "../../lib/auth/sessions";
import { h, raw } from "../../dashboard/jsx";
import { sha256Hex } from "../../lib/ids";
import { setup } from "../helpers";
import { browser, type Env } from "./helpers";

let env: Env;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

describe("sign-in", () => {
  it("sends a visitor without a session to the sign-in form, keeping where they were going", async () => {
    const b = browser(env);
    const res = await b.request("GET", "/admin/members?q=x");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/login?next=${encodeURIComponent("/admin/members?q=x")}`);
  });

  it("signs in with email and password and sets an HttpOnly, SameSite=Lax cookie for /admin", async () => {
    const b = browser(env);
    const res = await b.signIn();
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("club_session="))!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/admin");
    expect(cookie).not.toContain("Secure");
    const page = await b.request("GET", "/admin");
    expect(page.status).toBe(200);
    expect(page.text).toContain("owner@test.org");
  });

  it("refuses a wrong password with 401 and the form again, in the visitor's language", async () => {
    const b = browser(env);
    const form = await b.request("GET", "/admin/login", { headers: { "accept-language": "en" } });
    const res = await b.request("POST", "/admin/login", {
      form: { _csrf: b.csrfOf(form), email: "owner@test.org", password: "wrong" },
      headers: { "accept-language": "en" },
    });
    expect(res.status).toBe(401);
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain('lang="en"');
    expect(res.headers.getSetCookie().some((c) => c.startsWith("club_session="))).toBe(false);
  });

  it("refuses a malformed pair (422) as POST /api/auth/login does, not a password cut to size", async () => {
    const b = browser(env);
    const form = await b.request("GET", "/admin/login");
    const res = await b.request("POST", "/admin/login", { form: { _csrf: b.csrfOf(form), email: "owner@test.org", password: "x".repeat(201) } });
    expect(res.status).toBe(422);
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain('value="owner@test.org"');
  });

  it("refuses a sign-in form that did not come from its page (no double-submit token)", async () => {
    const b = browser(env);
    const res = await b.request("POST", "/admin/login", { form: { _csrf: "forged", email: "owner@test.org", password: "owner-password" } });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("club_session="))).toBe(false);
  });

  it("goes back only to a dashboard path after sign-in (no open redirect)", async () => {
    const b = browser(env);
    const form = await b.request("GET", "/admin/login?next=https://evil.example/");
    expect(form.text).toContain('name="next" value="/admin"');
    const res = await b.request("POST", "/admin/login", {
      form: { _csrf: b.csrfOf(form), email: "owner@test.org", password: "owner-password", next: "//evil.example/admin" },
    });
    expect(res.headers.get("location")).toBe("/admin");
  });

  it("marks the cookie Secure when the service is reached over https", async () => {
    const secure = await setup({ BASE_URL: "https://club.example.org" });
    try {
      const res = await browser(secure).signIn();
      expect(res.headers.getSetCookie().find((c) => c.startsWith("club_session="))).toContain("Secure");
    } finally {
      await secure.close();
    }
  });

  it("goes straight on from the sign-in form when already signed in", async () => {
    const b = browser(env);
    await b.signIn();
    const res = await b.request("GET", "/admin/login?next=/admin/members");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/members");
  });

  it("speaks the club's language once signed in (en, de, it), whatever the browser's", async () => {
    const texts = { en: "Sign out", de: "Abmelden", it: "Esci" } as const;
    for (const [locale, signOut] of Object.entries(texts)) {
      await env.db.tx((t) => t.update(clubs).set({ locale }).where(eq(clubs.id, env.clubId)));
      const b = browser(env);
      await b.signIn();
      const page = await b.request("GET", "/admin", { headers: { "accept-language": "fr" } });
      expect(page.text).toContain(`lang="${locale}"`);
      expect(page.text).toContain(signOut);
    }
    await env.db.tx((t) => t.update(clubs).set({ locale: "fr" }).where(eq(clubs.id, env.clubId)));
  });

  it("refuses an admin whose access has ended", async () => {
    const ended = await env.makeAdmin({ accessExpiresAt: new Date(Date.now() - 60_000).toISOString() });
    const res = await browser(env).signIn(ended.email, "admin-password");
    expect(res.status).toBe(401);
  });
});

describe("sign-out and session limits", () => {
  it("signs out: the cookie is cleared and the session no longer opens a page", async () => {
    const b = browser(env);
    await b.signIn();
    const cookie = b.jar.get("club_session")!;
    const res = await b.post("/admin/logout");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/login");
    expect(b.jar.has("club_session")).toBe(false);
    const again = await env.app.handle(new Request("http://localhost/admin", { headers: { cookie: `club_session=${cookie}` } }));
    expect(again.status).toBe(303);
  });

  it("keeps the session while it is used, ends it after 12 idle hours, and never past 30 days", async () => {
    const b = browser(env);
    await b.signIn();
    const token = b.jar.get("club_session")!;
    const session = async () =>
      (
        await env.db.read
          .select()
          .from(adminSessions)
          .where(eq(adminSessions.token_hash, sha256Hex(token)))
      )[0];
    const signedIn = Date.parse((await session()).created_at);
    // Used 11 hours later: still open, and its end moves to 12 hours after that use.
    const later = new Date(signedIn + 11 * 3600_000);
    await refreshSession(env.db, token, later);
    expect(Date.parse((await session()).expires_at)).toBe(later.getTime() + 12 * 3600_000);
    // Used every 11 hours for 40 days: the end never passes 30 days after sign-in.
    for (let at = later.getTime(); at < signedIn + 40 * 86400_000; at += 11 * 3600_000) await refreshSession(env.db, token, new Date(at));
    expect(Date.parse((await session()).expires_at)).toBe(signedIn + SESSION_MAX_DAYS * 86400_000);
    // Idle past its end: the session no longer opens a page.
    await env.db.tx((t) =>
      t
        .update(adminSessions)
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where(eq(adminSessions.token_hash, sha256Hex(token))),
    );
    expect((await b.request("GET", "/admin")).status).toBe(303);
  });
});

describe("CSRF and audit", () => {
  it("refuses a write without the CSRF token (403) and records it with via dashboard", async () => {
    const b = browser(env);
    await b.signIn();
    const res = await b.request("POST", "/admin/logout-not-a-page", { form: { x: "1" } });
    expect(res.status).toBe(403);
    const wrong = await b.request("POST", "/admin/logout-not-a-page", { form: { _csrf: "0".repeat(64) } });
    expect(wrong.status).toBe(403);
    expect(wrong.text).toMatch(/Le formulaire a expiré/);
    const rows = await env.db.read.select().from(auditLog).where(eq(auditLog.path, "/admin/logout-not-a-page"));
    expect(rows.length).toBe(2);
    expect(rows.every((r) => r.via === "dashboard" && r.admin_id === env.adminId && r.status === 403 && r.key_prefix === null)).toBe(true);
  });

  it("accepts the token in the htmx header as well as in the form", async () => {
    const b = browser(env);
    await b.signIn();
    const page = await b.request("GET", "/admin");
    const token = b.csrfOf(page);
    // A path no page takes: past the CSRF check it is a 404, not a 403.
    const res = await b.request("POST", "/admin/nowhere", { headers: { "x-csrf-token": token, "hx-request": "true" } });
    expect(res.status).toBe(404);
  });

  it("audits a sign-in with via dashboard and the admin", async () => {
    await browser(env).signIn();
    const rows = await env.db.read.select().from(auditLog).where(eq(auditLog.path, "/admin/login"));
    expect(rows.some((r) => r.via === "dashboard" && r.admin_id === env.adminId && r.status === 303)).toBe(true);
    const listed = await env.call("GET", `/api/clubs/${env.clubId}/audit-log?via=dashboard`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.length).toBeGreaterThan(0);
  });
});

describe("assets and markup", () => {
  it("serves htmx from the installed package with a long cache, without a session", async () => {
    const b = browser(env);
    const login = await b.request("GET", "/admin/login");
    const url = login.text.match(/\/admin\/assets\/htmx\.min\.js\?v=\w+/)![0];
    const res = await b.request("GET", url);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.text).toContain("htmx");
    expect((await b.request("GET", "/admin/assets/../../package.json")).status).not.toBe(200);
  });

  it("escapes text in markup unless it is marked raw", () => {
    const name = `<script>alert(1)</script>"&`;
    const out = String(
      <p title={name}>
        {name}
        {raw("<b>ok</b>")}
      </p>,
    );
    expect(out).toBe(`<p title="&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;">&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;<b>ok</b></p>`);
  });

  it("sends pages with a CSP, no-store and no framing", async () => {
    const b = browser(env);
    await b.signIn();
    const res = await b.request("GET", "/admin");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });
});
