// Club-scoped lookups and the figures every event shape carries (registered, checked in,
// revenue, net), always computed from registrations and payments, never stored.
import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import type { Queryable } from "../../db";
import { lockRows } from "../../db/locks";
import { eventRegistrations, events, eventTickets, payments } from "../../db/schema";
import { freeSlug } from "../clubs";
import { clubSettings } from "../clubs/internal";
import { Conflict, type Invalid, NotFound, ValidationFailed } from "../errors";
import { netCents } from "../stats/net";
import type { EventAdminDetail, EventAdminItem, EventRegistrationItem } from "./schemas";
import { registrationReference } from "../payments/reference";

export type EventRow = typeof events.$inferSelect;
export type TicketRow = typeof eventTickets.$inferSelect;
export type RegistrationRow = typeof eventRegistrations.$inferSelect;

/** Registrations that hold a place (capacity, quantity_max, registered_count): DESIGN.md section 8. */
const HOLDING = ["confirmed", "pending"];

export async function getEventOrThrow(q: Queryable, clubId: string, eventId: string): Promise<EventRow> {
  const [row] = await q
    .select()
    .from(events)
    .where(and(eq(events.id, eventId), eq(events.club_id, clubId)))
    .limit(1);
  if (!row) throw new NotFound("EVENT_NOT_FOUND");
  return row;
}

/** A slug for a new event of the club, from its title (`event` when the title has no letter or digit). */
export function freeEventSlug(q: Queryable, clubId: string, title: string): Promise<string> {
  return freeSlug(q, { table: events, column: events.slug, scope: eq(events.club_id, clubId) }, title, "event");
}

export async function slugTaken(q: Queryable, clubId: string, slug: string, exceptId: string): Promise<boolean> {
  const [row] = await q
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.club_id, clubId), eq(events.slug, slug), ne(events.id, exceptId)))
    .limit(1);
  return !!row;
}

export function publicUrl(baseUrl: string, clubSlug: string, eventSlug: string): string {
  return `${baseUrl}/e/${clubSlug}/${eventSlug}`;
}

type Figures = { registered: number; checkedIn: number; revenue: number; net: number };

/** Places held by an event's registrations: in all and per ticket. */
export type Held = { total: number; byTicket: Map<string, number> };

/**
 * The places held per event (DESIGN.md section 8: confirmed and pending registrations hold one,
 * cancelled ones none). The one count behind capacity, quantity_max, registered_count and the
 * public list's places_left and sold_out.
 */
export async function placesHeld(q: Queryable, eventIds: string[]): Promise<Map<string, Held>> {
  const out = new Map<string, Held>(eventIds.map((id) => [id, { total: 0, byTicket: new Map() }]));
  if (!eventIds.length) return out;
  const rows = await q
    .select({ event_id: eventRegistrations.event_id, ticket_id: eventRegistrations.ticket_id, n: sql<number>`count(*)` })
    .from(eventRegistrations)
    .where(and(inArray(eventRegistrations.event_id, eventIds), inArray(eventRegistrations.status, HOLDING)))
    .groupBy(eventRegistrations.event_id, eventRegistrations.ticket_id);
  for (const r of rows) {
    const held = out.get(r.event_id);
    if (!held) continue;
    held.total += Number(r.n);
    held.byTicket.set(r.ticket_id, Number(r.n));
  }
  return out;
}

/**
 * Inside a transaction that counts the event's places, then takes one (a registration, a
 * promotion from the waiting list, a late payment keeping its place): locks the event first, so
 * that two such transactions for one event, from any connection or process, count one after the
 * other and never sell the same place twice. `max_per_email` is counted under the same lock.
 */
export async function lockEventPlaces(t: Queryable, eventId: string): Promise<void> {
  await lockRows(t, events, events.id, eventId);
}

/** One event's places held. */
export async function eventPlacesHeld(q: Queryable, eventId: string): Promise<Held> {
  return (await placesHeld(q, [eventId])).get(eventId)!;
}

/**
 * What is left of an event and of one of its tickets, from the places held: `full` when the
 * capacity is reached (EVENT_FULL), `ticket_sold_out` when the ticket's quantity_max is
 * (TICKET_SOLD_OUT), `sold_out` when either is (the public list). `places_left` null: no capacity.
 */
