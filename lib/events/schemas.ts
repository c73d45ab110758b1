// The events' shapes (SPEC "Event", "Event create payload", "Event update payload", "Ticket",
// "Registration", "CheckinPayload"; DESIGN.md section 8). These zod schemas validate requests,
// document the OpenAPI components and declare the MCP tools' parameters.
import { z } from "zod";
import { FORM_PROOF_FIELDS } from "../forms";
import { dateTimeInput, dateTimeOutput, daysFromNow, emailLine, multiLine, oneLine } from "../schema-types";

export const EVENT_STATUSES = ["draft", "published", "cancelled"] as const;
export const EVENT_ACCESS = ["public", "members"] as const;
export const REGISTRATION_STATUSES = ["confirmed", "pending", "waitlisted", "cancelled"] as const;
/** What an admin may add a registration as (a waiting list is for the public: an admin decides). */
export const ADMIN_REGISTRATION_STATUSES = ["confirmed", "pending"] as const;
export const CHECKIN_VERDICTS = ["valid", "already", "not_registered"] as const;

const WAITLIST_ENABLED =
  "When the event or a ticket is full, public registrations join a waiting list (`waitlisted`); a cancellation moves the oldest one up. Default: `false`.";

const MAX_PER_EMAIL =
  "Registrations one email address may hold at this event (confirmed, pending or waitlisted; `Ana+x@` and, at Gmail, `a.na@` count as `ana@`). The public registration refuses more with 409 `EMAIL_ALREADY_REGISTERED`; an admin's add is not limited. 1..100, default 1.";
const maxPerEmail = () => z.int().min(1).max(100);

const cents = () => z.int().min(0).max(100_000_000);
const text = (max = 2000) => oneLine().max(max);
const longText = (max = 20_000) => multiLine().max(max);
const freeObjects = () => z.array(z.record(z.string(), z.unknown())).max(100);

export const TicketPayload = z
  .object({
    id: z.uuid().optional().meta({ description: "On update: the ticket to keep and change. Absent: a new ticket." }),
    name: oneLine().min(1).max(200),
    member_price_cents: cents().default(0),
    tier_prices: z.record(z.string(), cents()).nullish().meta({ description: "Price per tier id for members of that tier." }),
    non_member_price_cents: cents().nullish().meta({ description: "null: the ticket is for members only." }),
    quantity_max: z.int().min(0).max(1_000_000).nullish(),
  })
  .meta({ id: "TicketPayload" });

/** The prices of a ticket as every answer shows them. */
const ticketPriceFields = {
  member_price_cents: z.int(),
  tier_prices: z.record(z.string(), z.int()).nullable(),
  non_member_price_cents: z.int().nullable(),
};

export const EventTicketAdmin = z
  .object({
    id: z.uuid(),
    name: z.string(),
    ...ticketPriceFields,
    quantity_max: z.int().nullable(),
    is_active: z.boolean(),
    registered_count: z.int().default(0),
  })
  .meta({ id: "EventTicketAdmin" });

const listFields = {
  id: z.uuid(),
  title: z.string(),
  slug: z.string(),
  starts_at: dateTimeOutput(),
  status: z.enum(EVENT_STATUSES),
  listed: z.boolean(),
  access: z.enum(EVENT_ACCESS),
  capacity: z.int().nullable(),
  registered_count: z.int().default(0).meta({ description: "Confirmed and pending registrations." }),
  checked_in_count: z.int().default(0),
  revenue_cents: z.int().default(0).meta({ description: "Event payments received, gross." }),
  net_cents: z.int().default(0).meta({ description: "Gross less provider fees and platform commission." }),
  currency: z.string().default("CHF"),
  public_url: z.string().default("").meta({ description: "`{base_url}/e/<club slug>/<event slug>`" }),
};

export const EventAdminItem = z.object(listFields).meta({ id: "EventAdminItem" });

