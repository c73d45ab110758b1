// MCP tools for mailings (DESIGN.md section 22): the verbs and shapes of POST mailings, GET
// mailings/<id>/preview and POST mailings/<id>/actions/send. send_mailing asks the user first
// (lib/mcp/tool.ts Confirmation): unconfirmed, it says what it would do (how many members, a few
// names) and changes nothing.
import { z } from "zod";
import { createMailing, mailingPlan, previewMailing, sendMailing } from "../../mailings";
import { Mailing, MailingCreate, MailingPreview, MailingSend } from "../../mailings/schemas";
import { t } from "../../i18n";
import { READ_ONLY, tool, WRITE } from "../tool";

export const create_mailing = tool({
  name: "create_mailing",
  title: "Create a mailing",
  description:
    "Writes a draft mailing to the club's members: subject, body_markdown (Markdown; merge fields {{first_name}}, {{last_name}}, {{membership_end}}, {{member_page_url}}, {{card_url}}), audience {statuses?, tier_ids?, event_id?, registration_statuses?} (none: every member). Sends nothing: preview_mailing shows it, send_mailing sends it.",
  input: MailingCreate,
  annotations: WRITE,
  output: Mailing,
  scope: createMailing.scope,
  run: (ctx, input) => createMailing(ctx, input),
});

export const preview_mailing = tool({
  name: "preview_mailing",
  title: "Preview a mailing",
  description: "The mail one member would get from a mailing: subject, html and text with the merge fields filled. Find member_id with list_members.",
  input: z.object({ mailing_id: z.uuid(), member_id: z.uuid() }),
  annotations: READ_ONLY,
  output: MailingPreview,
  scope: previewMailing.scope,
  run: (ctx, input) => previewMailing(ctx, input),
});

export const send_mailing = tool({
  name: "send_mailing",
  title: "Send a mailing",
  description:
    "Sends a draft mailing to its audience, now or at send_at. It asks the user first (confirm): unconfirmed it sends nothing and answers how many members it would reach, how many would be skipped (opted out, bounced) and a few names. Refused (409) once sending, sent or cancelled. Answers the mailing (status sending or scheduled).",
  input: MailingSend.extend({ mailing_id: z.uuid() }),
  annotations: { ...WRITE, openWorldHint: true },
  output: Mailing,
  scope: sendMailing.scope,
  task: true,
  confirm: {
    preview: (ctx, input) => mailingPlan(ctx, { mailing_id: input.mailing_id }),
    question: (ctx, _input, would) =>
      t(ctx.locale, "CONFIRM_SEND_MAILING", {
        subject: String(would.subject),
        count: Number(would.recipients) - Number(would.skipped),
        skipped: Number(would.skipped),
      }),
  },
  run: (ctx, input) => sendMailing(ctx, input),
});