export function availability(
  event: { capacity: number | null },
  held: Held,
  ticket?: { id: string; quantity_max: number | null },
): { places_left: number | null; full: boolean; ticket_sold_out: boolean; sold_out: boolean } {
  const full = event.capacity !== null && held.total >= event.capacity;
  const ticket_sold_out = !!ticket && ticket.quantity_max !== null && (held.byTicket.get(ticket.id) ?? 0) >= ticket.quantity_max;
  return {
    places_left: event.capacity === null ? null : Math.max(0, event.capacity - held.total),
    full,
    ticket_sold_out,
    sold_out: full || ticket_sold_out,
  };
}

/** Per event: places held, check-ins, gross event payments and their net (section 10's terms). */
export async function eventFigures(q: Queryable, clubId: string, eventIds: string[]): Promise<Map<string, Figures>> {
  const held = await placesHeld(q, eventIds);
  const out = new Map<string, Figures>(eventIds.map((id) => [id, { registered: held.get(id)?.total ?? 0, checkedIn: 0, revenue: 0, net: 0 }]));
  if (!eventIds.length) return out;
  const regs = await q
    .select({ event_id: eventRegistrations.event_id, checked_in: sql<number>`count(*)` })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.club_id, clubId), inArray(eventRegistrations.event_id, eventIds), isNotNull(eventRegistrations.checked_in_at)))
    .groupBy(eventRegistrations.event_id);
  for (const r of regs) {
    const f = out.get(r.event_id);
    if (f) f.checkedIn = Number(r.checked_in ?? 0);
  }
  const money = await q
    .select({
      event_id: eventRegistrations.event_id,
      gross: sql<number>`sum(${payments.amount_cents})`,
      fees: sql<number>`sum(${payments.provider_fee_cents})`,
      commission: sql<number>`sum(${payments.platform_commission_cents})`,
    })
    .from(payments)
    .innerJoin(eventRegistrations, eq(eventRegistrations.id, payments.registration_id))
    .where(and(eq(payments.club_id, clubId), eq(payments.kind, "event"), inArray(eventRegistrations.event_id, eventIds)))
    .groupBy(eventRegistrations.event_id);
  for (const m of money) {
    const f = out.get(m.event_id);
    if (!f) continue;
    f.revenue = Number(m.gross ?? 0);
    f.net = netCents({ gross: f.revenue, fees: Number(m.fees ?? 0), commission: Number(m.commission ?? 0) });
  }
  return out;
}

export function toItem(row: EventRow, f: Figures, baseUrl: string, clubSlug: string): EventAdminItem {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    starts_at: row.starts_at,
    status: row.status as EventAdminItem["status"],
    listed: row.listed,
    access: row.access as EventAdminItem["access"],
    capacity: row.capacity,
    registered_count: f.registered,
    checked_in_count: f.checkedIn,
    revenue_cents: f.revenue,
    net_cents: f.net,
    currency: row.currency,
    public_url: publicUrl(baseUrl, clubSlug, row.slug),
  };
}

/** The ticket `ticketId` of the event, on sale: 404 TICKET_NOT_FOUND when not one of its tickets, 409 TICKET_INACTIVE when withdrawn. */
export async function activeTicketOrThrow(q: Queryable, eventId: string, ticketId: string): Promise<TicketRow> {
  const [ticket] = await q
    .select()
    .from(eventTickets)
    .where(and(eq(eventTickets.id, ticketId), eq(eventTickets.event_id, eventId)))
    .limit(1);
  if (!ticket) throw new NotFound("TICKET_NOT_FOUND");
  if (!ticket.is_active) throw new Conflict("TICKET_INACTIVE");
  return ticket;
}

export async function ticketsOf(q: Queryable, eventId: string): Promise<TicketRow[]> {
  return q.select().from(eventTickets).where(eq(eventTickets.event_id, eventId)).orderBy(asc(eventTickets.sort_order), asc(eventTickets.created_at));
}

