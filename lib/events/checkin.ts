// Check-in at the door (SPEC rule 7, DESIGN.md section 8). One function owns every rule: the
// verdict is a value, never an exception, and every scan is stored, refused ones included.
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Queryable } from "../../db";
import { checkIns, eventRegistrations, eventTickets } from "../../db/schema";
import { verb } from "../auth/guard";
import type { Ctx } from "../context";
import { newId } from "../ids";
import { getEventOrThrow, memberByCode, type RegistrationRow } from "./internal";
import type { CheckinPayload, CheckinResult } from "./schemas";

type Verdict = CheckinResult["verdict"];

async function answer(t: Queryable, verdict: Verdict, reg: RegistrationRow | null): Promise<CheckinResult> {
  if (!reg || verdict === "not_registered") return { verdict: "not_registered", checked_in_at: null, registration: null };
  const [ticket] = await t.select({ name: eventTickets.name }).from(eventTickets).where(eq(eventTickets.id, reg.ticket_id)).limit(1);
  return {
    verdict,
    checked_in_at: reg.checked_in_at,
    registration: { id: reg.id, first_name: reg.first_name, last_name: reg.last_name, ticket_name: ticket?.name ?? "" },
  };
}

/** The registration a code names at this event: a ticket's qr_token, else a member's card code. */
async function findRegistration(t: Queryable, ctx: Ctx, eventId: string, code: string): Promise<RegistrationRow | null> {
  const [byToken] = await t
    .select()
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.qr_token, code), eq(eventRegistrations.event_id, eventId), eq(eventRegistrations.club_id, ctx.clubId)))
    .limit(1);
  if (byToken) return byToken;
  const member = await memberByCode(t, ctx.clubId, code);
  if (!member) return null;
  // A member with several registrations: the first not yet checked in, else the first one.
  const regs = await t
    .select()
    .from(eventRegistrations)
    .where(and(eq(eventRegistrations.event_id, eventId), eq(eventRegistrations.member_id, member.id), inArray(eventRegistrations.status, ["confirmed"])))
    .orderBy(asc(eventRegistrations.created_at));
  return regs.find((r) => r.checked_in_at === null) ?? regs[0] ?? null;
}

/**
 * Checks a scanned code in. `valid` for the first scan of a confirmed registration, `already`
 * after (with the first `checked_in_at`), `not_registered` when the code matches nothing at this
 * event or a registration that is cancelled or awaiting payment. The read and the write share one
 * transaction, and transactions run one at a time: N simultaneous scans give one `valid`. A scan
 * repeated with the same `nonce` gets the stored answer and writes nothing. 404 for another
 * club's event.
 */
export const checkinEvent = verb("access_control:edit", async (ctx: Ctx, input: CheckinPayload & { event_id: string }): Promise<CheckinResult> => {
  const now = new Date().toISOString();
  return ctx.db.tx(async (t) => {
    const event = await getEventOrThrow(t, ctx.clubId, input.event_id);
    if (input.nonce) {
      const [seen] = await t
        .select()
        .from(checkIns)
        .where(and(eq(checkIns.event_id, event.id), eq(checkIns.nonce, input.nonce)))
        .limit(1);
      if (seen) {
        const [reg] = seen.registration_id ? await t.select().from(eventRegistrations).where(eq(eventRegistrations.id, seen.registration_id)).limit(1) : [];
        return answer(t, seen.verdict as Verdict, reg ?? null);
      }
    }
    let reg = await findRegistration(t, ctx, event.id, input.code);
    let verdict: Verdict;
    if (reg?.status !== "confirmed") verdict = "not_registered";
    else if (reg.checked_in_at) verdict = "already";
    else {
      verdict = "valid";
      [reg] = await t
        .update(eventRegistrations)
        .set({ checked_in_at: now, updated_at: now })
        .where(and(eq(eventRegistrations.id, reg.id), isNull(eventRegistrations.checked_in_at)))
        .returning();
    }
    await t.insert(checkIns).values({
      id: newId(),
      club_id: ctx.clubId,
      event_id: event.id,
      registration_id: reg?.id ?? null,
      code: input.code.slice(0, 200),
      verdict,
      nonce: input.nonce ?? null,
      admin_id: ctx.actor.adminId,
      key_prefix: ctx.actor.keyPrefix,
      created_at: now,
    });
    return answer(t, verdict, reg ?? null);
  });
});
