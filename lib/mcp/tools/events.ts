// MCP tools for events, check-in, promo codes and stats: the same lib/ verbs and zod shapes as
// the HTTP routes, so a rule or a limit exists once.
import { z } from "zod";
import { checkinEvent, createEvent, getEvent, listEventRegistrations, listEvents, updateEvent } from "../../events";
import {
  CheckinPayload,
  CheckinResult,
  EventAdminDetail,
  EventAdminItem,
  EventCreate,
  EventRegistrationItem,
  EventUpdate,
  RegistrationCancel,
  RegistrationConfirm,
  RegistrationCreate,
} from "../../events/schemas";
import { createPromoCode, listPromoCodes, PromoCodeCreate, PromoCodeListQuery, PromoCodePublic, PromoCodeUpdate, updatePromoCode } from "../../promo";
import { addRegistration, cancelRegistration, confirmRegistration } from "../../registrations/admin";
import { ClubStats, clubStats } from "../../stats";
import { READ_ONLY, tool, WRITE } from "../tool";

const eventId = z.uuid().meta({ description: "The event's id (from list_events)." });

export const list_events = tool({
  name: "list_events",
  title: "List events",
  description:
    "Lists the club's events, latest start first, each with status (draft, published, cancelled), registered_count, checked_in_count, revenue_cents and net_cents (integer cents) and its public_url.",
  input: z.object({}),
  annotations: READ_ONLY,
  output: z.array(EventAdminItem),
  scope: listEvents.scope,
  run: (ctx) => listEvents(ctx, {}),
});

export const get_event = tool({
  name: "get_event",
  title: "Get an event",
  description: "Returns one event with all its settings and its tickets (prices in cents, quantity_max, registered_count).",
  input: z.object({ event_id: eventId }),
  annotations: READ_ONLY,
  output: EventAdminDetail,
  scope: getEvent.scope,
  run: (ctx, input) => getEvent(ctx, input),
});

export const create_event = tool({
  name: "create_event",
  title: "Create an event",
  description:
    "Creates a published event. Required: title, starts_at (ISO 8601 date-time). tickets: [{name, member_price_cents, non_member_price_cents (null = members only), tier_prices, quantity_max}], prices in cents. ends_at must be after starts_at; attendees_min 1..1000.",
  input: EventCreate,
  annotations: WRITE,
  output: EventAdminDetail,
  scope: createEvent.scope,
  run: (ctx, input) => createEvent(ctx, input),
});

export const update_event = tool({
  name: "update_event",
  title: "Update an event",
  description:
    "Changes an event: send event_id and only the fields to change. status: draft <-> published, or cancelled (final: a cancelled event cannot be changed; every confirmed and pending registrant is mailed). waitlist_enabled: a full event takes a waiting list. tickets is the full list: give each kept ticket its id; tickets left out are removed (deactivated if they have registrations).",
  input: EventUpdate.extend({ event_id: eventId }),
  annotations: { ...WRITE, idempotentHint: true },
  output: EventAdminDetail,
  scope: updateEvent.scope,
  run: (ctx, input) => updateEvent(ctx, input),
});

export const event_registrations = tool({
  name: "event_registrations",
  title: "Event registrations",
  description:
    "Lists everyone registered to an event: id, name, email, ticket, status (confirmed, pending payment, waitlisted, cancelled), amount in cents, checked_in_at.",
  input: z.object({ event_id: eventId }),
  annotations: READ_ONLY,
  output: z.array(EventRegistrationItem),
  scope: listEventRegistrations.scope,
  run: (ctx, input) => listEventRegistrations(ctx, input),
});

const registrationId = z.uuid().meta({ description: "The registration's id (from event_registrations)." });

export const add_registration = tool({
  name: "add_registration",
  title: "Add a registration",
  description:
    "Adds an attendee to an event: event_id, ticket_id (from get_event), first_name, last_name, optional email and member_id (a member pays the member price). Status confirmed when free, else pending (awaiting payment), unless status says. Refused when the event or ticket is full (EVENT_FULL, TICKET_SOLD_OUT).",
  input: RegistrationCreate.extend({ event_id: eventId }),
  annotations: WRITE,
  output: EventRegistrationItem,
  scope: addRegistration.scope,
  run: (ctx, input) => addRegistration(ctx, input),
});

