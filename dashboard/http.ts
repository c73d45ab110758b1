// What the dashboard's frame and its sign-in share: the answers (a page with its security
// headers, a redirect that htmx follows), the cookies, the CSRF token and the audit row of a write.
import { timingSafeEqual } from "node:crypto";
import type { AuditWriter } from "../lib/audit";
import { SESSION_MAX_DAYS } from "../lib/auth/sessions";
import { sha256Hex } from "../lib/ids";
import type { Html } from "./jsx";

export const SESSION_COOKIE = "club_session";
/** How long the browser keeps the session cookie: the session's longest life (the server ends it sooner when idle). */
export const SESSION_COOKIE_MAX_AGE = SESSION_MAX_DAYS * 86400;

/** Headers of every page: never cached (it shows a club's members), never framed, scripts and styles from this host only. */
const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
};

export function htmlResponse(html: Html | string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(String(html), { status, headers: { ...PAGE_HEADERS, ...headers } });
}

/** A 303 to a dashboard path; an htmx request is told to load it as a whole page (HX-Redirect). */
export function redirectTo(request: Request, path: string, headers: Record<string, string> = {}): Response {
  if (request.headers.get("hx-request") === "true") return new Response(null, { status: 204, headers: { "hx-redirect": path, ...headers } });
  return new Response(null, { status: 303, headers: { location: path, "cache-control": "no-store", ...headers } });
}

export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=") || null;
  }
  return null;
}

/** A cookie of ours: HttpOnly, SameSite=Lax, for /admin only, Secure when the service is reached over https. */
export function cookieHeader(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${name}=${value}; Path=/admin; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

/** The CSRF token of a session: derived from its secret token, so it needs no storage and dies with it. */
export function csrfToken(sessionToken: string): string {
  return sha256Hex(`csrf:${sessionToken}`);
}

export function sameToken(given: string | null | undefined, expected: string): boolean {
  if (!given || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** The audit row of a write made in the dashboard: the admin, no key, `via: dashboard`. */
export function auditWrite(
  audit: AuditWriter,
  w: {
    request: Request;
    path: string;
    status: number;
    started: number;
    ip: string | null;
    requestId: string;
    clubId: string;
    adminId: string;
    changes?: string;
  },
): Promise<void> {
  return audit.record({
    club_id: w.clubId,
    admin_id: w.adminId,
    key_prefix: null,
    method: w.request.method,
    path: w.path,
    status: w.status,
    duration_ms: Math.round((performance.now() - w.started) * 100) / 100,
    ip: w.ip,
    via: "dashboard",
    tool: null,
    mcp_method: null,
    created_at: new Date().toISOString(),
    request_id: w.requestId,
    changes: w.changes,
  });
}

/**
 * A page's headers letting its form lead to `origin` as well: browsers hold a form's redirect to
 * the CSP's form-action (the OAuth consent page sends the admin back to the client's address).
 */
export function formActionAlso(origin: string): Record<string, string> {
  return { "content-security-policy": PAGE_HEADERS["content-security-policy"].replace("form-action 'self'", `form-action 'self' ${origin}`) };
}
