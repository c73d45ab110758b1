// Registration to an event by the public (outside the stable subset, DESIGN.md section 8): the
// price, capacity and promo rules checked in one transaction, and the registration's .ics file.
// Its own area, above events and promo codes (a registration redeems a code; a code checks its
// event), where part two's registrations by the admin, confirmation, cancellation and waiting
// list will live too.
import { and, eq } from "drizzle-orm";
import { eventRegistrations, events, eventTickets } from "../../db/schema";
import { clubSettings } from "../clubs/internal";
import type { PublicCtx } from "../context";
import { Conflict, Forbidden, inClubLanguage, NotFound, ValidationFailed } from "../errors";
import { availability, eventPlacesHeld, publicUrl, registrationItem } from "../events/internal";
import { emit } from "../webhooks/emit";
import type { PublicRegistration, PublicRegistrationCreate } from "../events/schemas";
import type { Locale } from "../i18n";
import { newId, randomBase62 } from "../ids";
import { findMemberByCode } from "../members/by-code";
import { derivedStatus, todayUtc } from "../members/status";
import { redeemEventPromo } from "../promo";
import type { FileReply } from "../reply";

/**
 * Registers someone to a published event. Inside one transaction (transactions run one at a
 * time), so the places counted are the places left: no overbooking under concurrent requests.
 * Price: a member (valid `member_code` of an active member) pays tier_prices[tier] or
 * member_price_cents; anyone else non_member_price_cents (null: members only, 403). A promo code
 * takes its discount and is redeemed in the same transaction. Free: `confirmed`; otherwise
 * `pending` (awaiting payment: no payment provider is connected yet).
 * 404 unknown or draft event, unknown ticket; 409 cancelled event, outside the registration
 * window, full, sold out, inactive ticket, inactive membership, promo refused; 403 members only;
 * 422 unknown member code.
 */
export async function registerForEvent(ctx: PublicCtx, eventId: string, input: PublicRegistrationCreate, nowDate = new Date()): Promise<PublicRegistration> {
  const now = nowDate.toISOString();
  let locale: Locale | undefined;
  return inClubLanguage(
    () => locale,
    () =>
      ctx.db.tx(async (t) => {
        const [event] = await t.select().from(events).where(eq(events.id, eventId)).limit(1);
        if (!event || event.status === "draft") throw new NotFound("EVENT_NOT_FOUND");
        locale = (await clubSettings(t, event.club_id)).locale;
        if (event.status === "cancelled") throw new Conflict("EVENT_CANCELLED");
        if (event.registration_opens_at && now < event.registration_opens_at) throw new Conflict("REGISTRATION_NOT_OPEN", { at: event.registration_opens_at });
        if ((event.registration_closes_at && now >= event.registration_closes_at) || now >= (event.ends_at ?? event.starts_at))
          throw new Conflict("REGISTRATION_CLOSED");
        const [ticket] = await t
          .select()
          .from(eventTickets)
          .where(and(eq(eventTickets.id, input.ticket_id), eq(eventTickets.event_id, event.id)))
          .limit(1);
        if (!ticket) throw new NotFound("TICKET_NOT_FOUND");
        if (!ticket.is_active) throw new Conflict("TICKET_INACTIVE");

        const member = input.member_code ? await findMemberByCode(t, event.club_id, input.member_code) : null;
        if (input.member_code && !member) throw new ValidationFailed([{ loc: ["body", "member_code"], code: "MEMBER_CODE_UNKNOWN" }]);
        if (member && derivedStatus(member, todayUtc(nowDate)) !== "active") throw new Conflict("MEMBERSHIP_NOT_ACTIVE");
        if (event.access === "members" && !member) throw new Forbidden("EVENT_MEMBERS_ONLY");
        let price: number;
        if (member) price = (member.tier_id ? ticket.tier_prices?.[member.tier_id] : undefined) ?? ticket.member_price_cents;
        else if (ticket.non_member_price_cents === null) throw new Forbidden("TICKET_MEMBERS_ONLY");
        else price = ticket.non_member_price_cents;

        const left = availability(event, await eventPlacesHeld(t, event.id), ticket);
        if (left.full) throw new Conflict("EVENT_FULL");
        if (left.ticket_sold_out) throw new Conflict("TICKET_SOLD_OUT");

        const promo = input.promo_code
          ? await redeemEventPromo(t, { clubId: event.club_id, eventId: event.id, currency: event.currency, code: input.promo_code, price, now: nowDate })
          : null;
        const amount = price - (promo?.discount ?? 0);
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
            is_member: !!member,
            qr_token: randomBase62(24),
            status: amount === 0 ? "confirmed" : "pending",
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
        await emit(ctx.db, event.club_id, "registration.created", () => ({ event_id: event.id, ...registrationItem(reg, ticket.name, false) }));
        return {
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
          created_at: reg.created_at,
        };
      }),
  );
}

const icsText = (s: string) => s.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
const icsTime = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");

/** RFC 5545 line folding: at most 75 octets a line, continuation lines start with a space. */
function fold(line: string): string {
  const bytes = new TextEncoder();
  const parts: string[] = [];
  let current = "";
  for (const ch of line) {
    if (bytes.encode(current + ch).length > (parts.length ? 74 : 75)) {
      parts.push(current);
      current = "";
    }
    current += ch;
  }
  parts.push(current);
  return parts.join("\r\n ");
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
  const ends = event.ends_at ?? new Date(Date.parse(event.starts_at) + 2 * 3_600_000).toISOString();
  const location = [event.location_name, event.location_address].filter(Boolean).join(", ");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//club-api//events//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${reg.id}@club-api`,
    `DTSTAMP:${icsTime(new Date().toISOString())}`,
    `DTSTART:${icsTime(event.starts_at)}`,
    `DTEND:${icsTime(ends)}`,
    `SUMMARY:${icsText(event.title)}`,
    ...(location ? [`LOCATION:${icsText(location)}`] : []),
    `DESCRIPTION:${icsText([event.description, `${club.name} — ${reg.first_name} ${reg.last_name}`].filter(Boolean).join("\n\n"))}`,
    `URL:${publicUrl(ctx.baseUrl, club.slug, event.slug)}`,
    `STATUS:${event.status === "cancelled" ? "CANCELLED" : "CONFIRMED"}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return { body: `${lines.map(fold).join("\r\n")}\r\n`, contentType: "text/calendar; charset=utf-8", filename: `${event.slug}.ics` };
}