export const EventAdminDetail = z
  .object({
    ...listFields,
    reminder_enabled: z.boolean().default(true),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
    location_name: z.string().nullable(),
    location_address: z.string().nullable(),
    ends_at: dateTimeOutput().nullable(),
    registration_opens_at: dateTimeOutput().nullable(),
    registration_closes_at: dateTimeOutput().nullable(),
    show_attendees: z.boolean().default(true),
    attendees_min: z.int().default(3),
    attendees_nominative: z.boolean().default(false),
    story_text: z.string().nullable(),
    story_text_size: z.string().default("m"),
    custom_fields_schema: z.array(z.record(z.string(), z.unknown())).default([]),
    tickets: z.array(EventTicketAdmin).default([]),
    waitlist_enabled: z.boolean().default(false).meta({ description: "A full event or ticket takes `waitlisted` registrations." }),
    waitlisted_count: z.int().default(0).meta({ description: "Registrations on the waiting list (not in `registered_count`)." }),
    max_per_email: maxPerEmail().default(1).meta({ description: MAX_PER_EMAIL }),
  })
  .meta({ id: "EventAdminDetail" });

export const EventCreate = z
  .object({
    title: oneLine().min(1).max(200),
    starts_at: dateTimeInput(),
    description: longText().nullish(),
    location_name: text(300).nullish(),
    location_address: text(500).nullish(),
    ends_at: dateTimeInput().nullish(),
    registration_opens_at: dateTimeInput().nullish(),
    registration_closes_at: dateTimeInput().nullish(),
    capacity: z.int().min(0).max(1_000_000).nullish(),
    listed: z.boolean().default(true),
    access: z.enum(EVENT_ACCESS).default("public"),
    show_attendees: z.boolean().nullish(),
    attendees_min: z.int().min(1).max(1000).nullish(),
    attendees_nominative: z.boolean().nullish(),
    custom_fields_schema: freeObjects().nullish(),
    tickets: z.array(TicketPayload).max(50).default([]),
    waitlist_enabled: z.boolean().default(false).meta({ description: WAITLIST_ENABLED }),
    max_per_email: maxPerEmail().default(1).meta({ description: MAX_PER_EMAIL }),
  })
  .meta({
    id: "EventCreate",
    description: "A new event; it is created `published`. `ends_at` must be later than `starts_at`.",
    examples: [
      {
        title: "Season opening",
        starts_at: `${daysFromNow(30)}T18:30:00Z`,
        ends_at: `${daysFromNow(30)}T22:00:00Z`,
        location_name: "Club house",
        capacity: 80,
        tickets: [{ name: "Standard", member_price_cents: 0, non_member_price_cents: 1500 }],
      },
    ],
  });

export const EventUpdate = z
  .object({
    title: oneLine().min(1).max(200).nullish(),
    slug: z
      .string()
      .min(1)
      .max(80)
      .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { error: "INVALID_SLUG" })
      .nullish(),
    description: longText().nullish(),
    location_name: text(300).nullish(),
    location_address: text(500).nullish(),
    starts_at: dateTimeInput().nullish(),
    ends_at: dateTimeInput().nullish(),
    registration_opens_at: dateTimeInput().nullish(),
    registration_closes_at: dateTimeInput().nullish(),
    capacity: z.int().min(0).max(1_000_000).nullish(),
    listed: z.boolean().nullish(),
    access: z.enum(EVENT_ACCESS).nullish(),
    status: z
      .enum(EVENT_STATUSES)
      .nullish()
      .meta({ description: "draft <-> published; either -> cancelled (every confirmed and pending registrant is mailed); a cancelled event refuses changes." }),
    reminder_enabled: z.boolean().nullish(),
    show_attendees: z.boolean().nullish(),
    attendees_min: z.int().min(1).max(1000).nullish(),
    attendees_nominative: z.boolean().nullish(),
    story_text: longText(300).nullish(),
    story_text_size: z.enum(["s", "m", "l"]).nullish(),
    custom_fields_schema: freeObjects().nullish(),
    waitlist_enabled: z.boolean().nullish().meta({ description: WAITLIST_ENABLED }),
    max_per_email: maxPerEmail().nullish().meta({ description: MAX_PER_EMAIL }),
    tickets: z.array(TicketPayload).max(50).nullish().meta({
      description: "The full list: tickets with an `id` are kept and changed, new ones added, missing ones removed (deactivated if they have registrations).",
    }),
  })
  .meta({
    id: "EventUpdate",
    description: "Partial: only the fields sent change; null clears an optional field.",
    examples: [{ location_name: "Main hall", capacity: 120 }],
  });

