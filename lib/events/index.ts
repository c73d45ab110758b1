// Events as the club's admins see them: list, read, create (with tickets), partial update (with
// ticket reconciliation and the status rules of DESIGN.md section 8; cancelling mails the
// registrants, more places move the waiting list up), delete (only while nobody registered),
// and the registrations.
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { Queryable } from "../../db";
import { checkIns, eventRegistrations, events, eventTickets, payments, promoCodes } from "../../db/schema";
import { verb } from "../context";
import { clubSettings } from "../clubs/internal";
import type { Ctx } from "../context";
import { Conflict, type Invalid, ValidationFailed } from "../errors";
import { newId, nowIso } from "../ids";
import { cancelRegistrationInvoices } from "../invoices/pay";
import { foreignTierItems } from "../tiers/internal";
import { emit } from "../webhooks/emit";
import {
  type EventRow,
  eventFigures,
  freeEventSlug,
  getEventOrThrow,
  loadDetail,
  registrationItem,
  slugTaken,
  type TicketRow,
  ticketsOf,
  toItem,
  utcDates,
} from "./internal";
import { queueRegistrantMail } from "./mails";
import { fillFromWaitlist } from "./waitlist";
import type { EventAdminDetail, EventAdminItem, EventCreate, EventRegistrationItem, EventUpdate, TicketPayload } from "./schemas";

export { checkinEvent } from "./checkin";

/** Allowed status moves (DESIGN.md section 8); a cancelled event moves nowhere. */
const TRANSITIONS: Record<string, string[]> = { draft: ["published", "cancelled"], published: ["draft", "cancelled"], cancelled: [] };

/** `ends_at` after `starts_at`, registration closing after it opens: 422 otherwise. */
function checkDates(v: { starts_at: string; ends_at?: string | null; registration_opens_at?: string | null; registration_closes_at?: string | null }) {
  const items: Invalid[] = [];
  if (v.ends_at && Date.parse(v.ends_at) <= Date.parse(v.starts_at)) {
    items.push({ loc: ["body", "ends_at"], code: "DATE_ORDER", params: { field: "ends_at", other: "starts_at" } });
  }
  if (v.registration_opens_at && v.registration_closes_at && Date.parse(v.registration_closes_at) <= Date.parse(v.registration_opens_at)) {
    items.push({ loc: ["body", "registration_closes_at"], code: "DATE_ORDER", params: { field: "registration_closes_at", other: "registration_opens_at" } });
  }
  if (items.length) throw new ValidationFailed(items);
}

function ticketValues(p: TicketPayload) {
  return {
    name: p.name,
    member_price_cents: p.member_price_cents ?? 0,
    tier_prices: p.tier_prices ?? null,
    non_member_price_cents: p.non_member_price_cents ?? null,
    quantity_max: p.quantity_max ?? null,
  };
}

async function insertTicket(t: Queryable, ctx: Ctx, eventId: string, p: TicketPayload, sort: number, now: string) {
  await t
    .insert(eventTickets)
    .values({ id: newId(), club_id: ctx.clubId, event_id: eventId, ...ticketValues(p), is_active: true, sort_order: sort, created_at: now, updated_at: now });
}

/** The club's events, latest start first, with their computed figures (EventAdminItem). */
export const listEvents = verb("events:view", async function listEvents(ctx: Ctx, _input: Record<string, never> = {}): Promise<EventAdminItem[]> {
  const rows = await ctx.db.read.select().from(events).where(eq(events.club_id, ctx.clubId)).orderBy(desc(events.starts_at), desc(events.id));
  const club = await clubSettings(ctx.db.read, ctx.clubId);
  const figures = await eventFigures(
    ctx.db.read,
    ctx.clubId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toItem(r, figures.get(r.id)!, ctx.baseUrl, club.slug));
});

