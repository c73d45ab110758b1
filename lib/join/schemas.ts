// The shapes of joining a club online (DESIGN.md section 13): the public club page a join form
// is drawn from, the join request and its answer.
import { z } from "zod";
import { MEMBERSHIP_MODES } from "../clubs/schemas";
import { FORM_PROOF_FIELDS } from "../forms";
import { BankTransfer } from "../member-page/schemas";
import { emailLine, oneLine } from "../schema-types";
import { Tier } from "../tiers";

export const JOIN_PAYMENT_METHODS = ["bank_transfer", "stripe"] as const;

export const PublicTier = Tier.pick({ id: true, name: true, description: true, price_cents: true, currency: true, duration_months: true }).meta({
  id: "PublicTier",
});

export const PublicClub = z
  .object({
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    logo_url: z.string().nullable(),
    primary_color: z.string(),
    secondary_color: z.string(),
    locale: z.string(),
    membership_mode: z.enum(MEMBERSHIP_MODES),
    application_instructions: z.string().nullable(),
    currency: z.string(),
    tiers: z.array(PublicTier).meta({ description: "The active tiers, in the club's order." }),
    payment_methods: z.array(z.enum(JOIN_PAYMENT_METHODS)).meta({
      description: "What works now: `stripe` when card payments are configured and the club enables them, `bank_transfer` when the club has a payout IBAN.",
    }),
    custom_fields: z
      .array(z.record(z.string(), z.unknown()))
      .meta({ description: "The club's custom field definitions (`key`, `label`, `type`, `required`, `options`): what the join form asks." }),
    allow_subscription: z.boolean().meta({
      description: "A card payment may renew itself (a Stripe subscription, the join's `subscription`): the club allows it and takes cards now.",
    }),
    subscription_default: z.boolean().meta({ description: "What `subscription` is when not given (false unless `allow_subscription`)." }),
    subscription_only: z.boolean().meta({ description: "A card payment always renews itself (false unless `allow_subscription`)." }),
  })
  .meta({ id: "PublicClub", description: "What a join page needs. Nothing about members." });
export type PublicClub = z.output<typeof PublicClub>;

export const JoinRequest = z
  .object({
    tier_id: z.uuid(),
    first_name: oneLine().trim().min(1).max(100),
    last_name: oneLine().trim().min(1).max(100),
    email: emailLine().max(320),
    promo_code: oneLine().trim().max(30).nullish().meta({ description: "A `membership` promo code of the club." }),
    referral_code: oneLine()
      .trim()
      .max(30)
      .nullish()
      .meta({ description: "The card code of the member who referred the newcomer (when the club's referral is on)." }),
    custom_fields: z
      .record(z.string().max(100), z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]))
      .nullish()
      .meta({ description: "Answers to the club's custom fields, by key (checked against its `custom_fields_schema`)." }),
    payment_method: z.enum(JOIN_PAYMENT_METHODS),
    subscription: z.boolean().nullish().meta({
      description:
        "With `stripe`: renew automatically by card. Where the club allows it (`allow_subscription`; else 409 `SUBSCRIPTION_NOT_OFFERED` when true); default the club's `subscription_default`; always with `subscription_only`.",
    }),
    ...FORM_PROOF_FIELDS,
  })
  .meta({
    id: "JoinRequest",
    examples: [
      { tier_id: "0b7c6f1e-3a52-4c7e-9a1d-2f4b8c9d0e1f", first_name: "Ana", last_name: "Silva", email: "ana@example.org", payment_method: "bank_transfer" },
    ],
  });
export type JoinRequest = z.output<typeof JoinRequest>;

export const JoinAnswer = z
  .object({
    member_id: z.uuid(),
    status: z.enum(["pending", "active"]),
    application_status: z.enum(["pending_approval"]).nullable(),
    amount_cents: z.int().meta({ description: "What is left to pay (0: nothing, the membership is active, or will be once approved)." }),
    discount_cents: z.int(),
    currency: z.string(),
    manage_url: z.string().meta({ description: "The new member's own page." }),
    checkout_url: z
      .string()
      .nullable()
      .meta({ description: "With `stripe` and something to pay: Stripe's payment page (Checkout); the membership is active once Stripe reports the payment." }),
    bank_transfer: BankTransfer.nullable().meta({ description: "How to pay; null when there is nothing to pay or the application awaits approval." }),
  })
  .meta({ id: "JoinAnswer" });
export type JoinAnswer = z.output<typeof JoinAnswer>;