export const EventRegistrationItem = z
  .object({
    id: z.uuid(),
    ticket_name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    is_member: z.boolean(),
    qr_token: z.string(),
    status: z.enum(REGISTRATION_STATUSES),
    amount_cents: z.int(),
    created_at: dateTimeOutput(),
    email: z.string().nullable(),
    has_payment: z.boolean().default(false),
    checked_in_at: dateTimeOutput().nullable(),
    wallet_a_at: dateTimeOutput().nullable(),
    wallet_b_at: dateTimeOutput().nullable(),
    ics_at: dateTimeOutput().nullable(),
    custom_fields: z.record(z.string(), z.unknown()).nullable(),
    source: z.string().nullable(),
    cancelled_at: dateTimeOutput().nullable().default(null),
    cancel_reason: z.string().nullable().default(null),
    hold_expires_at: dateTimeOutput()
      .nullable()
      .default(null)
      .meta({ description: "A `pending` public registration still unpaid at this time is cancelled and its place freed (the club's `pending_hold_hours`)." }),
    payment_reference: z
      .string()
      .nullable()
      .default(null)
      .meta({ description: "The RF creditor reference to pay this registration by bank transfer (a bank statement import matches it); null for a free one." }),
  })
  .meta({ id: "EventRegistrationItem" });

export const RegistrationIdParams = z.object({ club_id: z.uuid(), event_id: z.uuid(), registration_id: z.uuid() });

export const RegistrationCreate = z
  .object({
    ticket_id: z.uuid(),
    first_name: z.string().trim().min(1).max(100),
    last_name: z.string().trim().min(1).max(100),
    email: z.email().max(320).nullish().meta({ description: "Default: the member's email when `member_id` is given." }),
    member_id: z.uuid().nullish().meta({ description: "A member of the club: member price (their tier's, else the ticket's member price)." }),
    status: z.enum(ADMIN_REGISTRATION_STATUSES).nullish().meta({
      description:
        "Default: `confirmed` when the price is 0, else `pending` (awaiting payment). `confirmed` on a paid ticket records no payment (use confirm for that).",
    }),
  })
  .meta({
    id: "RegistrationCreate",
    description: "An attendee added by an admin. Capacity and quantity_max hold (409); the registration window and the members-only access do not.",
    examples: [{ ticket_id: "0199a4c2-5b7e-7c41-9d2e-3f6a8b1c0d4e", first_name: "Luca", last_name: "Bernasconi", email: "luca.bernasconi@example.org" }],
  });

export const RegistrationConfirm = z
  .object({
    amount_cents: z.int().min(0).max(100_000_000).nullish().meta({ description: "Default: the registration's amount. 0 records no payment." }),
    payment_method: z.string().trim().min(1).max(50).nullish().meta({ description: "Default: `bank_transfer`." }),
  })
  .meta({
    id: "RegistrationConfirm",
    description: "Confirms a pending registration and records the payment received.",
    examples: [{ amount_cents: 1500, payment_method: "bank_transfer" }],
  });

export const RegistrationCancel = z
  .object({
    reason: z.string().trim().max(500).nullish(),
    refund_cents: z
      .int()
      .min(1)
      .max(100_000_000)
      .nullish()
      .meta({ description: "Money given back, recorded as a negative payment; needs `finances:edit`; at most what was paid." }),
  })
  .meta({
    id: "RegistrationCancel",
    description: "Cancels a registration (confirmed, pending or waitlisted); its place goes to the waiting list.",
    examples: [{ reason: "Asked by the attendee" }],
  });

export const CheckinPayload = z
  .object({
    code: oneLine().trim().min(1).max(200).meta({ description: "A ticket `qr_token` or the `referral_code` of a member registered to the event." }),
    nonce: oneLine()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "Chosen by the scanner per scan: a retried request with the same nonce gets the same answer and checks in once." }),
  })
  .meta({ id: "CheckinPayload", examples: [{ code: "7KQ3MXPD", nonce: "door-1-scan-0001" }] });

export const CheckinResult = z
  .object({
    verdict: z.enum(CHECKIN_VERDICTS),
    checked_in_at: dateTimeOutput().nullable().meta({ description: "When the registration was first checked in (valid: now; already: the first scan)." }),
    registration: z.object({ id: z.uuid(), first_name: z.string(), last_name: z.string(), ticket_name: z.string() }).nullable(),
  })
  .meta({ id: "CheckinResult" });

export const EventIdParams = z.object({ club_id: z.uuid(), event_id: z.uuid() });

// ---- Public registration (outside the stable subset) ----

