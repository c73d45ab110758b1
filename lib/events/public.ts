// The public side of events (outside the stable subset, DESIGN.md section 8): a club's listed
// events, registration with its price, capacity and promo rules, and the registration's .ics
// file. No credentials: each client address is rate-limited instead (DESIGN.md section 11), by
// the routes that declare PUBLIC_EVENTS_RATE.
import { and, asc, eq, inArray } from "drizzle-orm";
import { clubs, events, eventTickets } from "../../db/schema";
import type { PublicCtx } from "../context";
import { NotFound } from "../errors";
import type { AddressRate } from "../ratelimit";
import type { ClubRow } from "../clubs/internal";
import { availability, type Held, placesHeld, publicUrl, ticketPrices } from "./internal";
import type { PublicEvent } from "./schemas";

/** Requests a minute per client address on the public event routes. */
export const PUBLIC_RATE_PER_MINUTE = 60;

/** The one rate the public event routes share per client address. */
export const PUBLIC_EVENTS_RATE: AddressRate = { scope: "public-events", perMinute: PUBLIC_RATE_PER_MINUTE };
/** A registration is a write that mails: 20 a minute per address, as the join form (DESIGN.md section 13). */
export const PUBLIC_REGISTRATION_RATE: AddressRate = { scope: "public-registration", perMinute: 20 };

/** The club's published and listed events, earliest first, with their tickets and places left. */
export async function listPublicEvents(ctx: PublicCtx, slug: string): Promise<PublicEvent[]> {
  const q = ctx.db.read;
  const [club] = await q.select({ id: clubs.id }).from(clubs).where(eq(clubs.slug, slug)).limit(1);
  if (!club) throw new NotFound("CLUB_NOT_FOUND");
  const rows = await q
    .select()
    .from(events)
    .where(and(eq(events.club_id, club.id), eq(events.status, "published"), eq(events.listed, true)))
    .orderBy(asc(events.starts_at));
  // Two queries for the whole list, whatever its length: every ticket, every place held.
  const ids = rows.map((e) => e.id);
  const tickets = ids.length
    ? await q
        .select()
        .from(eventTickets)
        .where(and(inArray(eventTickets.event_id, ids), eq(eventTickets.is_active, true)))
        .orderBy(asc(eventTickets.sort_order))
    : [];
  const heldBy = await placesHeld(q, ids);
  return rows.map((e) =>
    publicEventOf(
      ctx.baseUrl,
      slug,
      e,
      tickets.filter((t) => t.event_id === e.id),
      heldBy.get(e.id)!,
    ),
  );
}

type EventRow = typeof events.$inferSelect;

/** An event as the public sees it: its tickets (active ones, in order) with prices and whether they are sold out. */
function publicEventOf(baseUrl: string, clubSlug: string, e: EventRow, tickets: (typeof eventTickets.$inferSelect)[], held: Held): PublicEvent {
  return {
    id: e.id,
    title: e.title,
    slug: e.slug,
    description: e.description,
    image_url: e.image_url,
    location_name: e.location_name,
    location_address: e.location_address,
    starts_at: e.starts_at,
    ends_at: e.ends_at,
    registration_opens_at: e.registration_opens_at,
    registration_closes_at: e.registration_closes_at,
    access: e.access as PublicEvent["access"],
    currency: e.currency,
    capacity: e.capacity,
    places_left: availability(e, held).places_left,
    waitlist_enabled: e.waitlist_enabled,
    public_url: publicUrl(baseUrl, clubSlug, e.slug),
    tickets: tickets.map((t) => ({ id: t.id, name: t.name, ...ticketPrices(t), sold_out: availability(e, held, t).sold_out })),
  };
}

/** One event of a club's page (lib/pages): the club, the event as the public sees it, and whether it is cancelled. */
export type PublicEventPage = { club: ClubRow; event: PublicEvent; cancelled: boolean };

/**
 * The event whose public address is `/e/<clubSlug>/<eventSlug>`: published (listed or not: the
 * link is the invitation) or cancelled (the page says so). 404 EVENT_NOT_FOUND for a draft, an
 * unknown slug or club.
 */
export async function getPublicEvent(ctx: PublicCtx, clubSlug: string, eventSlug: string): Promise<PublicEventPage> {
  const q = ctx.db.read;
  const [club] = await q.select().from(clubs).where(eq(clubs.slug, clubSlug)).limit(1);
  if (!club) throw new NotFound("EVENT_NOT_FOUND");
  const [e] = await q
    .select()
    .from(events)
    .where(and(eq(events.club_id, club.id), eq(events.slug, eventSlug), inArray(events.status, ["published", "cancelled"])))
    .limit(1);
  if (!e) throw new NotFound("EVENT_NOT_FOUND");
  const tickets = await q
    .select()
    .from(eventTickets)
    .where(and(eq(eventTickets.event_id, e.id), eq(eventTickets.is_active, true)))
    .orderBy(asc(eventTickets.sort_order));
  const held = (await placesHeld(q, [e.id])).get(e.id)!;
  return { club, event: publicEventOf(ctx.baseUrl, clubSlug, e, tickets, held), cancelled: e.status === "cancelled" };
}