export const confirm_registration = tool({
  name: "confirm_registration",
  title: "Confirm a registration",
  description:
    "Confirms a pending registration and records the payment received: amount_cents (default the registration's amount, in cents), payment_method (default bank_transfer). Needs events:edit and finances:edit. Only a pending registration (else REGISTRATION_NOT_PENDING).",
  input: RegistrationConfirm.extend({ event_id: eventId, registration_id: registrationId }),
  annotations: WRITE,
  output: EventRegistrationItem,
  scope: confirmRegistration.scope,
  run: (ctx, input) => confirmRegistration(ctx, input),
});

export const cancel_registration = tool({
  name: "cancel_registration",
  title: "Cancel a registration",
  description:
    "Cancels a registration (confirmed, pending or waitlisted); it cannot be undone. Optional reason; refund_cents (cents, needs finances:edit, at most what was paid) records a refund. Refused once checked in. The freed place goes to the oldest waitlisted registration, who is mailed. Confirm with the user first.",
  input: RegistrationCancel.extend({ event_id: eventId, registration_id: registrationId }),
  annotations: { ...WRITE, destructiveHint: true },
  output: EventRegistrationItem,
  scope: cancelRegistration.scope,
  run: (ctx, input) => cancelRegistration(ctx, input),
});

export const checkin_event = tool({
  name: "checkin_event",
  title: "Check in at an event",
  description:
    "Checks a scanned code in at an event. code: a ticket's qr_token or the card code of a member registered to the event. Answers verdict valid (first scan), already (with the first checked_in_at) or not_registered. A cancelled event refuses check-in (EVENT_CANCELLED). Give a nonce to make a retry safe.",
  input: CheckinPayload.extend({ event_id: eventId }),
  annotations: WRITE,
  output: CheckinResult,
  scope: checkinEvent.scope,
  run: (ctx, input) => checkinEvent(ctx, input),
});

export const list_promo_codes = tool({
  name: "list_promo_codes",
  title: "List promo codes",
  description:
    "Lists the club's promo codes with their discount, scope (membership or event), uses and validity. Optional filters: event_id, scope, include_inactive (default true).",
  // The route's query filters, with a JSON boolean where the query string needs z.stringbool().
  input: PromoCodeListQuery.extend({
    include_inactive: z.boolean().default(true).meta({ description: PromoCodeListQuery.shape.include_inactive.description }),
  }),
  annotations: READ_ONLY,
  output: z.array(PromoCodePublic),
  scope: listPromoCodes.scope,
  run: (ctx, input) => listPromoCodes(ctx, input),
});

export const create_promo_code = tool({
  name: "create_promo_code",
  title: "Create a promo code",
  description:
    "Creates a promo code: code (4 to 30 characters, unique in the club whatever the case), discount_type percent (1..100) or amount (cents), discount_value > 0; optional event_id (an event code), max_uses, valid_from, valid_until.",
  input: PromoCodeCreate,
  annotations: WRITE,
  output: PromoCodePublic,
  scope: createPromoCode.scope,
  run: (ctx, input) => createPromoCode(ctx, input),
});

export const club_stats = tool({
  name: "club_stats",
  title: "Club stats",
  description:
    "Returns member counts (total, active, expired, pending, suspended, new this month) and revenue this month and all time in cents: gross, provider fees, platform commission, net, and the membership and event shares.",
  input: z.object({}),
  annotations: READ_ONLY,
  output: ClubStats,
  scope: clubStats.scope,
  run: (ctx) => clubStats(ctx, {}),
});

export const update_promo_code = tool({
  name: "update_promo_code",
  title: "Update a promo code",
  description:
    "Changes a promo code: send promo_code_id (from list_promo_codes) and only the fields to change: is_active, valid_from, valid_until, max_uses (null clears). code, discount_type and discount_value change only while used_count is 0 (else PROMO_CODE_USED).",
  input: PromoCodeUpdate.extend({ promo_code_id: z.uuid().meta({ description: "The promo code's id (from list_promo_codes)." }) }),
  annotations: { ...WRITE, idempotentHint: true },
  output: PromoCodePublic,
  scope: updatePromoCode.scope,
  run: (ctx, input) => updatePromoCode(ctx, input),
});
