// Registration to an event by the public (outside the stable subset, DESIGN.md section 8): the
// price, capacity and promo rules checked in one transaction (a full event with a waiting list
// takes the registration as `waitlisted`, DESIGN.md section 12), and the registration's .ics
// file. Its own area, above events and promo codes (a registration redeems a code; a code checks
// its event); the admin's registrations are in admin.ts.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Queryable } from "../../db";
import { eventRegistrations, events } from "../../db/schema";
import { emailKeyOf } from "../../db/text";
import { clubSettings } from "../clubs/internal";
import type { PublicCtx } from "../context";
import { Conflict, Forbidden, inClubLanguage, NotFound, ValidationFailed } from "../errors";
import { activeTicketOrThrow, availability, eventPlacesHeld, lockEventPlaces, publicUrl, registrationItem, ticketPriceFor } from "../events/internal";
import { emit } from "../webhooks/emit";
import type { PublicRegistration, PublicRegistrationCreate } from "../events/schemas";
import type { Locale } from "../i18n";
import { newId, randomBase62 } from "../ids";
import { findMemberByCode } from "../members/by-code";
import { statusOn, todayUtc } from "../members/status";
import { redeemEventPromo } from "../promo";
import type { FileReply } from "../reply";
import { statusForPrice } from "../events/waitlist";
import { checkoutHoldUntil, holdUntil, scheduleHoldExpiry } from "../events/hold";
import { paymentMethods } from "../clubs/payments";
import { createCheckout } from "../stripe";
import { checkFormProof, spendFormProof } from "../forms";
import { eventCalendar } from "../events/ics";

/** Statuses in which a registration counts against its email's `max_per_email`. */
const PER_EMAIL = ["confirmed", "pending", "waitlisted"];

/** The event's registrations (confirmed, pending or waitlisted) for the mailbox `emailKey`. */
async function registrationsOfEmail(t: Queryable, eventId: string, emailKey: string): Promise<number> {
  const [row] = await t
    .select({ n: sql<number>`count(*)` })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, eventId), eq(eventRegistrations.email_key, emailKey), inArray(eventRegistrations.status, PER_EMAIL)));
  return Number(row?.n ?? 0);
}

/**
 * Registers someone to a published event. Inside one transaction that holds the event's lock
 * (lockEventPlaces), so the places counted are the places left: no overbooking under concurrent
 * requests, from any process.
 * Price: a member (valid `member_code` of an active member) pays tier_prices[tier] or
 * member_price_cents; anyone else non_member_price_cents (null: members only, 403). A promo code
 * takes its discount and is redeemed in the same transaction. Free: `confirmed`; otherwise
 * `pending` (awaiting payment): where the club takes card payments, with a Stripe Checkout page
 * (`checkout_url`, opened once the registration is committed; 502 when Stripe fails) and a hold
 * of PENDING_PAYMENT_MINUTES; by bank transfer, the club's `pending_hold_hours`. A full event or ticket
 * with `waitlist_enabled`: `waitlisted` (holds no place; moved up when one frees).
 * 404 unknown or draft event, unknown ticket; 409 cancelled event, outside the registration
 * window, full or sold out without a waiting list, inactive ticket, inactive membership, promo
 * refused, the email's `max_per_email` reached (EMAIL_ALREADY_REGISTERED); 403 members only, the
 * form's proof refused (lib/forms: before any transaction, in the visitor's language); 422
 * unknown member code.
 */
