// The waiting list (DESIGN.md section 12): an event with `waitlist_enabled` takes `waitlisted`
// registrations once it or a ticket is full; they hold no place. Whenever places free up (a
// cancellation, a larger capacity or quantity_max), the oldest waitlisted registrations that now
// fit move up, each mailed; one moved up to pay holds its place for the club's
// pending_hold_hours (lib/events/hold.ts). Always run inside the writing transaction
// (transactions run one at a time), so the count of places it reads is the count it writes
// against: no over-filling and no registration promoted twice, however many requests race.
import { and, asc, eq } from "drizzle-orm";
import type { Db, Queryable } from "../../db";
import { eventRegistrations, eventTickets } from "../../db/schema";
import { clubSettings } from "../clubs/internal";
import { holdUntil, scheduleHoldExpiry } from "./hold";
import { availability, type EventRow, eventPlacesHeld, lockEventPlaces, type RegistrationRow, registrationItem } from "./internal";
import { emit } from "../webhooks/emit";
import { queueRegistrantMail } from "./mails";

/** A registration taking a place is `pending` (awaiting payment) when it has something to pay, else `confirmed`. */
export const statusForPrice = (amountCents: number) => (amountCents > 0 ? "pending" : "confirmed");

/**
 * Moves up, oldest first, every waitlisted registration of `event` that now fits (the event's
 * capacity and its ticket's quantity_max, counted as they fill), those of `preferTicketId` (the
 * ticket whose place was just freed) before the others; registrations of an inactive ticket wait.
 * A cancelled event promotes nobody. Each one promoted is mailed; one confirmed (a free place) is
 * a `registration.confirmed` for the webhooks (`db` writes their outbox). Returns them.
 */
export async function fillFromWaitlist(
  t: Queryable,
  input: { db: Db; event: EventRow; baseUrl: string; preferTicketId?: string; now: string },
): Promise<RegistrationRow[]> {
  const { event } = input;
  if (event.status === "cancelled") return [];
  await lockEventPlaces(t, event.id);
  const waiting = await t
    .select({ r: eventRegistrations, ticket: eventTickets })
    .from(eventRegistrations)
    .innerJoin(eventTickets, eq(eventTickets.id, eventRegistrations.ticket_id))
    .where(and(eq(eventRegistrations.event_id, event.id), eq(eventRegistrations.status, "waitlisted"), eq(eventTickets.is_active, true)))
    .orderBy(asc(eventRegistrations.created_at), asc(eventRegistrations.id));
  if (!waiting.length) return [];
  // Stable sort: the freed ticket's queue first, each part still oldest first.
  waiting.sort((a, b) => Number(b.r.ticket_id === input.preferTicketId) - Number(a.r.ticket_id === input.preferTicketId));
  const held = await eventPlacesHeld(t, event.id);
  const promoted: RegistrationRow[] = [];
  let club: Awaited<ReturnType<typeof clubSettings>> | null = null;
  for (const { r, ticket } of waiting) {
    const left = availability(event, held, ticket);
    if (left.full) break;
    if (left.ticket_sold_out) continue;
    club ??= await clubSettings(t, event.club_id);
    const status = statusForPrice(r.amount_cents);
    // Moved up to pay: the hold starts now, not when the registration joined the queue.
    const holdExpiresAt = status === "pending" ? holdUntil(input.now, club.pending_hold_hours) : null;
    const [row] = await t
      .update(eventRegistrations)
      .set({ status, hold_expires_at: holdExpiresAt, updated_at: input.now })
      .where(and(eq(eventRegistrations.id, r.id), eq(eventRegistrations.status, "waitlisted")))
      .returning();
    if (!row) continue;
    if (holdExpiresAt) await scheduleHoldExpiry(t, row, holdExpiresAt);
    held.total++;
    held.byTicket.set(ticket.id, (held.byTicket.get(ticket.id) ?? 0) + 1);
    promoted.push(row);
    await queueRegistrantMail(t, {
      club,
      baseUrl: input.baseUrl,
      event,
      ticketName: ticket.name,
      reg: row,
      kind: row.status === "confirmed" ? "promotedConfirmed" : "promotedPending",
    });
    if (row.status === "confirmed")
      await emit(input.db, t, event.club_id, "registration.confirmed", () => ({ event_id: event.id, ...registrationItem(row, ticket.name, false) }));
  }
  return promoted;
}
