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

// A ticket's scan on PostgreSQL in one statement, its own transaction (durable when it answers):
// the reads, the conditional write and the scan row of `checkinEvent` below, the same rules, one
// round trip instead of four (BEGIN with the read, the write, the row, COMMIT). It decides only
// the common cases, and writes nothing in the others, which the transaction below then takes
// whole: no registration by that ticket code (a member's card, an unknown code), a cancelled or
// missing event, a nonce already stored, a valid scan in a club with webhooks (the delivery is
// written in the scan's transaction), and a scan that lost the race for the registration (the
// statement's snapshot cannot see the winner's `checked_in_at`; the transaction reads it anew).
// The conditional update is the rule as below: of scans racing from any process, the row lock
// lets one set `checked_in_at`, the others find it set on the row's newest version and write
// nothing. A nonce stored meanwhile by another connection fails the whole statement on the
// unique key (event, nonce), the update undone with it, and the caller's retry answers as stored.
// $1 event, $2 club, $3 code, $4 now, $5 the scan's id, $6 admin, $7 key prefix, $8 nonce.
// `late`: the statement commits without waiting for the disk (Db.lateCommit: a commit that waits follows it before the answer).
const scanAtOnceSql = (late: boolean) => `WITH ${late ? "late AS (SELECT set_config('synchronous_commit', 'off', true))," : ""}
ev AS (
  SELECT e.id, e.status,
    (SELECT count(*) FROM webhook_endpoints w WHERE w.club_id = e.club_id AND w.enabled) AS hooks
  FROM events e${late ? ", late" : ""} WHERE e.id = $1 AND e.club_id = $2
),
reg AS (
  SELECT r.id, r.status, r.checked_in_at, r.first_name, r.last_name, t.name AS ticket
  FROM ev JOIN event_registrations r ON r.event_id = ev.id AND r.qr_token = $3 AND r.club_id = $2
  LEFT JOIN event_tickets t ON t.id = r.ticket_id
  LIMIT 1
),
go AS (
  SELECT reg.id, ev.hooks,
    CASE WHEN reg.status <> 'confirmed' THEN 'not_registered' WHEN reg.checked_in_at IS NOT NULL THEN 'already' END AS known
  FROM ev, reg
  WHERE ev.status <> 'cancelled' AND NOT ($8::text IS NOT NULL AND EXISTS (SELECT 1 FROM check_ins c WHERE c.event_id = $1 AND c.nonce = $8))
),
won AS (
  UPDATE event_registrations r SET checked_in_at = $4, updated_at = $4
  FROM go WHERE r.id = go.id AND go.known IS NULL AND go.hooks = 0 AND r.checked_in_at IS NULL
  RETURNING r.checked_in_at
),
scan AS (
  INSERT INTO check_ins (id, club_id, event_id, registration_id, code, verdict, nonce, admin_id, key_prefix, created_at)
  SELECT $5, $2, $1, go.id, left($3, 200), coalesce(go.known, 'valid'), $8, $6, $7, $4
  FROM go WHERE go.known IS NOT NULL OR EXISTS (SELECT 1 FROM won)
  RETURNING verdict
)
SELECT reg.id, reg.first_name, reg.last_name, reg.ticket,
  coalesce((SELECT checked_in_at FROM won), reg.checked_in_at) AS checked_in_at, (SELECT verdict FROM scan) AS verdict
FROM reg`;
const SCAN_AT_ONCE = scanAtOnceSql(false);
const SCAN_AT_ONCE_LATE = scanAtOnceSql(true);

/** A scan in one statement (SCAN_AT_ONCE), or null when it wrote nothing and the transaction must decide. */
async function scanAtOnce(ctx: Ctx, input: CheckinInput, now: string): Promise<CheckinResult | null> {
  const [row] = await ctx.db.query<{
    id: string;
    first_name: string;
    last_name: string;
    ticket: string | null;
    checked_in_at: string | null;
    verdict: Verdict | null;
  }>(
    ctx.db.lateCommit ? SCAN_AT_ONCE_LATE : SCAN_AT_ONCE,
    [input.event_id, ctx.clubId, input.code, now, newId(), ctx.actor.adminId, ctx.actor.keyPrefix, input.nonce ?? null],
    ctx.db.lateCommit ? "events.checkin.at-once.late" : "events.checkin.at-once",
  );
  if (!row?.verdict) return null;
  if (row.verdict === "not_registered") return { verdict: "not_registered", checked_in_at: null, registration: null };
  return {
    verdict: row.verdict,
    checked_in_at: row.checked_in_at,
    registration: { id: row.id, first_name: row.first_name, last_name: row.last_name, ticket_name: row.ticket ?? "" },
  };
}

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
    // Inside a caller's transaction (withinTx) the scan is part of it: the transaction's path.
    return (ctx.db.engine === "postgres" && !ctx.db.within ? await scanAtOnce(ctx, input, now) : null) ?? (await scan());
  } catch (err) {
    // The same nonce sent twice at once from two connections: the unique key (event, nonce)
    // refused the second scan's row. Run again, it finds the first one's and answers as it did.
    if (input.nonce && isUniqueViolation(err)) return await scan();
    throw err;
  }
});
