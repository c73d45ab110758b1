// Check-in at the door (SPEC rule 7, DESIGN.md section 8). One function owns every rule: the
// verdict is a value, never an exception, and every scan is stored, refused ones included.
import { and, asc, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import { type Db, isUniqueViolation, type Queryable } from "../../db";
import { checkIns, eventRegistrations, eventTickets, events, webhookEndpoints } from "../../db/schema";
import { verb } from "../context";
import type { Ctx } from "../context";
import { Conflict, NotFound } from "../errors";
import { newId } from "../ids";
import { findMemberByCode } from "../members/by-code";
import type { RegistrationRow } from "./internal";
import { emit } from "../webhooks/emit";
import type { CheckinPayload, CheckinResult } from "./schemas";

type Verdict = CheckinResult["verdict"];

/**
 * The statements of a scan at the door, prepared once (Db.prepareTx): 64 phones
 * scanning at once spent most of their time building these queries, not running them.
 */
function statements(db: Db) {
  const p = (name: string) => sql.placeholder(name);
  return {
    // The event, the registration whose ticket carries the code (none: null), that ticket's name
    // and the club's enabled webhook endpoints counted, in one statement: a scan's reads are one
    // round trip on PostgreSQL, not three, and a club without webhooks reads no endpoints.
    scan: db.prepareTx("events.checkin.scan", (q) =>
      q
        .select({
          id: events.id,
          status: events.status,
          reg: getTableColumns(eventRegistrations),
          ticket: eventTickets.name,
          hooks: sql<number>`(select count(*) from ${webhookEndpoints} where ${and(eq(webhookEndpoints.club_id, events.club_id), eq(webhookEndpoints.enabled, true))})`,
        })
        .from(events)
        .leftJoin(
          eventRegistrations,
          and(eq(eventRegistrations.event_id, events.id), eq(eventRegistrations.qr_token, p("code")), eq(eventRegistrations.club_id, events.club_id)),
        )
        .leftJoin(eventTickets, eq(eventTickets.id, eventRegistrations.ticket_id))
        .where(and(eq(events.id, p("event")), eq(events.club_id, p("club"))))
        .limit(1),
    ),
    checkIn: db.prepareTx("events.checkin.update", (q) =>
      q
        .update(eventRegistrations)
        .set({ checked_in_at: sql`${p("now")}`, updated_at: sql`${p("now")}` })
        .where(and(eq(eventRegistrations.id, p("id")), isNull(eventRegistrations.checked_in_at)))
        .returning(),
    ),
    insertScan: db.prepareTx("events.checkin.insert", (q) =>
      q.insert(checkIns).values({
        id: p("id"),
        club_id: p("club"),
        event_id: p("event"),
        registration_id: p("registration"),
        code: p("code"),
        verdict: p("verdict"),
        nonce: p("nonce"),
        admin_id: p("admin"),
        key_prefix: p("prefix"),
        created_at: p("now"),
      }),
    ),
    ticketName: db.prepareTx("events.checkin.ticket", (q) =>
      q
        .select({ name: eventTickets.name })
        .from(eventTickets)
        .where(eq(eventTickets.id, p("id")))
        .limit(1),
    ),
  };
}

/** The answer to a scan; `ticket`: the ticket's name when the caller has it already. */
async function answer(
  t: Queryable,
  q: ReturnType<typeof statements>,
  verdict: Verdict,
  reg: RegistrationRow | null,
  ticket?: string | null,
): Promise<CheckinResult> {
  if (!reg || verdict === "not_registered") return { verdict: "not_registered", checked_in_at: null, registration: null };
  const name = ticket === undefined ? (await q.ticketName(t).execute({ id: reg.ticket_id }))[0]?.name : ticket;
  return {
    verdict,
    checked_in_at: reg.checked_in_at,
    registration: { id: reg.id, first_name: reg.first_name, last_name: reg.last_name, ticket_name: name ?? "" },
  };
}

/** The registration a member's card code names at this event (a ticket's code was looked up with the event). */
async function findByMemberCode(t: Queryable, ctx: Ctx, eventId: string, code: string): Promise<RegistrationRow | null> {
  const member = await findMemberByCode(t, ctx.clubId, code);
  if (!member) return null;
  // A member with several registrations: the first not yet checked in, else the first one.
  const regs = await t
    .select()
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, eventId), eq(eventRegistrations.member_id, member.id), inArray(eventRegistrations.status, ["confirmed"])))
    .orderBy(asc(eventRegistrations.created_at), asc(eventRegistrations.id));
  return regs.find((r) => r.checked_in_at === null) ?? regs[0] ?? null;
}