export const PublicRegistrationCreate = z
  .object({
    ticket_id: z.uuid(),
    first_name: oneLine().trim().min(1).max(100),
    last_name: oneLine().trim().min(1).max(100),
    email: emailLine().max(320),
    member_code: oneLine().trim().min(1).max(40).optional().meta({ description: "The member's code (the one on their card) for member prices." }),
    promo_code: oneLine().trim().min(1).max(30).optional(),
    payment_method: z.enum(["stripe", "bank_transfer"]).optional().meta({
      description:
        "How a paid ticket is paid: `stripe` (the default where the club takes card payments) answers a `checkout_url`; `bank_transfer` leaves it pending until the treasurer confirms it.",
    }),
    ...FORM_PROOF_FIELDS,
  })
  .meta({
    id: "PublicRegistrationCreate",
    description:
      "A browser's form also sends a solved `challenge` with its `nonce` (403 CHALLENGE_REQUIRED, CHALLENGE_INVALID, CHALLENGE_EXPIRED, CHALLENGE_USED otherwise) and leaves the honeypot `website` empty (403 HONEYPOT_FILLED).",
    examples: [{ ticket_id: "0199a4c2-5b7e-7c41-9d2e-3f6a8b1c0d4e", first_name: "Luca", last_name: "Bernasconi", email: "luca.bernasconi@example.org" }],
  });

export const PublicRegistration = z
  .object({
    id: z.uuid(),
    event_id: z.uuid(),
    ticket_name: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    is_member: z.boolean(),
    status: z.enum(REGISTRATION_STATUSES).meta({
      description:
        "`confirmed` when free; `pending` (awaiting payment) otherwise; `waitlisted` when full and the event has a waiting list (the code is not valid at the door).",
    }),
    amount_cents: z.int(),
    discount_cents: z.int(),
    currency: z.string(),
    qr_token: z.string(),
    ics_url: z.string(),
    hold_expires_at: dateTimeOutput()
      .nullable()
      .meta({ description: "`pending` only: unpaid at this time, the registration is cancelled and its place freed." }),
    checkout_url: z
      .string()
      .nullable()
      .meta({ description: "`pending` and paid by card: Stripe's payment page, open until `hold_expires_at` (PENDING_PAYMENT_MINUTES); paid -> `confirmed`." }),
    created_at: dateTimeOutput(),
  })
  .meta({ id: "PublicRegistration" });

export const PublicTicket = z
  .object({
    id: z.uuid(),
    name: z.string(),
    ...ticketPriceFields,
    sold_out: z.boolean(),
  })
  .meta({ id: "PublicTicket" });

export const PublicEvent = z
  .object({
    id: z.uuid(),
    title: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
    location_name: z.string().nullable(),
    location_address: z.string().nullable(),
    starts_at: dateTimeOutput(),
    ends_at: dateTimeOutput().nullable(),
    registration_opens_at: dateTimeOutput().nullable(),
    registration_closes_at: dateTimeOutput().nullable(),
    access: z.enum(EVENT_ACCESS),
    currency: z.string(),
    capacity: z.int().nullable(),
    places_left: z.int().nullable(),
    waitlist_enabled: z.boolean().meta({ description: "A full event or sold-out ticket still takes registrations, on a waiting list." }),
    public_url: z.string(),
    tickets: z.array(PublicTicket),
  })
  .meta({ id: "PublicEvent" });

export type TicketPayload = z.output<typeof TicketPayload>;
export type EventCreate = z.output<typeof EventCreate>;
export type EventUpdate = z.output<typeof EventUpdate>;
export type EventAdminItem = z.output<typeof EventAdminItem>;
export type EventAdminDetail = z.output<typeof EventAdminDetail>;
export type EventRegistrationItem = z.output<typeof EventRegistrationItem>;
export type CheckinPayload = z.output<typeof CheckinPayload>;
export type CheckinResult = z.output<typeof CheckinResult>;
export type RegistrationCreate = z.output<typeof RegistrationCreate>;
export type RegistrationConfirm = z.output<typeof RegistrationConfirm>;
export type RegistrationCancel = z.output<typeof RegistrationCancel>;
export type PublicRegistrationCreate = z.output<typeof PublicRegistrationCreate>;
export type PublicEvent = z.output<typeof PublicEvent>;
export type PublicRegistration = z.output<typeof PublicRegistration>;
