// The mailing's shapes (DESIGN.md section 22): the Mailing as every reader sees it, what creating
// and changing one take, its audience, its preview and its recipients. They validate requests,
// document the OpenAPI components and declare the MCP tools' parameters.
import { z } from "zod";
import { REGISTRATION_STATUSES } from "../events/schemas";
import { STATUSES } from "../members/schemas";
import { dateTimeInput, dateTimeOutput, emailLine, oneLine } from "../schema-types";

export const MAILING_STATUSES = ["draft", "scheduled", "sending", "sent", "cancelled"] as const;
export const RECIPIENT_STATES = ["pending", "sent", "failed", "bounced", "skipped_opt_out"] as const;
/** The merge fields a subject or body may use, as `{{name}}`. */
export const MERGE_FIELDS = ["first_name", "last_name", "membership_end", "member_page_url", "card_url"] as const;

export const MailingAudience = z
  .object({
    statuses: z.array(z.enum(STATUSES)).max(STATUSES.length).optional().meta({ description: "Members of these derived statuses; absent: any." }),
    tier_ids: z.array(z.uuid()).max(100).optional().meta({ description: "Members of these tiers (the club's); absent: any tier or none." }),
    event_id: z.uuid().optional().meta({ description: "Members registered to this event of the club." }),
    registration_statuses: z
      .array(z.enum(REGISTRATION_STATUSES))
      .max(REGISTRATION_STATUSES.length)
      .optional()
      .meta({ description: "With `event_id`: the registrations that count (default `confirmed`)." }),
  })
  .strict()
  .meta({
    id: "MailingAudience",
    description:
      "Who a mailing goes to: the members matching every part given (none: every member). Applicants awaiting approval are no members yet and are left out; members who said no to mailings, or whose address bounced, are kept and skipped (counted) when sending.",
  });
export type MailingAudience = z.infer<typeof MailingAudience>;

const subject = () => oneLine().trim().min(1).max(300);
// No length limit here: a body over 1 MB is a 413 (lib/mailings), not a 422.
const body = () => z.string().refine((s) => s.trim().length > 0, { error: "Required: the body is empty." });

export const MailingCreate = z
  .object({
    subject: subject().meta({ description: "May hold merge fields (`{{first_name}}`...)." }),
    body_markdown: body().meta({
      description: `Markdown (raw HTML is shown as text, never as markup), at most 1 MB. Merge fields: ${MERGE_FIELDS.map((f) => `\`{{${f}}}\``).join(", ")}; any other is a 422 naming it.`,
    }),
    audience: MailingAudience.default({}),
  })
  .strict()
  .meta({
    id: "MailingCreate",
    examples: [
      {
        subject: "Assemblée générale du 12 mars",
        body_markdown: "Bonjour {{first_name}},\n\nNotre **assemblée générale** a lieu le 12 mars à 19 h.\n\n[Votre page de membre]({{member_page_url}})",
        audience: { statuses: ["active"] },
      },
    ],
  });
export type MailingCreate = z.input<typeof MailingCreate>;

export const MailingUpdate = z
  .object({ subject: subject().optional(), body_markdown: body().optional(), audience: MailingAudience.optional() })
  .strict()
  .meta({
    id: "MailingUpdate",
    description: "Only while the mailing is a draft (409 otherwise).",
    examples: [{ subject: "Assemblée générale : nouvelle date" }],
  });
export type MailingUpdate = z.input<typeof MailingUpdate>;

export const MailingCounts = z
  .object({
    recipients: z.int().meta({ description: "Members taken when sending started: sent + failed + bounced + skipped_opt_out once it is `sent`." }),
    sent: z.int(),
    failed: z.int(),
    bounced: z.int().meta({ description: "Refused for good (SMTP 5xx) now, or skipped because the address bounced before." }),
    skipped_opt_out: z.int(),
  })
  .meta({ id: "MailingCounts" });

export const Mailing = z
  .object({
    id: z.uuid(),
    subject: z.string(),
    body_markdown: z.string(),
    audience: MailingAudience,
    status: z.enum(MAILING_STATUSES),
    send_at: dateTimeOutput().nullable().meta({ description: "When a `scheduled` mailing starts." }),
    counts: MailingCounts,
    created_at: dateTimeOutput(),
    sent_at: dateTimeOutput().nullable().meta({ description: "When the last recipient was done." }),
  })
  .meta({ id: "Mailing" });
export type Mailing = z.infer<typeof Mailing>;

export const MailingListQuery = z.object({
  status: z.enum(MAILING_STATUSES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type MailingListQuery = Partial<z.output<typeof MailingListQuery>>;

export const MailingList = z.object({ total: z.int(), page: z.int(), limit: z.int(), items: z.array(Mailing) }).meta({ id: "MailingList" });
export type MailingList = z.infer<typeof MailingList>;

export const MailingPreviewQuery = z.object({ member_id: z.uuid().meta({ description: "The member whose mail to show." }) });

export const MailingPreview = z
  .object({
    member_id: z.uuid(),
    to: z.string(),
    subject: z.string(),
    html: z.string(),
    text: z.string(),
  })
  .meta({
    id: "MailingPreview",
    description: "The mail as this member gets it (their page's link is shown, not made: making one would end their current link).",
  });
export type MailingPreview = z.infer<typeof MailingPreview>;

export const MailingRecipient = z
  .object({
    member_id: z.string(),
    first_name: z.string().nullable().meta({ description: "null: the member was erased since." }),
    last_name: z.string().nullable(),
    email: z.string(),
    state: z.enum(RECIPIENT_STATES),
    error: z.string().nullable(),
    sent_at: dateTimeOutput().nullable(),
  })
  .meta({ id: "MailingRecipient" });

export const MailingRecipientsQuery = z.object({
  state: z.enum(RECIPIENT_STATES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type MailingRecipientsQuery = Partial<z.output<typeof MailingRecipientsQuery>>;

export const MailingRecipientList = z
  .object({ total: z.int(), page: z.int(), limit: z.int(), items: z.array(MailingRecipient) })
  .meta({ id: "MailingRecipientList" });
export type MailingRecipientList = z.infer<typeof MailingRecipientList>;

export const MailingTest = z
  .object({ email: emailLine().max(254) })
  .strict()
  .meta({ id: "MailingTest", examples: [{ email: "secretariat@club.example" }] });
export const MailingTestSent = z.object({ sent: z.literal(true), to: z.string() }).meta({ id: "MailingTestSent" });

export const MailingSend = z
  .object({ send_at: dateTimeInput().optional().meta({ description: "Later: the mailing is `scheduled` until then; absent or past: it starts now." }) })
  .strict()
  .meta({ id: "MailingSend", examples: [{ send_at: "2030-03-01T08:00:00Z" }] });
export type MailingSend = z.infer<typeof MailingSend>;