/** One event with its tickets (EventAdminDetail). 404 for an id of another club. */
export const getEvent = verb("events:view", async function getEvent(ctx: Ctx, input: { event_id: string }): Promise<EventAdminDetail> {
  const row = await getEventOrThrow(ctx.db.read, ctx.clubId, input.event_id);
  return loadDetail(ctx.db.read, ctx.clubId, ctx.baseUrl, row);
});

/** Creates a `published` event and its tickets; slug from the title, currency the club's. 422 on date order, a date outside the years 0001..9999 (UTC), or a `tier_prices` key that is not a tier of the club. */
export const createEvent = verb("events:edit", function createEvent(ctx: Ctx, input: EventCreate) {
  return insertEvent(ctx, input, "published");
});

/**
 * Creates an event as a draft (the dashboard's form without "publish"): a draft from its first
 * moment, so no public page, listing or `event.created` ever shows it published. The API creates
 * events published (DESIGN.md section 8), then moves them.
 */
export const createDraftEvent = verb("events:edit", function createDraftEvent(ctx: Ctx, input: EventCreate) {
  return insertEvent(ctx, input, "draft");
});

async function insertEvent(ctx: Ctx, input: EventCreate, status: "published" | "draft"): Promise<EventAdminDetail> {
  const v = utcDates(input, DATES);
  checkDates(v);
  return ctx.db.tx(async (t) => {
    await checkTicketTiers(t, ctx.clubId, v.tickets ?? []);
    const club = await clubSettings(t, ctx.clubId);
    const now = nowIso();
    const [row] = await t
      .insert(events)
      .values({
        id: newId(),
        club_id: ctx.clubId,
        title: v.title,
        slug: await freeEventSlug(t, ctx.clubId, v.title),
        description: v.description ?? null,
        location_name: v.location_name ?? null,
        location_address: v.location_address ?? null,
        starts_at: v.starts_at,
        ends_at: v.ends_at ?? null,
        registration_opens_at: v.registration_opens_at ?? null,
        registration_closes_at: v.registration_closes_at ?? null,
        capacity: v.capacity ?? null,
        listed: v.listed ?? true,
        access: v.access ?? "public",
        status,
        currency: club.currency,
        show_attendees: v.show_attendees ?? true,
        attendees_min: v.attendees_min ?? 3,
        attendees_nominative: v.attendees_nominative ?? false,
        custom_fields_schema: v.custom_fields_schema ?? [],
        waitlist_enabled: v.waitlist_enabled ?? false,
        max_per_email: v.max_per_email ?? 1,
        created_at: now,
        updated_at: now,
      })
      .returning();
    for (const [i, p] of (v.tickets ?? []).entries()) await insertTicket(t, ctx, row.id, p, i, now);
    const detail = await loadDetail(t, ctx.clubId, ctx.baseUrl, row);
    await emit(ctx.db, t, ctx.clubId, "event.created", () => detail);
    return detail;
  });
}

const NULLABLE = new Set([
  "description",
  "location_name",
  "location_address",
  "ends_at",
  "registration_opens_at",
  "registration_closes_at",
  "capacity",
  "story_text",
]);
const DATES = ["starts_at", "ends_at", "registration_opens_at", "registration_closes_at"] as const;

/**
 * Applies an EventUpdate: only fields sent change; null clears an optional field and leaves a
 * required one. `tickets` is the full list, reconciled by id. Moving to `cancelled` queues a mail
 * to every confirmed and pending registrant, in the club's language; a change of capacity or
 * tickets moves up the waiting list's registrations that now fit. 409 on a cancelled event, a
 * status move DESIGN.md section 8 forbids, or a slug taken in the club; 422 on date order or a
 * date outside the years 0001..9999 (UTC).
 */
