// What a dashboard page file declares (`definePage`) and what each of its handlers receives
// (`PageInput`). The frame (dashboard/index.ts) has already signed the admin in, checked the CSRF
// token of a write, checked the route's scope and built the admin's lib/ context; the handler
// reads its input, calls lib/ verbs and returns markup (`Html`, wrapped in the layout by
// `input.page(...)`) or a Response (a redirect, a file). How to add a page: dashboard/layout.tsx.
import type { Needs } from "../lib/access";
import type { AdminMe } from "../lib/auth/admins";
import type { Ctx } from "../lib/context";
import type { DashboardTexts, NavId } from "../lib/i18n/dashboard";
import type { Locale } from "../lib/i18n";
import type { Html } from "./jsx";

export type PageInput = {
  /** The signed-in admin's context: pass it to lib/ verbs, which check the scope again. */
  ctx: Ctx;
  locale: Locale;
  /** The frame's texts in the club's language (a page's own texts: lib/i18n/dashboard-<page>.ts). */
  t: DashboardTexts;
  admin: AdminMe;
  /** The club's time zone (IANA, lib/clubs/time-zone): admins read and type times in it, the zone shown beside them. */
  timeZone: string;
  /** The token every form carries (`<CsrfField />` does it) and every htmx request sends (set on <body>). */
  csrf: string;
  /** Whether the admin holds every scope of `needs` (a verb's `.scope`): hide a button the admin could not use (the route refuses it anyway). */
  can(needs: Needs): boolean;
  params: Record<string, string>;
  query: URLSearchParams;
  /** A write's form fields (url-encoded or multipart, a file as a File); null for a GET. */
  form: FormData | null;
  request: Request;
  /** True for an htmx request: answer the fragment it swaps in, not the whole page. */
  htmx: boolean;
  /** The whole page: `title` in the tab and as the heading, `body` inside the layout with its navigation. */
  page(title: string, body: Html, options?: { status?: number }): Response;
  /** 303 to a dashboard path (after a write: the reload of the next page does not post again). */
  redirect(path: string): Response;
};

export type DashRoute = {
  method: "GET" | "POST";
  /** Under /admin, Elysia's syntax: `/members/:member_id`. */
  path: string;
  /** Checked before the handler (403 page): the same scopes as the API route doing the same thing. */
  scope?: Needs;
  /** The largest body this route reads, where it is more than MAX_BODY_BYTES (the logo upload). */
  maxBodyBytes?: number;
  handler(input: PageInput): Promise<Html | Response> | Html | Response;
};

export type DashPage = {
  /** The navigation entry, shown to an admin holding `scope`; ordered by `order`. */
  nav?: { id: NavId; path: string; scope: Needs; order: number };
  routes: DashRoute[];
};

export function definePage(page: DashPage): DashPage {
  return page;
}
