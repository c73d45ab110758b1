// Registrations by the club's admins (DESIGN.md section 12): add an attendee, confirm a pending
// registration with the payment received, cancel one (with a refund: a negative payment row).
// Each runs in one transaction, so capacity counts and the waiting list's promotions are exact
// however many requests race; a cancellation's freed place goes to the waiting list there.
import { and, desc, eq, sql } from "drizzle-orm";
import type { Queryable } from "../../db";
import { eventRegistrations, eventTickets, payments } from "../../db/schema";
import { emailKeyOf } from "../../db/text";
import { requireScope, type Scope } from "../access";
import { type Ctx, verb } from "../context";
import { Conflict, Forbidden, NotFound } from "../errors";
import {
  activeTicketOrThrow,
  availability,
  eventPlacesHeld,
  lockEventPlaces,
  getEventOrThrow,
  type RegistrationRow,
  registrationItem,
  ticketPriceFor,
} from "../events/internal";
import type { EventRegistrationItem, RegistrationCancel, RegistrationConfirm, RegistrationCreate } from "../events/schemas";
import { fillFromWaitlist, statusForPrice } from "../events/waitlist";
import { newId, nowIso, randomBase62 } from "../ids";
import { addInvoicePayment, cancelRegistrationInvoices, lockInvoice, openRegistrationInvoice } from "../invoices/pay";
import { getMemberRow } from "../members/internal";
import { releaseEventPromo } from "../promo";
import { originOf, type PaymentOrigin, recordPayment } from "../payments/record";
import { emit } from "../webhooks/emit";

type RegistrationRef = { event_id: string; registration_id: string };

/** The registration `registration_id` of the club's event `event_id` with its ticket's name; 404 otherwise. */
async function getRegistrationOrThrow(t: Queryable, clubId: string, ref: RegistrationRef) {
  const [row] = await t
    .select({ r: eventRegistrations, ticket_name: eventTickets.name })
    .from(eventRegistrations)
    .innerJoin(eventTickets, eq(eventTickets.id, eventRegistrations.ticket_id))
    .where(and(eq(eventRegistrations.id, ref.registration_id), eq(eventRegistrations.event_id, ref.event_id), eq(eventRegistrations.club_id, clubId)))
    .limit(1);
  if (!row) throw new NotFound("REGISTRATION_NOT_FOUND");
  return row;
}

/**
 * A registration's payments (its refunds too), the newest first: a few rows, found through
 * payments_registration_idx (every payment of the club was read for them before).
 */
export const paymentsOfRegistration = (q: Queryable, clubId: string, registrationId: string) =>
  q
    .select({ amount_cents: payments.amount_cents, method: payments.method })
    .from(payments)
    .where(and(eq(payments.club_id, clubId), eq(payments.registration_id, registrationId)))
    .orderBy(desc(payments.created_at));

/** What was paid for a registration, refunds deducted, and the method of its last payment. */
async function paidFor(t: Queryable, clubId: string, registrationId: string): Promise<{ paid: number; count: number; method: string | null }> {
  const rows = await paymentsOfRegistration(t, clubId, registrationId);
  return { paid: rows.reduce((sum, r) => sum + r.amount_cents, 0), count: rows.length, method: rows[0]?.method ?? null };
}

/** An event payment, positive or a refund, through the one place payments are recorded (row, receipt, webhook). */
export async function recordRegistrationPayment(
  t: Queryable,
  ctx: Ctx,
  reg: RegistrationRow,
  amount: number,
  method: string,
  reason: string | null,
  origin: PaymentOrigin = {},
) {
  await recordPayment(t, ctx, {
    ...originOf(origin),
    clubId: ctx.clubId,
    kind: "event",
    memberId: reg.member_id,
    registrationId: reg.id,
    amount,
    currency: reg.currency,
    method,
    reason,
    adminId: ctx.actor.adminId,
  });
}

/**
 * An admin adds an attendee. Price as at the door: a member of the club (`member_id`) pays their
 * tier's price or the member price, anyone else the non-member price. Status `confirmed` when the
 * price is 0, else `pending`, unless `status` says. The capacity and the ticket's quantity_max
 * hold (409 EVENT_FULL, TICKET_SOLD_OUT); the registration window and members-only access do not
 * (the admin decides). 404: event, ticket or member not of this club/event; 409: cancelled
 * event, inactive ticket, a members-only ticket for a non-member.
 */