export const updateEvent = verb("events:edit", async function updateEvent(ctx: Ctx, input: EventUpdate & { event_id: string }): Promise<EventAdminDetail> {
  const { event_id, tickets, ...sent } = input;
  const fields = utcDates(sent, DATES);
  return ctx.db.tx(async (t) => {
    const current = await getEventOrThrow(t, ctx.clubId, event_id);
    if (current.status === "cancelled") throw new Conflict("EVENT_CANCELLED");
    const set: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(fields)) {
      if (raw === undefined || (raw === null && !NULLABLE.has(name))) continue;
      set[name] = raw;
    }
    if (set.status !== undefined && set.status !== current.status && !TRANSITIONS[current.status]?.includes(set.status as string)) {
      throw new Conflict("EVENT_STATUS_TRANSITION", { from: current.status, to: String(set.status) });
    }
    const merged = { ...current, ...set } as EventRow;
    checkDates(merged);
    if (typeof set.slug === "string" && set.slug !== current.slug && (await slugTaken(t, ctx.clubId, set.slug, current.id))) {
      throw new Conflict("EVENT_SLUG_TAKEN", { slug: set.slug });
    }
    const now = nowIso();
    if (tickets) await reconcileTickets(t, ctx, current.id, tickets, now);
    let row = current;
    if (Object.keys(set).length || tickets) {
      [row] = await t
        .update(events)
        .set({ ...(set as Partial<EventRow>), updated_at: now })
        .where(and(eq(events.id, current.id), eq(events.club_id, ctx.clubId)))
        .returning();
    }
    if (row.status === "cancelled") {
      await mailCancellation(t, ctx, row);
      await cancelRegistrationInvoices(t, ctx, ctx.clubId, { eventId: row.id });
    } else if (set.capacity !== undefined || tickets) await fillFromWaitlist(t, { db: ctx.db, event: row, baseUrl: ctx.baseUrl, now });
    const detail = await loadDetail(t, ctx.clubId, ctx.baseUrl, row);
    if (row !== current) await emit(ctx.db, t, ctx.clubId, row.status === "cancelled" ? "event.cancelled" : "event.updated", () => detail);
    return detail;
  });
});

/** The event was just cancelled: every confirmed and pending registrant with an address is mailed. */
async function mailCancellation(t: Queryable, ctx: Ctx, event: EventRow) {
  const club = await clubSettings(t, ctx.clubId);
  const rows = await t
    .select({ r: eventRegistrations, ticket_name: eventTickets.name })
    .from(eventRegistrations)
    .innerJoin(eventTickets, eq(eventTickets.id, eventRegistrations.ticket_id))
    .where(and(eq(eventRegistrations.event_id, event.id), inArray(eventRegistrations.status, ["confirmed", "pending"])))
    .orderBy(asc(eventRegistrations.created_at), asc(eventRegistrations.id));
  for (const { r, ticket_name } of rows) {
    await queueRegistrantMail(t, { club, baseUrl: ctx.baseUrl, event, ticketName: ticket_name, reg: r, kind: "cancelled" });
  }
}

/**
 * Deletes an event nobody registered to (in any status), with its tickets, its own promo codes
 * and the door's scans. 409 EVENT_HAS_REGISTRATIONS otherwise: cancel it instead (the
 * registrations, their payments and the stats stay true). 404 for an id of another club.
 */
export const deleteEvent = verb("events:edit", async function deleteEvent(ctx: Ctx, input: { event_id: string }): Promise<void> {
  await ctx.db.tx(async (t) => {
    const event = await getEventOrThrow(t, ctx.clubId, input.event_id);
    const [registered] = await t.select({ id: eventRegistrations.id }).from(eventRegistrations).where(eq(eventRegistrations.event_id, event.id)).limit(1);
    if (registered) throw new Conflict("EVENT_HAS_REGISTRATIONS");
    await t.delete(checkIns).where(eq(checkIns.event_id, event.id));
    // A code tied to this event was usable only here, so nobody redeemed it: it goes with the event.
    await t.delete(promoCodes).where(and(eq(promoCodes.club_id, ctx.clubId), eq(promoCodes.event_id, event.id)));
    await t.delete(eventTickets).where(eq(eventTickets.event_id, event.id));
    await t.delete(events).where(and(eq(events.id, event.id), eq(events.club_id, ctx.clubId)));
  });
});

