// GET, POST /u/[unsubscribe_token] — a mailing's one-click unsubscribe link (RFC 8058; no key, no session)
import { z } from "zod";
import { UNSUBSCRIBE_RATE, unsubscribePage } from "../../lib/mailings/consent";
import { route } from "../../server/route";

const params = z.object({ unsubscribe_token: z.string().max(200) });
const common = { tags: ["public"], auth: "public" as const, rateLimit: UNSUBSCRIBE_RATE, hidden: true, raw: true, page: true, params };

export const GET = route({
  summary: "The unsubscribe page of a mailing's link (asks, one button)",
  ...common,
  handler: ({ ctx, params }) => unsubscribePage(ctx, params.unsubscribe_token, "GET"),
});

export const POST = route({
  summary: "Unsubscribe from mailings (one click)",
  ...common,
  // The mail client sends `List-Unsubscribe=One-Click` (a form); the page's button an empty form. Neither is needed.
  text: true,
  handler: ({ ctx, params }) => unsubscribePage(ctx, params.unsubscribe_token, "POST"),
});
