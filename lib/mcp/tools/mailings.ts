// MCP tools for mailings (DESIGN.md section 22): the verbs and shapes of POST mailings, GET
// mailings/<id>/preview and POST mailings/<id>/actions/send. send_mailing only sends with
// `confirm: true`; without it, it says what it would do (how many members, a few names) and
// changes nothing, so an assistant shows the user before anything leaves.
import { z } from "zod";
import { createMailing, previewMailing, sendMailingIfConfirmed } from "../../mailings";
import { Mailing, MailingCreate, MailingPreview, MailingSend } from "../../mailings/schemas";
import { READ_ONLY, tool, WRITE } from "../tool";

export const create_mailing = tool({
  name: "create_mailing",
  title: "Create a mailing",
  description:
    "Writes a draft mailing to the club's members: subject, body_markdown (Markdown; merge fields {{first_name}}, {{last_name}}, {{membership_end}}, {{member_page_url}}, {{card_url}}), audience {statuses?, tier_ids?, event_id?, registration_statuses?} (none: every member). Sends nothing: preview_mailing shows it, send_mailing sends it.",
  input: MailingCreate,
  annotations: WRITE,
  output: Mailing,
  run: (ctx, input) => createMailing(ctx, input),
});

export const preview_mailing = tool({
  name: "preview_mailing",
  title: "Preview a mailing",
  description: "The mail one member would get from a mailing: subject, html and text with the merge fields filled. Find member_id with list_members.",
  input: z.object({ mailing_id: z.uuid(), member_id: z.uuid() }),
  annotations: READ_ONLY,
  output: MailingPreview,
  run: (ctx, input) => previewMailing(ctx, input),
});

const SendMailingAnswer = z.object({
  sent: z.boolean().meta({ description: "false: nothing was sent (no confirm); true: the mailing is sending or scheduled." }),
  recipients: z.int().meta({ description: "Members the audience names now." }),
  skipped: z.int().meta({ description: "Of them, who would be skipped: said no to mailings, or their address bounced." }),
  sample: z.array(z.object({ member_id: z.string(), name: z.string() })),
  mailing: Mailing.optional(),
});

export const send_mailing = tool({
  name: "send_mailing",
  title: "Send a mailing",
  description:
    "Sends a draft mailing to its audience, now or at send_at, ONLY with confirm: true. Without confirm it sends nothing and answers how many members it would reach (and how many would be skipped) with a few names: show that to the user and ask before calling again with confirm: true. Refused (409) once sending, sent or cancelled.",
  input: MailingSend.extend({
    mailing_id: z.uuid(),
    confirm: z.boolean().optional().meta({ description: "true: send. Absent or false: only say what would happen." }),
  }),
  annotations: { ...WRITE, openWorldHint: true },
  output: SendMailingAnswer,
  run: (ctx, input) => sendMailingIfConfirmed(ctx, input),
});
