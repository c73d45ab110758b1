// The invoice's shapes (DESIGN.md section 20): the Invoice as every reader sees it, what creating
// one takes, and the list's filters and page. They validate requests, document the OpenAPI
// components and declare the MCP tools' parameters.
import { z } from "zod";
import { dateTimeOutput, oneLine } from "../schema-types";

export const INVOICE_STATUSES = ["open", "paid", "cancelled"] as const;
export const INVOICE_KINDS = ["membership", "event", "other"] as const;

const day = () => z.iso.date().meta({ format: "date" });

/** The most one invoice line asks or gives back (1,000,000.00 in the currency). */
export const INVOICE_LINE_MAX = 100_000_000;

export const InvoiceLine = z
  .object({
    label: oneLine().trim().min(1).max(200),
    amount_cents: z
      .int()
      .min(-INVOICE_LINE_MAX)
      .max(INVOICE_LINE_MAX)
      .meta({ description: "In the invoice's currency; negative for a discount. The lines' sum must be above zero." }),
  })
  .meta({ id: "InvoiceLine" });

export const Invoice = z
  .object({
    id: z.uuid(),
    number: z.string().meta({ description: "`YYYY-NNNN`: per club and year, in order, without gaps.", examples: ["2026-0001"] }),
    member_id: z.string(),
    registration_id: z.string().nullable(),
    tier_id: z.string().nullable().meta({ description: "The tier whose fee the invoice asks, when made from one." }),
    kind: z.enum(INVOICE_KINDS),
    lines: z.array(InvoiceLine),
    amount_cents: z.int().meta({ description: "The lines' sum." }),
    currency: z.string(),
    issued_on: z.string().meta({ format: "date" }),
    due_on: z.string().meta({ format: "date" }),
    status: z.enum(INVOICE_STATUSES),
    overdue: z.boolean().meta({ description: "Open and past `due_on` (UTC)." }),
    paid_cents: z.int(),
    reference: z.string().meta({
      description:
        "What the payment quotes: a QR reference (27 digits) when the club's payout IBAN is a QR-IBAN, else an ISO 11649 creditor reference (`RF..`). Unique in the club.",
    }),
    dunning_level: z.int().min(0).max(3),
    last_reminded_at: dateTimeOutput().nullable(),
    period_start: z.string().nullable().meta({
      format: "date",
      description:
        "For a membership invoice of the dues run or a renewal reminder: the first day of the period it asks for (the day after the member's membership_end then). One open or paid invoice per member and period.",
    }),
    cancelled_at: dateTimeOutput().nullable(),
    pdf_url: z.string().meta({ description: "The invoice as a PDF (A4, with its payment part); needs finances:view." }),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "Invoice" });
export type Invoice = z.infer<typeof Invoice>;

export const InvoiceCreate = z
  .object({
    member_id: z.uuid(),
    tier_id: z.uuid().optional().meta({ description: "Invoice this tier's fee (its name and price as the first line, its currency, kind `membership`)." }),
    lines: z.array(InvoiceLine).max(50).optional().meta({ description: "What is asked; with `tier_id`, after the tier's fee. At least one line in all." }),
    registration_id: z.uuid().optional().meta({
      description:
        "An event registration of this member awaiting payment: the invoice is of kind `event` (its lines default to the registration's price under the event's title), and the payment that completes it confirms the registration.",
    }),
    kind: z.enum(INVOICE_KINDS).optional().meta({ description: "Default: `event` with a registration, `membership` with a tier, else `other`." }),
    issued_on: day().optional().meta({ description: "Default: today (UTC). Its year is the number's." }),
    due_on: day().optional().meta({ description: "Default: 30 days after `issued_on`; not before it." }),
  })
  .meta({
    id: "InvoiceCreate",
    examples: [{ member_id: "0190f5e2-7c1a-7000-8000-000000000001", lines: [{ label: "Cotisation 2026", amount_cents: 8000 }] }],
  });
export type InvoiceCreate = z.infer<typeof InvoiceCreate>;

export const InvoiceListQuery = z.object({
  status: z.enum(INVOICE_STATUSES).optional(),
  overdue: z.enum(["true", "false"]).optional().meta({ description: "`true`: open invoices past their due date; `false`: the others." }),
  member_id: z.uuid().optional(),
  from: day().optional().meta({ description: "Issued on or after this day." }),
  to: day().optional().meta({ description: "Issued on or before this day." }),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).optional().meta({ description: "Page size, 1..1000 (default 50)." }),
  page_size: z.coerce.number().int().min(1).max(1000).optional().meta({ description: "Same as `limit` (used when `limit` is absent)." }),
});
export type InvoiceListQuery = z.input<typeof InvoiceListQuery>;

export const InvoiceList = z.object({ total: z.int(), page: z.int(), limit: z.int(), items: z.array(Invoice) }).meta({ id: "InvoiceList" });
export type InvoiceList = z.infer<typeof InvoiceList>;

export const InvoiceSent = z
  .object({
    sent: z.literal(true),
    to: z.string().meta({ description: "The member's address it went to." }),
    invoice: Invoice,
  })
  .meta({ id: "InvoiceSent" });

export const DuesRunRequest = z
  .object({
    until: day().meta({ description: "Invoice the members whose membership_end is before this day." }),
    tier_ids: z.array(z.uuid()).min(1).max(100).optional().meta({ description: "Only the members of these tiers (default: every member)." }),
    dry_run: z.boolean().default(false).meta({ description: "true: answer what the run would create, and write nothing." }),
  })
  .meta({ id: "DuesRunRequest", examples: [{ until: "2027-01-01", dry_run: true }] });
export type DuesRunRequest = z.input<typeof DuesRunRequest>;

export const DuesRunItem = z
  .object({
    member_id: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    period_start: z.string().meta({ format: "date" }),
    lines: z.array(InvoiceLine),
    amount_cents: z.int(),
    currency: z.string(),
    invoice_id: z.string().nullable().meta({ description: "The invoice made; null in a dry run." }),
    number: z.string().nullable().meta({ description: "Its number; null in a dry run." }),
  })
  .meta({ id: "DuesRunItem" });
export type DuesRunItem = z.infer<typeof DuesRunItem>;

export const DuesRun = z
  .object({
    dry_run: z.boolean(),
    until: z.string().meta({ format: "date" }),
    created: z.int().meta({ description: "Invoices made (a dry run: that it would make)." }),
    totals: z
      .array(z.object({ currency: z.string(), amount_cents: z.int(), count: z.int() }))
      .meta({ description: "Their sum per currency (a tier may have its own)." }),
    skipped: z
      .object({
        nothing_to_pay: z.int().meta({ description: "A free tier, or a referral credit covering the fee." }),
        already_invoiced: z.int().meta({ description: "An open membership invoice, or an open or paid one for that period, exists." }),
        over_limit: z.int().meta({ description: "A fee above what one invoice line takes (1,000,000.00): to invoice by hand." }),
      })
      .meta({ description: "Members whose membership ends before `until` and who get no invoice, by reason." }),
    sample: z.array(DuesRunItem).meta({ description: "The first invoices (at most 20), by membership end." }),
  })
  .meta({ id: "DuesRun" });
export type DuesRun = z.infer<typeof DuesRun>;
