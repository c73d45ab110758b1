// The shapes of the member's own page (DESIGN.md section 14): what GET /api/public/manage/<token>
// answers (the HTML page /m/<token> draws the same), and the bodies of its actions.
import { z } from "zod";
import { dateTimeOutput, emailLine, oneLine } from "../schema-types";
import { Invoice } from "../invoices/schemas";
import { STATUSES } from "../members/schemas";

const date = () => z.iso.date().meta({ format: "date" });

/** How to pay by bank transfer: the club's payout details and the member's creditor reference (renewal and join alike). */
export const BankTransfer = z
  .object({
    beneficiary: z.string().nullable(),
    iban: z.string(),
    bic: z.string().nullable(),
    reference: z.string().meta({
      description:
        "Give it with the transfer: an ISO 11649 creditor reference (RF...), or an invoice's QR reference (27 digits) for an invoice paid to a QR-IBAN.",
    }),
    amount_cents: z.int(),
    currency: z.string(),
  })
  .meta({ id: "BankTransfer" });
export type BankTransfer = z.infer<typeof BankTransfer>;

/** One of the member's invoices on their page (the Invoice's figures), with its PDF and, while open, how to pay it. */
export const MemberPageInvoice = Invoice.pick({
  id: true,
  number: true,
  status: true,
  overdue: true,
  issued_on: true,
  due_on: true,
  amount_cents: true,
  paid_cents: true,
  currency: true,
})
  .extend({
    pdf_url: z.string().meta({ description: "The invoice as a PDF, at an address of this page (no key needed)." }),
    bank_transfer: BankTransfer.nullable().meta({
      description: "While open and the club has a payout account: the account, the invoice's reference and what is left to pay.",
    }),
  })
  .meta({ id: "MemberPageInvoice" });
export type MemberPageInvoice = z.infer<typeof MemberPageInvoice>;

export const MemberPage = z
  .object({
    member: z.object({
      first_name: z.string(),
      last_name: z.string(),
      email: z.string(),
      status: z.enum(STATUSES).meta({ description: "As the club shows it (its grace period included)." }),
      membership_start: date(),
      membership_end: date(),
      tier_name: z.string().nullable(),
      referral_code: z.string(),
      auto_renewal: z.boolean().nullable().meta({ description: "Whether the subscription renews the membership; null: not on a subscription." }),
      mailings: z.boolean().meta({ description: "Whether the member gets the club's mailings (false: they said no; service mails still come)." }),
      pending_email: z.string().nullable().meta({ description: "A new address waiting for its confirmation link." }),
      erasure_requested_at: dateTimeOutput().nullable(),
    }),
    club: z.object({
      name: z.string(),
      locale: z.string(),
      primary_color: z.string(),
      secondary_color: z.string(),
      logo_url: z.string().nullable(),
      contact_email: z.string().nullable(),
    }),
    card: z.object({
      web: z.string(),
      apple: z.string().nullable(),
      google: z.string().nullable(),
    }),
    invoices: z.array(MemberPageInvoice).meta({ description: "The member's invoices, newest first (the latest 20)." }),
    payment_methods: z.array(z.string()).meta({
      description: "What `renew` takes now: `stripe` when card payments are configured and enabled, `bank_transfer` when the club has a payout IBAN.",
    }),
  })
  .meta({ id: "MemberPage", description: "The member's own page: status, card, renewal, what they may change." });
export type MemberPage = z.infer<typeof MemberPage>;

export const MemberNameUpdate = z
  .object({
    first_name: oneLine().trim().min(1).max(200).optional(),
    last_name: oneLine().trim().min(1).max(200).optional(),
  })
  .meta({ id: "MemberNameUpdate", examples: [{ first_name: "Émilie", last_name: "Rochat-Favre" }] });
export type MemberNameUpdate = z.infer<typeof MemberNameUpdate>;

export const EmailChangeRequest = z.object({ email: emailLine().max(320) }).meta({ id: "EmailChangeRequest", examples: [{ email: "emilie.new@example.org" }] });
export const EmailChangePending = z
  .object({ pending_email: z.string(), expires_at: dateTimeOutput() })
  .meta({ id: "EmailChangePending", description: "A link was mailed to the new address; the change is made when it is followed." });

export const EmailChangeConfirm = z
  .object({ code: z.string().min(1).max(200) })
  .meta({ id: "EmailChangeConfirm", examples: [{ code: "the-code-from-the-mailed-link" }] });
export const EmailChanged = z
  .object({ email: z.string(), manage_url: z.string().meta({ description: "The page's new address: the old one no longer works." }) })
  .meta({ id: "EmailChanged" });

export const RenewRequest = z
  .object({
    payment_method: z.enum(["bank_transfer", "stripe"]),
    subscription: z
      .boolean()
      .nullish()
      .meta({ description: "With `stripe`: renew automatically (where the club allows it; default: the club's `subscription_default`)." }),
  })
  .meta({ id: "RenewRequest", examples: [{ payment_method: "bank_transfer" }] });
export const RenewAnswer = z
  .object({
    payment_method: z.string(),
    amount_cents: z.int(),
    currency: z.string(),
    checkout_url: z.string().nullable().meta({ description: "Card payment page (Stripe, when configured); null for a bank transfer." }),
    bank_transfer: BankTransfer.nullable(),
    renewed: z.boolean().meta({
      description:
        "True when there was nothing to pay (a free tier, or a referral credit covering the price): the membership is renewed already, with neither `checkout_url` nor `bank_transfer`.",
    }),
  })
  .meta({ id: "RenewAnswer" });
export type RenewAnswer = z.infer<typeof RenewAnswer>;

export const AutoRenewalRequest = z.object({ enabled: z.boolean() }).meta({ id: "AutoRenewalRequest", examples: [{ enabled: false }] });
export const MailingsRequest = z.object({ enabled: z.boolean() }).meta({ id: "MailingsRequest", examples: [{ enabled: false }] });
export const ErasureRequested = z.object({ erasure_requested_at: dateTimeOutput() }).meta({ id: "ErasureRequested" });

/** The page's address: any length, so a token that names no member is a plain 404, never a 422. */
export const ManageParams = z.object({ manage_token: z.string().min(1).max(200) });