export async function loadDetail(q: Queryable, clubId: string, baseUrl: string, row: EventRow): Promise<EventAdminDetail> {
  const club = await clubSettings(q, clubId);
  const figures = (await eventFigures(q, clubId, [row.id])).get(row.id)!;
  const tickets = await ticketsOf(q, row.id);
  const counts = (await eventPlacesHeld(q, row.id)).byTicket;
  return {
    ...toItem(row, figures, baseUrl, club.slug),
    reminder_enabled: row.reminder_enabled,
    description: row.description,
    image_url: row.image_url,
    location_name: row.location_name,
    location_address: row.location_address,
    ends_at: row.ends_at,
    registration_opens_at: row.registration_opens_at,
    registration_closes_at: row.registration_closes_at,
    show_attendees: row.show_attendees,
    attendees_min: row.attendees_min,
    attendees_nominative: row.attendees_nominative,
    story_text: row.story_text,
    story_text_size: row.story_text_size,
    custom_fields_schema: row.custom_fields_schema ?? [],
    tickets: tickets.map((t) => ({
      id: t.id,
      name: t.name,
      ...ticketPrices(t),
      quantity_max: t.quantity_max,
      is_active: t.is_active,
      registered_count: counts.get(t.id) ?? 0,
    })),
    waitlist_enabled: row.waitlist_enabled,
    waitlisted_count: await waitlistedCount(q, row.id),
    max_per_email: row.max_per_email,
  };
}

/** The event's waitlisted registrations (all tickets): the detail's `waitlisted_count`. */
export async function waitlistedCount(q: Queryable, eventId: string): Promise<number> {
  const [row] = await q
    .select({ n: sql<number>`count(*)` })
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, eventId), eq(eventRegistrations.status, "waitlisted")));
  return Number(row?.n ?? 0);
}

/** A registration as the admin sees it (EventRegistrationItem). */
export function registrationItem(r: RegistrationRow, ticketName: string, hasPayment: boolean): EventRegistrationItem {
  return {
    id: r.id,
    ticket_name: ticketName,
    first_name: r.first_name,
    last_name: r.last_name,
    is_member: r.is_member,
    qr_token: r.qr_token,
    status: r.status as EventRegistrationItem["status"],
    amount_cents: r.amount_cents,
    created_at: r.created_at,
    email: r.email,
    has_payment: hasPayment,
    checked_in_at: r.checked_in_at,
    wallet_a_at: r.wallet_a_at,
    wallet_b_at: r.wallet_b_at,
    ics_at: r.ics_at,
    custom_fields: r.custom_fields ?? null,
    source: r.source,
    cancelled_at: r.cancelled_at,
    cancel_reason: r.cancel_reason,
    hold_expires_at: r.hold_expires_at,
    payment_reference: r.amount_cents > 0 ? registrationReference(r.id) : null,
  };
}

/** A ticket's prices, as both the admin and the public shapes show them. */
export function ticketPrices(t: { member_price_cents: number; tier_prices: Record<string, number> | null; non_member_price_cents: number | null }) {
  return { member_price_cents: t.member_price_cents, tier_prices: t.tier_prices ?? null, non_member_price_cents: t.non_member_price_cents };
}

/**
 * What `member` (null: a non-member) pays for `ticket` (DESIGN.md section 8): their tier's price
 * if the ticket sets one, else the member price; a non-member the non-member price. null: the
 * ticket is for members only.
 */
export function ticketPriceFor(ticket: TicketRow, member: { tier_id: string | null } | null): number | null {
  if (member) return (member.tier_id ? ticket.tier_prices?.[member.tier_id] : undefined) ?? ticket.member_price_cents;
  return ticket.non_member_price_cents;
}

/** The years an ISO date-time string can name and still sort as text: 0001 to 9999 (UTC). */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/**
 * The date-times `names` of `input`, normalised to UTC `...Z` (null and absent kept). A date
 * that its offset pushes outside the years 0001..9999 ("9999-12-31T23:00:00-14:00") would be
 * stored as "+010000-01-01T..." and compare wrongly as text: 422 DATE_OUT_OF_RANGE at `loc`
 * + the field, every such field at once. Events and promo codes both store through here.
 */
export function utcDates<T extends Record<string, unknown>>(input: T, names: readonly (keyof T & string)[], loc: (string | number)[] = ["body"]): T {
  const out: Record<string, unknown> = { ...input };
  const items: Invalid[] = [];
  for (const name of names) {
    const value = input[name];
    if (typeof value !== "string" || !value) continue;
    const date = new Date(value);
    const year = date.getUTCFullYear();
    if (Number.isNaN(year) || year < FIRST_YEAR || year > LAST_YEAR) items.push({ loc: [...loc, name], code: "DATE_OUT_OF_RANGE", params: { field: name } });
    else out[name] = date.toISOString();
  }
  if (items.length) throw new ValidationFailed(items);
  return out as T;
}
