// GET, POST /api/clubs/[club_id]/mailings — the club's mailings (DESIGN.md section 22)
import { createMailing, listMailings } from "../../../../../lib/mailings";
import { Mailing, MailingCreate, MailingList, MailingListQuery } from "../../../../../lib/mailings/schemas";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "List mailings",
  description: "Newest first, each with its counts (recipients = sent + failed + bounced + skipped_opt_out once sent). Filter by `status`.",
  tags: ["mailings"],
  scope: listMailings.scope,
  query: MailingListQuery,
  response: MailingList,
  handler: ({ ctx, query }) => listMailings(ctx, query),
});

export const POST = route({
  summary: "Create a mailing",
  description:
    "A draft: `subject`, `body_markdown` (Markdown; raw HTML is shown as text), `audience`. 422 naming an empty subject or body, an unknown merge field, another club's tier or event; 413 for a body over 1 MB. Send it with `actions/send`.",
  tags: ["mailings"],
  scope: createMailing.scope,
  body: MailingCreate,
  status: 201,
  response: Mailing,
  errors: [413],
  handler: ({ ctx, body }) => createMailing(ctx, body),
});