type CheckinInput = CheckinPayload & { event_id: string };

/**
 * Checks a scanned code in. `valid` for the first scan of a confirmed registration, `already`
 * after (with the first `checked_in_at`), `not_registered` when the code matches nothing at this
 * event or a registration that is cancelled or awaiting payment. The read and the write share one
 * transaction, and transactions run one at a time: N simultaneous scans give one `valid`. A scan
 * repeated with the same `nonce` gets the stored answer and writes nothing. 404 for another
 * club's event; 409 EVENT_CANCELLED for a cancelled event (nothing stored).
 */
export const checkinEvent = verb("access_control:edit", async function checkinEvent(ctx: Ctx, input: CheckinInput): Promise<CheckinResult> {
  const now = new Date().toISOString();
  const q = statements(ctx.db);
  const scan = () =>
    ctx.db.tx(async (t) => {
      const [event] = await q.scan(t).execute({ event: input.event_id, club: ctx.clubId, code: input.code });
      if (!event) throw new NotFound("EVENT_NOT_FOUND");
      if (input.nonce) {
        const [seen] = await t
          .select()
          .from(checkIns)
          .where(and(eq(checkIns.event_id, event.id), eq(checkIns.nonce, input.nonce)))
          .limit(1);
        if (seen) {
          const [reg] = seen.registration_id ? await t.select().from(eventRegistrations).where(eq(eventRegistrations.id, seen.registration_id)).limit(1) : [];
          return answer(t, q, seen.verdict as Verdict, reg ?? null);
        }
      }
      // After the nonce: a retry gets the answer already given. A cancelled event refuses changes
      // (DESIGN.md section 8) and a check-in is one; no verdict fits, so nothing is stored.
      if (event.status === "cancelled") throw new Conflict("EVENT_CANCELLED");
      // By a ticket's code, read with the event (and its ticket's name), else by a member's card.
      const byTicket = event.reg;
      let reg = byTicket ?? (await findByMemberCode(t, ctx, event.id, input.code));
      const ticket = byTicket ? event.ticket : undefined;
      let verdict: Verdict;
      if (reg?.status !== "confirmed") verdict = "not_registered";
      else if (reg.checked_in_at) verdict = "already";
      else {
        // A conditional write: of scans racing for the same registration (other connections or
        // processes), one sets checked_in_at; the others find it set and answer `already`.
        const [won] = await q.checkIn(t).execute({ now, id: reg.id });
        if (won) {
          verdict = "valid";
          reg = won;
        } else {
          verdict = "already";
          [reg] = await t.select().from(eventRegistrations).where(eq(eventRegistrations.id, reg.id)).limit(1);
        }
      }
      await q.insertScan(t).execute({
        id: newId(),
        club: ctx.clubId,
        event: event.id,
        registration: reg?.id ?? null,
        code: input.code.slice(0, 200),
        verdict,
        nonce: input.nonce ?? null,
        admin: ctx.actor.adminId,
        prefix: ctx.actor.keyPrefix,
        now,
      });
      const result = await answer(t, q, verdict, reg ?? null, ticket);
      // Only a check-in is an event for other systems; a refused or repeated scan changes nothing.
      if (verdict === "valid" && Number(event.hooks) > 0) await emit(ctx.db, t, ctx.clubId, "checkin.created", () => ({ event_id: event.id, ...result }));
      return result;
    });
  try {
    return await scan();
  } catch (err) {
    // The same nonce sent twice at once from two connections: the unique key (event, nonce)
    // refused the second scan's row. Run again, it finds the first one's and answers as it did.
    if (input.nonce && isUniqueViolation(err)) return await scan();
    throw err;
  }
});