export const addRegistration = verb(
  "events:edit",
  async function addRegistration(ctx: Ctx, input: RegistrationCreate & { event_id: string }): Promise<EventRegistrationItem> {
    return ctx.db.tx(async (t) => {
      await lockEventPlaces(t, input.event_id);
      const event = await getEventOrThrow(t, ctx.clubId, input.event_id);
      if (event.status === "cancelled") throw new Conflict("EVENT_CANCELLED");
      const ticket = await activeTicketOrThrow(t, event.id, input.ticket_id);
      // Locked as read (namingRead): the registration names the member, who cannot go meanwhile.
      const member = input.member_id ? await getMemberRow(t, ctx.clubId, input.member_id, true) : null;
      const price = ticketPriceFor(ticket, member);
      if (price === null) throw new Forbidden("TICKET_MEMBERS_ONLY");
      const left = availability(event, await eventPlacesHeld(t, event.id), ticket);
      if (left.full) throw new Conflict("EVENT_FULL");
      if (left.ticket_sold_out) throw new Conflict("TICKET_SOLD_OUT");
      const now = nowIso();
      const email = input.email ?? member?.email ?? null;
      const [reg] = await t
        .insert(eventRegistrations)
        .values({
          id: newId(),
          club_id: ctx.clubId,
          event_id: event.id,
          ticket_id: ticket.id,
          member_id: member?.id ?? null,
          first_name: input.first_name,
          last_name: input.last_name,
          email: email?.toLowerCase() ?? null,
          // Counted against the public route's max_per_email, never refused here: the admin decides.
          email_key: email ? emailKeyOf(email) : null,
          is_member: !!member,
          qr_token: randomBase62(24),
          status: input.status ?? statusForPrice(price),
          amount_cents: price,
          currency: event.currency,
          source: "admin",
          created_at: now,
          updated_at: now,
        })
        .returning();
      const item = registrationItem(reg, ticket.name, false);
      await emit(ctx.db, t, ctx.clubId, "registration.created", () => ({ event_id: event.id, ...item }));
      return item;
    });
  },
);

/**
 * Confirms a pending registration and records the payment received (default: the registration's
 * amount, by bank transfer; 0 records none), which pays the invoice it names (`invoice_id`, a
 * statement line's) else the registration's open event invoice. Unguarded: `confirmRegistration` (events:edit and
 * finances:edit: it records money) and the bank statement import (finances:edit) call it. 409:
 * not pending (REGISTRATION_NOT_PENDING), a cancelled event, a statement line recorded before.
 * 404: not this club's.
 */
export async function confirmPendingRegistration(ctx: Ctx, input: RegistrationConfirm & RegistrationRef & PaymentOrigin): Promise<EventRegistrationItem> {
  return ctx.db.tx(async (t) => {
    const event = await getEventOrThrow(t, ctx.clubId, input.event_id);
    const { r, ticket_name } = await getRegistrationOrThrow(t, ctx.clubId, input);
    if (event.status === "cancelled") throw new Conflict("EVENT_CANCELLED");
    if (r.status !== "pending") throw new Conflict("REGISTRATION_NOT_PENDING", { status: r.status });
    const now = nowIso();
    // Pending to confirmed by a conditional write, before the payment is recorded: of two
    // confirmations at once (two clicks, two processes, Stripe's two events of one payment), one
    // writes; the other waits on the row, finds it confirmed and is refused, so nothing is paid twice.
    const [row] = await t
      .update(eventRegistrations)
      .set({ status: "confirmed", updated_at: now })
      .where(and(eq(eventRegistrations.id, r.id), eq(eventRegistrations.club_id, ctx.clubId), eq(eventRegistrations.status, "pending")))
      .returning();
    if (!row) throw new Conflict("REGISTRATION_NOT_PENDING", { status: (await getRegistrationOrThrow(t, ctx.clubId, input)).r.status });
    const amount = input.amount_cents ?? r.amount_cents;
    // The invoice the payment names (a statement line's), else the registration's open event
    // invoice: paid with this payment (DESIGN.md section 20), as mark-paid settles a membership's.
    const invoice =
      amount > 0 ? (input.invoice_id ? await lockInvoice(t, ctx.clubId, input.invoice_id) : await openRegistrationInvoice(t, ctx.clubId, r.id)) : null;
    if (amount > 0)
      await recordRegistrationPayment(t, ctx, r, amount, input.payment_method ?? "bank_transfer", null, { ...input, invoice_id: invoice?.id ?? null });
    if (invoice) await addInvoicePayment(t, ctx, invoice, amount, { settle: true });
    const item = registrationItem(row, ticket_name, (await paidFor(t, ctx.clubId, r.id)).count > 0);
    await emit(ctx.db, t, ctx.clubId, "registration.confirmed", () => ({ event_id: event.id, ...item }));
    return item;
  });
}

