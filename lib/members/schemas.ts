// The member's shapes (SPEC "Member", "Member list", "Manual member payload", "Member action
// payloads"; DESIGN.md section 6). These zod schemas validate requests, document the OpenAPI
// components and declare the MCP tools' parameters.
import { InvoiceLine } from "../invoices/schemas";
import { z } from "zod";
import { dateTimeOutput, daysFromNow, emailLine, multiLine, oneLine } from "../schema-types";

const date = () => z.iso.date().meta({ format: "date" });
/** The `reason` of every member action, kept in the member's history. */
const reason = () => multiLine().max(1000).nullish().meta({ description: "Why (kept in the member's history)." });

export const STATUSES = ["active", "expired", "pending", "suspended"] as const;
export type MemberStatus = (typeof STATUSES)[number];
export const PAYMENT_STATUSES = ["pending", "paid", "suspended"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const SORTS = ["registered", "name", "email", "membership_end", "status"] as const;

export const MemberAdminItem = z
  .object({
    id: z.uuid(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    membership_start: date(),
    membership_end: date().meta({ description: "Last day of validity (inclusive)." }),
    payment_status: z.enum(PAYMENT_STATUSES).meta({ description: "Stored state: `pending` (awaiting payment), `paid`, `suspended`." }),
    status: z.enum(STATUSES).meta({
      description:
        "Derived: `active` (paid, end >= today), `expired` (end < today, not suspended), `pending`, `suspended`. The club's `grace_period_days` keeps a member `active` that many days past the end.",
    }),
    referral_code: z.string().meta({ description: "What the wallet QR code carries." }),
    pass_serial_number: z.string(),
    has_wallet_a: z.boolean().default(false),
    has_wallet_b: z.boolean().default(false),
    has_web: z.boolean().default(false),
    payment_method: z.string().nullable(),
    tier_id: z.uuid().nullable(),
    tier_name: z.string().nullable(),
    pending_tier_id: z.uuid().nullable(),
    pending_tier_name: z.string().nullable(),
    pending_tier_change_at: date().nullable(),
    is_manual: z.boolean().default(false),
    payment_mode: z.string().default("one_time"),
    invoice_company_name: z.string().nullable(),
    referral_count: z.int().default(0),
    referral_credit_cents: z.int().default(0),
    acquisition_source: z.string().nullable(),
    referred_by_name: z.string().nullable(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    profile_complete: z.boolean().default(true),
    card_email_sent_at: dateTimeOutput().nullable(),
    card_email_reminder_sent_at: dateTimeOutput().nullable(),
    card_installed_at: dateTimeOutput().nullable(),
    renewal_opt_out_at: dateTimeOutput().nullable(),
    mailing_opt_out_at: dateTimeOutput()
      .nullable()
      .default(null)
      .meta({ description: "When the member said no to the club's mailings (unsubscribe link, their page); null: they get them. Service mails go anyway." }),
    email_bounced: z
      .boolean()
      .default(false)
      .meta({ description: "A mailing to the member's current address was refused for good (SMTP 5xx): mailings skip it until the email changes." }),
    manage_token: z.string().nullable().meta({
      description:
        "The token of the member's page (/m/<manage_token>), in the answer that creates the member only: it is kept as a hash, so every other answer says null. The page's link reaches the member by mail (welcome, reminders).",
    }),
    erasure_requested_at: dateTimeOutput().nullable().meta({ description: "When the member asked, from their page, to be erased; null: never." }),
    application_status: z
      .enum(["pending_approval"])
      .nullable()
      .meta({ description: "`pending_approval` while an application to join awaits the admin's decision (actions approve, reject); else null." }),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "MemberAdminItem", description: "A member as the club's admins see it, with its derived `status`." });
export type MemberAdminItem = z.infer<typeof MemberAdminItem>;

export const WalletUrls = z
  .object({
    apple: z.string().nullable().meta({ description: "Apple Wallet pass (.pkpass); null when this service has no Apple Wallet settings." }),
    google: z.string().nullable().meta({ description: "Save to Google Wallet link; null when this service has no Google Wallet settings." }),
    web: z.string().meta({ description: "The member's web card." }),
  })
  .meta({ id: "WalletUrls" });

export const MemberWithWallet = MemberAdminItem.extend({ wallet_urls: WalletUrls }).meta({
  id: "MemberWithWalletUrls",
  description: "The new member with the addresses of its wallet passes.",
});

export const MemberListQuery = z.object({
  status: z
    .enum([...STATUSES, "all"])
    .default("all")
    .meta({ description: "Derived status filter; `all` (default) keeps every member." }),
  search: z.string().max(200).optional().meta({ description: "Matches name, email or referral code; accents and case are ignored." }),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).optional().meta({ description: "Page size, 1..1000 (default 50)." }),
  page_size: z.coerce.number().int().min(1).max(1000).optional().meta({ description: "Same as `limit` (used when `limit` is absent)." }),
  sort: z.enum(SORTS).default("registered").meta({ description: "`registered` (created_at), `name` (last then first), `email`, `membership_end`, `status`." }),
  dir: z.enum(["asc", "desc"]).default("desc"),
  erasure_requested: z
    .enum(["true", "false"])
    .optional()
    .meta({ description: "`true`: only members who asked to be erased (from their page); `false`: only the others." }),
  application_status: z
    .enum(["pending_approval"])
    .optional()
    .meta({ description: "`pending_approval`: only applicants awaiting the admin's decision (approve or reject)." }),
});
export type MemberListQuery = z.input<typeof MemberListQuery>;

export const MemberListResponse = z
  .object({ total: z.int(), page: z.int(), limit: z.int(), items: z.array(MemberAdminItem) })
  .meta({ id: "MemberListResponse" });
export type MemberListResponse = z.infer<typeof MemberListResponse>;

export const ManualMemberCreate = z
  .object({
    first_name: oneLine().trim().min(1).max(200),
    last_name: oneLine().trim().min(1).max(200),
    email: emailLine().max(320),
    membership_end: date().meta({ description: "Last day of validity (inclusive)." }),
    tier_id: z.uuid().nullish(),
    joined_at: date().nullish().meta({ description: "When the member joined the club (kept as its registration date); default today." }),
    custom_fields: z.record(z.string(), z.unknown()).nullish(),
  })
  .meta({
    id: "ManualMemberCreate",
    description: "A member added by hand: paid, starting today.",
    examples: [{ first_name: "Émilie", last_name: "Rochat", email: "emilie.rochat@example.org", membership_end: daysFromNow(365) }],
  });
export type ManualMemberCreate = z.infer<typeof ManualMemberCreate>;

export const ExtendRequest = z
  .object({
    extend_until: date().nullish().meta({ description: "New last day; must be later than the current end." }),
    extend_months: z.int().min(1).max(120).nullish().meta({ description: "Months added to the end (to today if expired)." }),
    reason: reason(),
  })
  .meta({
    id: "ExtendRequest",
    description: "Give extend_until, or extend_months, or neither (one period of the member's tier, else of the club).",
    examples: [{ extend_months: 12, reason: "Renewed at the general assembly" }],
  });
export type ExtendRequest = z.infer<typeof ExtendRequest>;

/**
 * How a member pays, as the dashboard offers it (`payment_method` stays free text in the API,
 * SPEC "Member"; `bank_transfer` is MarkPaidRequest's default, `stripe` what card payments online
 * record). Each has its name in lib/i18n/dashboard-members `methods`.
 */
export const PAYMENT_METHODS = ["bank_transfer", "cash", "card", "stripe"] as const;
/** The methods of a payment received outside the payment provider (MarkPaidRequest): all but `stripe`, which Stripe's own events record. */
export const MANUAL_PAYMENT_METHODS = ["bank_transfer", "cash", "card"] as const;

export const MarkPaidRequest = z
  .object({
    amount_cents: z.int().min(0).max(100_000_000),
    payment_method: oneLine().min(1).max(50).default("bank_transfer"),
    reason: reason(),
  })
  .meta({
    id: "MarkPaidRequest",
    description: "Records a payment received outside the payment provider.",
    examples: [{ amount_cents: 5000, payment_method: "bank_transfer", reason: "Annual fee" }],
  });
export type MarkPaidRequest = z.input<typeof MarkPaidRequest>;

export const SuspendRequest = z.object({ reason: reason() }).meta({ id: "SuspendRequest", examples: [{ reason: "Asked by the member" }] });
export const ReactivateRequest = z.object({ reason: reason() }).meta({ id: "ReactivateRequest", examples: [{ reason: "Fee settled" }] });
export type ReasonRequest = { reason?: string | null };

export const MemberIdInput = z.object({ member_id: z.uuid().meta({ description: "The member's id (from list_members)." }) });

export const MemberExportQuery = z.object({
  // Elysia hands a comma-separated query value over as an array: both forms are accepted.
  member_ids: z
    .union([z.string().max(40_000), z.array(z.string().max(40_000)).max(1000)])
    .optional()
    .meta({ description: "Comma-separated member uuids; omit for all." }),
  format: z.enum(["csv", "pdf"]).default("csv"),
});
export type MemberExportQuery = z.input<typeof MemberExportQuery>;

export const IMPORT_MODES = ["create", "update"] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** The import's mode, its values, default and meaning stated once: the API's query, the dashboard's form, the MCP tool and the verb's default. */
export const ImportModeField = z.enum(IMPORT_MODES).default("create").meta({
  description:
    "`create` (default): only new emails become members; a line whose email the club already has is reported in `warnings` (MEMBER_EXISTS) and left untouched. `update`: members found by email are updated too, only in the columns the file has (an empty cell changes nothing); new emails are created.",
});

export const ImportQuery = z.object({
  mode: ImportModeField,
  allow_shorten: z.stringbool().default(false).meta({
    description: "With `mode=update`: let the file move a membership end earlier. Without it such an end is kept and the line reported (END_NOT_SHORTENED).",
  }),
  dry_run: z.stringbool().default(false).meta({ description: "Check and count without writing; the answer lists, per line, what would change (`changes`)." }),
  partial: z.stringbool().default(false).meta({ description: "Write the valid lines even when others have errors (default: all or nothing)." }),
  tier_id: z.uuid().optional().meta({
    description:
      "The default tier (an active tier of the club): new members whose line names no tier get it, and, with `mode=update`, existing members who have none. A file's tier column (`tier`, `catégorie`, `Kategorie`, `categoria`...) names a tier per line, by name (accents and case ignored). 422 on `tier_id` for a tier that is not the club's or is inactive.",
  }),
});

const ImportFieldChange = z
  .object({
    field: z.string().meta({ description: "A member field (`first_name`, `membership_end`...) or `custom_fields.<key>`." }),
    from: z.string().nullable().meta({ description: "The stored value (null for a new member)." }),
    to: z.string().nullable(),
  })
  .meta({ id: "ImportFieldChange" });

export const ImportChange = z
  .object({
    line: z.int(),
    member_id: z.uuid().nullable().meta({ description: "The member the line matched (null for a new one)." }),
    email: z.string(),
    action: z.enum(["create", "update", "unchanged", "skip"]).meta({
      description: "`skip`: the member exists and the mode is `create` (see `warnings`); `unchanged`: nothing of the line differs from what is stored.",
    }),
    fields: z.array(ImportFieldChange).meta({ description: "What the line would write: field, stored value, new value." }),
  })
  .meta({ id: "ImportChange" });
export type ImportChange = z.infer<typeof ImportChange>;

export const ImportResult = z
  .object({
    created: z.int(),
    updated: z.int(),
    skipped: z.int().meta({ description: "Lines that write nothing: unchanged, or an existing member in `create` mode." }),
    errors: z.array(z.object({ line: z.int(), detail: z.string() })),
    warnings: z
      .array(
        z.object({
          line: z.int(),
          email: z.string(),
          member_id: z.uuid().nullable(),
          code: z.enum(["MEMBER_EXISTS", "END_NOT_SHORTENED"]),
          detail: z.string(),
        }),
      )
      .meta({ description: "Lines not written as the file says, and why: the member exists (create mode), or its membership end was kept (update mode)." }),
    changes: z.array(ImportChange).optional().meta({ description: "Dry run only: each valid line, what it would do." }),
    mode: z.enum(IMPORT_MODES),
    file: z
      .object({
        encoding: z.enum(["utf-8", "utf-16le", "utf-16be", "windows-1252"]),
        delimiter: z.enum([",", ";", "\t"]),
        columns: z.array(
          z.object({ heading: z.string(), field: z.string().nullable().meta({ description: "The member field it was read as; null: ignored." }) }),
        ),
      })
      .meta({ description: "How the file was read: its encoding, separator, and what each heading was recognised as." }),
    dry_run: z.boolean(),
    written: z.boolean().meta({ description: "Whether anything was written (false on a dry run or when errors stopped an all-or-nothing import)." }),
  })
  .meta({ id: "ImportResult" });
export type ImportResult = z.infer<typeof ImportResult>;

export const CardEmailResult = z
  .object({ sent: z.literal(true), to: z.string(), card_email_sent_at: dateTimeOutput(), web_card_url: z.string() })
  .meta({ id: "CardEmailResult" });

/** What the assistant's export answers: the CSV itself for a small selection, else the link to the HTTP export. */
export const AssistantExport = z
  .object({
    count: z.int().meta({ description: "Members selected." }),
    csv: z.string().nullable().meta({ description: "The CSV file's text (no byte order mark), or null when there are too many members for one answer." }),
    url: z.string().nullable().meta({ description: "The HTTP export to download instead, when `csv` is null." }),
  })
  .meta({ id: "AssistantExport" });
// ---- The other half of a member's life (DESIGN.md section 12) ----

const nullableText = (max: number, description: string) => z.string().trim().max(max).nullable().optional().meta({ description });

export const MemberUpdate = z
  .object({
    first_name: z.string().trim().min(1).max(200).optional(),
    last_name: z.string().trim().min(1).max(200).optional(),
    email: z.email().max(320).optional().meta({ description: "Unique in the club (409 MEMBER_EMAIL_TAKEN)." }),
    tier_id: z.uuid().nullable().optional().meta({ description: "A tier of the club (422 otherwise); null clears it." }),
    custom_fields: z.record(z.string(), z.unknown()).nullable().optional().meta({
      description: "Merged into the stored ones: a key sent replaces its value, a key sent as null is removed, keys not sent are kept; null clears them all.",
    }),
    payment_method: nullableText(50, "How the member pays (bank_transfer, cash...); null clears it."),
    invoice_company_name: nullableText(200, "Company named on invoices; null clears it."),
    acquisition_source: nullableText(200, "How the member found the club; null clears it."),
    membership_end: date().optional().meta({
      description: "A correction of the last valid day (not before membership_start): needs a `reason`, and is written to the member's history with it.",
    }),
    reason: reason(),
  })
  .meta({
    id: "MemberUpdate",
    description: "Only the fields sent change. A change the wallet card shows (names, tier, end date, custom fields) updates the member's passes.",
    examples: [{ last_name: "Rochat-Favre", email: "emilie.favre@example.org" }],
  });
export type MemberUpdate = z.infer<typeof MemberUpdate>;

export const HISTORY_KINDS_NOTE =
  "`manual_create`, `import_create`, `import_update`, `update`, `correction` (membership_end corrected), `extend`, `mark_paid`, `suspend`, `reactivate`, `cancel_subscription`, `card_email_sent`, `payment` (a payment recorded outside a member transition, e.g. an event ticket), or `payment_flagged` (a provider's payment that is not what was asked: recorded, not applied; GET .../payments/flagged).";

export const MemberHistoryItem = z
  .object({
    id: z.uuid(),
    kind: z.string().meta({ description: HISTORY_KINDS_NOTE }),
    from_status: z.string().nullable().meta({ description: "Stored payment_status before." }),
    to_status: z.string().nullable().meta({ description: "Stored payment_status after." }),
    membership_end_before: date().nullable(),
    membership_end_after: date().nullable(),
    amount_cents: z.int().nullable().meta({ description: "The payment's amount, for a payment." }),
    payment_method: z.string().nullable(),
    reason: z.string().nullable(),
    actor: z.string().meta({
      description:
        "Who did it: the admin's email with the key's prefix (`ana@example.org (mk_live_Ab12)`), the email alone for a dashboard session, `member` (self-service) or `system`.",
    }),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "MemberHistoryItem", description: "One transition, correction or payment of a member." });
export type MemberHistoryItem = z.infer<typeof MemberHistoryItem>;

export const MemberHistory = z
  .object({ items: z.array(MemberHistoryItem).meta({ description: "Newest first." }) })
  .meta({ id: "MemberHistory", description: "Every transition, correction and payment of the member, newest first." });
export type MemberHistory = z.infer<typeof MemberHistory>;

const ExportPayment = z
  .object({
    id: z.uuid(),
    kind: z.string().meta({ description: "`membership` or `event`." }),
    amount_cents: z.int(),
    currency: z.string(),
    method: z.string(),
    source: z.string(),
    reason: z.string().nullable(),
    invoice_id: z.string().nullable(),
    paid_at: dateTimeOutput(),
  })
  .meta({ id: "MemberDataExportPayment" });

const ExportRegistration = z
  .object({
    id: z.uuid(),
    event_id: z.uuid(),
    event_title: z.string().nullable(),
    event_starts_at: dateTimeOutput().nullable(),
    ticket_name: z.string().nullable(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string().nullable(),
    status: z.string(),
    amount_cents: z.int(),
    currency: z.string(),
    checked_in_at: dateTimeOutput().nullable(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "MemberDataExportRegistration" });

const ExportScan = z
  .object({ id: z.uuid(), status: z.string(), scanned_at: dateTimeOutput() })
  .meta({ id: "MemberDataExportScan", description: "A check of the member's card (verify)." });

const ExportInvoice = z
  .object({
    id: z.uuid(),
    number: z.string(),
    kind: z.string(),
    registration_id: z.string().nullable(),
    lines: z.array(InvoiceLine),
    amount_cents: z.int(),
    currency: z.string(),
    issued_on: z.string().meta({ format: "date" }),
    due_on: z.string().meta({ format: "date" }),
    status: z.string(),
    paid_cents: z.int(),
    reference: z.string(),
    dunning_level: z.int(),
    last_reminded_at: dateTimeOutput().nullable(),
    cancelled_at: dateTimeOutput().nullable(),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "MemberDataExportInvoice" });

const ExportMailing = z
  .object({
    mailing_id: z.uuid(),
    subject: z.string(),
    email: z.string().meta({ description: "The address it was sent to." }),
    state: z.string().meta({ description: "`pending`, `sending`, `sent`, `failed`, `bounced` or `skipped_opt_out`." }),
    error: z.string().nullable(),
    sent_at: dateTimeOutput().nullable(),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "MemberDataExportMailing", description: "A club mailing addressed to the member, and its delivery." });

export const MemberDataExport = z
  .object({
    exported_at: dateTimeOutput(),
    member: MemberAdminItem,
    history: z.array(MemberHistoryItem),
    payments: z.array(ExportPayment),
    registrations: z.array(ExportRegistration).meta({ description: "The member's event registrations, and those made with their email." }),
    scans: z.array(ExportScan),
    invoices: z.array(ExportInvoice).meta({ description: "The member's invoices, newest first." }),
    mailings: z.array(ExportMailing).meta({ description: "The club's mailings addressed to the member, newest first." }),
  })
  .meta({
    id: "MemberDataExport",
    description: "Everything stored about one member (GDPR art. 15 access, art. 20 portability), as one JSON document.",
  });
export type MemberDataExport = z.infer<typeof MemberDataExport>;