/** 422 unless every key of every ticket's `tier_prices` is a tier of the club (loc names the ticket and the key). */
async function checkTicketTiers(t: Queryable, clubId: string, tickets: TicketPayload[]) {
  const refs = tickets.flatMap((p, i) => Object.keys(p.tier_prices ?? {}).map((id) => ({ id, loc: ["body", "tickets", i, "tier_prices", id] })));
  const foreign = await foreignTierItems(t, clubId, refs);
  if (foreign.length) throw new ValidationFailed(foreign);
}

/**
 * `tickets` of an update: with an id, the ticket is changed (and active again); without, added;
 * an existing ticket left out is deactivated if a registration points at it, else deleted.
 * An id that is not one of this event's tickets is a 422.
 */
async function reconcileTickets(t: Queryable, ctx: Ctx, eventId: string, wanted: TicketPayload[], now: string) {
  const existing = new Map<string, TicketRow>((await ticketsOf(t, eventId)).map((r) => [r.id, r]));
  const unknown: Invalid[] = wanted.flatMap((p, i) =>
    p.id && !existing.has(p.id) ? [{ loc: ["body", "tickets", i, "id"], code: "TICKET_NOT_FOUND" as const }] : [],
  );
  if (unknown.length) throw new ValidationFailed(unknown);
  await checkTicketTiers(t, ctx.clubId, wanted);
  const kept = new Set<string>();
  for (const [i, p] of wanted.entries()) {
    if (p.id) {
      kept.add(p.id);
      await t
        .update(eventTickets)
        .set({ ...ticketValues(p), is_active: true, sort_order: i, updated_at: now })
        .where(eq(eventTickets.id, p.id));
    } else {
      await insertTicket(t, ctx, eventId, p, i, now);
    }
  }
  const gone = [...existing.keys()].filter((id) => !kept.has(id));
  if (!gone.length) return;
  const used = new Set(
    (await t.selectDistinct({ ticket_id: eventRegistrations.ticket_id }).from(eventRegistrations).where(inArray(eventRegistrations.ticket_id, gone))).map(
      (r) => r.ticket_id,
    ),
  );
  const deactivate = gone.filter((id) => used.has(id));
  const remove = gone.filter((id) => !used.has(id));
  if (deactivate.length) await t.update(eventTickets).set({ is_active: false, updated_at: now }).where(inArray(eventTickets.id, deactivate));
  if (remove.length) await t.delete(eventTickets).where(inArray(eventTickets.id, remove));
}

/** Every registration of the event (all statuses), oldest first (EventRegistrationItem). */
export const listEventRegistrations = verb("events:view", async function listEventRegistrations(ctx: Ctx, input: { event_id: string }): Promise<
  EventRegistrationItem[]
> {
  const event = await getEventOrThrow(ctx.db.read, ctx.clubId, input.event_id);
  const rows = await ctx.db.read
    .select({ r: eventRegistrations, ticket_name: eventTickets.name })
    .from(eventRegistrations)
    .innerJoin(eventTickets, eq(eventTickets.id, eventRegistrations.ticket_id))
    .where(and(eq(eventRegistrations.event_id, event.id), eq(eventRegistrations.club_id, ctx.clubId)))
    .orderBy(asc(eventRegistrations.created_at), asc(eventRegistrations.id));
  const paid = new Set(
    (
      await ctx.db.read
        .selectDistinct({ id: payments.registration_id })
        .from(payments)
        .innerJoin(eventRegistrations, eq(eventRegistrations.id, payments.registration_id))
        .where(and(eq(payments.club_id, ctx.clubId), eq(eventRegistrations.event_id, event.id)))
    ).map((p) => p.id),
  );
  return rows.map(({ r, ticket_name }) => registrationItem(r, ticket_name, paid.has(r.id)));
});