/** Confirms a pending registration with the payment received (see confirmPendingRegistration). */
export const confirmRegistration = verb(["events:edit", "finances:edit"], confirmPendingRegistration);

/** What a refund at cancellation needs beyond cancelling (the dashboard offers the refund field to who holds it). */
export const REFUND_SCOPE: Scope = "finances:edit";

type Cancellation = RegistrationCancel & RegistrationRef;

/**
 * Cancels a confirmed, pending or waitlisted registration, with an optional reason. A refund
 * (`refund_cents`, needs REFUND_SCOPE, finances:edit) is recorded as a negative payment by the method of the
 * last payment, at most what was paid (409 REFUND_EXCEEDS_PAID). A promo code's use is given
 * back. The place it held goes to the oldest waitlisted registration of its ticket (then of the
 * event) that fits, who is mailed. 409: checked in, already cancelled. 404: not this club's.
 * Allowed on a cancelled event (to record refunds); nobody is promoted there.
 */
export const cancelRegistration = verb("events:edit", async function cancelRegistration(ctx: Ctx, input: Cancellation): Promise<EventRegistrationItem> {
  if (input.refund_cents != null) requireScope(ctx.actor, REFUND_SCOPE);
  return ctx.db.tx(async (t) => {
    const event = await getEventOrThrow(t, ctx.clubId, input.event_id);
    const { r, ticket_name } = await getRegistrationOrThrow(t, ctx.clubId, input);
    if (r.status === "cancelled") throw new Conflict("REGISTRATION_ALREADY_CANCELLED");
    if (r.checked_in_at) throw new Conflict("REGISTRATION_CHECKED_IN");
    const now = nowIso();
    if (input.refund_cents != null) {
      const paid = await paidFor(t, ctx.clubId, r.id);
      if (input.refund_cents > paid.paid) throw new Conflict("REFUND_EXCEEDS_PAID", { refund: input.refund_cents, paid: paid.paid });
      // Against the registration's invoice when its payments paid one (paid_cents lowered there).
      const [onInvoice] = await t
        .select({ invoice_id: payments.invoice_id })
        .from(payments)
        .where(and(eq(payments.club_id, ctx.clubId), eq(payments.registration_id, r.id), sql`${payments.invoice_id} is not null`))
        .orderBy(desc(payments.created_at))
        .limit(1);
      await recordRegistrationPayment(t, ctx, r, -input.refund_cents, paid.method ?? "bank_transfer", input.reason ?? null, {
        invoice_id: onInvoice?.invoice_id,
      });
    }
    const [row] = await t
      .update(eventRegistrations)
      .set({ status: "cancelled", cancelled_at: now, cancel_reason: input.reason ?? null, updated_at: now })
      .where(and(eq(eventRegistrations.id, r.id), eq(eventRegistrations.club_id, ctx.clubId)))
      .returning();
    await releaseEventPromo(t, { clubId: ctx.clubId, registrationId: r.id, now });
    await cancelRegistrationInvoices(t, ctx, ctx.clubId, { registrationId: r.id });
    const item = registrationItem(row, ticket_name, (await paidFor(t, ctx.clubId, r.id)).count > 0);
    // Told before the promotion it causes, in the order the receiver should apply them.
    await emit(ctx.db, t, ctx.clubId, "registration.cancelled", () => ({ event_id: event.id, ...item }));
    if (r.status !== "waitlisted") await fillFromWaitlist(t, { db: ctx.db, event, baseUrl: ctx.baseUrl, preferTicketId: r.ticket_id, now });
    return item;
  });
});
