// What the routes of the member's HTML page share (/m/<token> and its forms): public, counted with
// the page's rate, left out of the API's description, answered as pages (a redirect back, or a
// short page saying why not: lib/member-page/html).
import type { ZodObject } from "zod";
import { MEMBER_PAGE_RATE } from "../lib/member-page";
import { memberPageAction, type PageAction } from "../lib/member-page/html";
import { ManageParams } from "../lib/member-page/schemas";
import { route } from "./route";

/** The options every route of the page takes, spread into its `route({...})`. */
export const MEMBER_PAGE_ROUTE = {
  tags: ["public"],
  auth: "public" as const,
  rateLimit: MEMBER_PAGE_RATE,
  hidden: true,
  raw: true,
  page: true,
  params: ManageParams,
};

/** The route of the form (POST) that runs `action`, its fields checked by `body` (none: an empty form). */
export function memberPageForm(summary: string, action: PageAction, body?: ZodObject) {
  return route({
    summary,
    ...MEMBER_PAGE_ROUTE,
    body,
    handler: ({ ctx, params, body: fields }) => memberPageAction(ctx, params.manage_token, action, (fields ?? {}) as Record<string, unknown>),
  });
}