export async function registerForEvent(ctx: PublicCtx, eventId: string, input: PublicRegistrationCreate, nowDate = new Date()): Promise<PublicRegistration> {
  const now = nowDate.toISOString();
  const proof = await checkFormProof(ctx.db, ctx.formProofBits, input, nowDate, ctx.formNoScriptMinMs);
  let locale: Locale | undefined;
  const stripe = ctx.site?.stripe ?? null;
  const made = await inClubLanguage(
    () => locale,
    () =>
      ctx.db.tx(async (t) => {
        await spendFormProof(t, proof, nowDate);
        await lockEventPlaces(t, eventId);
        const [event] = await t.select().from(events).where(eq(events.id, eventId)).limit(1);
        if (!event || event.status === "draft") throw new NotFound("EVENT_NOT_FOUND");
        const club = await clubSettings(t, event.club_id);
        locale = club.locale;
        if (event.status === "cancelled") throw new Conflict("EVENT_CANCELLED");
        if (event.registration_opens_at && now < event.registration_opens_at) throw new Conflict("REGISTRATION_NOT_OPEN", { at: event.registration_opens_at });
        if ((event.registration_closes_at && now >= event.registration_closes_at) || now >= (event.ends_at ?? event.starts_at))
          throw new Conflict("REGISTRATION_CLOSED");
        const ticket = await activeTicketOrThrow(t, event.id, input.ticket_id);

        // Locked as read (namingRead): the registration names the member, who cannot go meanwhile.
        const member = input.member_code ? await findMemberByCode(t, event.club_id, input.member_code, true) : null;
        if (input.member_code && !member) throw new ValidationFailed([{ loc: ["body", "member_code"], code: "MEMBER_CODE_UNKNOWN" }]);
        if (member && statusOn(member, todayUtc(nowDate), club.grace_period_days) !== "active") throw new Conflict("MEMBERSHIP_NOT_ACTIVE");
        if (event.access === "members" && !member) throw new Forbidden("EVENT_MEMBERS_ONLY");
        const price = ticketPriceFor(ticket, member);
        if (price === null) throw new Forbidden("TICKET_MEMBERS_ONLY");
        // Counted and written under the event's lock (lockEventPlaces): two requests for one
        // mailbox at once cannot both pass. The refusal says nothing about membership.
        const emailKey = emailKeyOf(input.email);
        if ((await registrationsOfEmail(t, event.id, emailKey)) >= event.max_per_email)
          throw new Conflict("EMAIL_ALREADY_REGISTERED", { max: event.max_per_email });

        const left = availability(event, await eventPlacesHeld(t, event.id), ticket);
        if (left.full && !event.waitlist_enabled) throw new Conflict("EVENT_FULL");
        if (left.ticket_sold_out && !event.waitlist_enabled) throw new Conflict("TICKET_SOLD_OUT");

        const promo = input.promo_code
          ? await redeemEventPromo(t, { clubId: event.club_id, eventId: event.id, currency: event.currency, code: input.promo_code, price, now: nowDate })
          : null;
        const amount = price - (promo?.discount ?? 0);
        const status = left.sold_out ? "waitlisted" : statusForPrice(amount);
        const byCard = status === "pending" && input.payment_method !== "bank_transfer" && paymentMethods(club, !!stripe).includes("stripe");
        if (input.payment_method && status === "pending" && !byCard && !paymentMethods(club, !!stripe).includes(input.payment_method))
          throw new Conflict("PAYMENT_METHOD_UNAVAILABLE");
        // A card payment's page stays open PENDING_PAYMENT_MINUTES; a transfer takes the club's hold.
        const holdExpiresAt =
          status !== "pending" ? null : byCard ? checkoutHoldUntil(now, ctx.pendingPaymentMinutes ?? 30) : holdUntil(now, club.pending_hold_hours);
        const [reg] = await t
          .insert(eventRegistrations)
          .values({
            id: newId(),
            club_id: event.club_id,
            event_id: event.id,
            ticket_id: ticket.id,
            member_id: member?.id ?? null,
            first_name: input.first_name,
            last_name: input.last_name,
            email: input.email.toLowerCase(),
            email_key: emailKey,
            is_member: !!member,
            qr_token: randomBase62(24),
            status,
            hold_expires_at: holdExpiresAt,
            amount_cents: amount,
            currency: event.currency,
            promo_code_id: promo?.promo.id ?? null,
            discount_cents: promo?.discount ?? 0,
            source: "public",
            created_at: now,
            updated_at: now,
          })
          .returning();
        await promo?.record(reg.id, member?.id ?? null);
        if (holdExpiresAt) await scheduleHoldExpiry(t, reg, holdExpiresAt);
        await emit(ctx.db, t, event.club_id, "registration.created", () => ({ event_id: event.id, ...registrationItem(reg, ticket.name, false) }));
        const checkout = byCard ? { club, event, ticketName: ticket.name } : null;
        return {
          checkout,
          id: reg.id,
          event_id: event.id,
          ticket_name: ticket.name,
          first_name: reg.first_name,
          last_name: reg.last_name,
          is_member: reg.is_member,
          status: reg.status as PublicRegistration["status"],
          amount_cents: reg.amount_cents,
          discount_cents: reg.discount_cents,
          currency: reg.currency,
          qr_token: reg.qr_token,
          ics_url: `${ctx.baseUrl}/api/public/registrations/${reg.qr_token}/ics`,
          hold_expires_at: reg.hold_expires_at,
          checkout_url: null as string | null,
          created_at: reg.created_at,
        };
      }),
  );
  const { checkout, ...answer } = made;
  // Network I/O after the commit: should Stripe fail (502), the hold runs out and frees the place.
  if (checkout && stripe) {
    const { club, event, ticketName } = checkout;
    const session = await inClubLanguage(
      () => locale,
      () =>
        createCheckout(stripe, {
          metadata: { club_id: club.id, registration_id: answer.id, purpose: "event" },
          label: `${event.title} — ${ticketName}`,
          amountCents: answer.amount_cents,
          currency: answer.currency,
          email: input.email,
          everyMonths: null,
          customerId: null,
          locale: club.locale,
          successUrl: `${publicUrl(ctx.baseUrl, club.slug, event.slug)}?checkout=success&registration=${answer.qr_token}`,
          cancelUrl: `${publicUrl(ctx.baseUrl, club.slug, event.slug)}?checkout=cancelled`,
          expiresAt: new Date(answer.hold_expires_at as string),
        }),
    );
    answer.checkout_url = session.url;
  }
  return answer;
}

/** The registration's calendar file (text/calendar); the first download is noted in `ics_at`. 404 for an unknown token. */
export async function registrationIcs(ctx: PublicCtx, qrToken: string): Promise<FileReply> {
  const { reg, event } = await ctx.db.tx(async (t) => {
    const [row] = await t
      .select({ reg: eventRegistrations, event: events })
      .from(eventRegistrations)
      .innerJoin(events, eq(events.id, eventRegistrations.event_id))
      .where(eq(eventRegistrations.qr_token, qrToken))
      .limit(1);
    if (!row) throw new NotFound("REGISTRATION_NOT_FOUND");
    if (!row.reg.ics_at) await t.update(eventRegistrations).set({ ics_at: new Date().toISOString() }).where(eq(eventRegistrations.id, row.reg.id));
    return row;
  });
  const club = await clubSettings(ctx.db.read, event.club_id);
  return eventCalendar(event, {
    uid: `${reg.id}@club-api`,
    description: [event.description, `${club.name} — ${reg.first_name} ${reg.last_name}`].filter(Boolean).join("\n\n"),
    url: publicUrl(ctx.baseUrl, club.slug, event.slug),
  });
}
