// The end of an unpaid registration's hold (issue 18; the hold itself: lib/events/hold.ts): the
// job due at `hold_expires_at` cancels the registration if it is still `pending`, gives back its
// promo code's use, mails the registrant, and moves the waiting list up into the freed place, all
// in one transaction: the place is freed and refilled at once, or not at all.
import { and, eq } from "drizzle-orm";
import { eventRegistrations, events, eventTickets } from "../../db/schema";
import { clubSettings } from "../clubs/internal";
import { PENDING_EXPIRY_JOB, scheduleHoldExpiry } from "../events/hold";
import { registrationItem } from "../events/internal";
import { queueRegistrantMail } from "../events/mails";
import { fillFromWaitlist } from "../events/waitlist";
import { cancelRegistrationInvoices } from "../invoices/pay";
import type { JobKind, JobKinds } from "../jobs";
import { releaseEventPromo } from "../promo";
import { emit } from "../webhooks/emit";

/** What a cancellation for an unpaid hold stores as its reason. */
export const HOLD_EXPIRED_REASON = "hold_expired";

/**
 * Ends the hold of the registration named by the job, at `env.now`: nothing when it was paid,
 * cancelled or erased meanwhile, or when its event is cancelled (those registrants were told);
 * a hold moved later is looked at again then. A registrant whose event has begun is not mailed.
 */
export const expireHoldJob: JobKind = {
  run: (db, job, env) =>
    db.tx(async (t) => {
      const now = env.now.toISOString();
      const [row] = await t
        .select({ r: eventRegistrations, event: events, ticketName: eventTickets.name })
        .from(eventRegistrations)
        .innerJoin(events, eq(events.id, eventRegistrations.event_id))
        .innerJoin(eventTickets, eq(eventTickets.id, eventRegistrations.ticket_id))
        .where(and(eq(eventRegistrations.id, String(job.payload.registration_id)), eq(eventRegistrations.club_id, job.club_id)))
        .limit(1);
      if (row?.r.status !== "pending" || !row.r.hold_expires_at) return "not pending";
      if (row.event.status === "cancelled") return "event cancelled";
      if (row.r.hold_expires_at > now) {
        await scheduleHoldExpiry(t, row.r, row.r.hold_expires_at);
        return `held until ${row.r.hold_expires_at}`;
      }
      const [cancelled] = await t
        .update(eventRegistrations)
        .set({ status: "cancelled", cancelled_at: now, cancel_reason: HOLD_EXPIRED_REASON, updated_at: now })
        .where(and(eq(eventRegistrations.id, row.r.id), eq(eventRegistrations.status, "pending")))
        .returning();
      await releaseEventPromo(t, { clubId: row.r.club_id, registrationId: row.r.id, now });
      await cancelRegistrationInvoices(t, { db, baseUrl: env.config.baseUrl }, row.r.club_id, { registrationId: row.r.id });
      if (now < row.event.starts_at) {
        const club = await clubSettings(t, row.r.club_id);
        await queueRegistrantMail(t, { club, baseUrl: env.config.baseUrl, event: row.event, ticketName: row.ticketName, reg: cancelled, kind: "expired" });
      }
      await emit(db, t, row.r.club_id, "registration.cancelled", () => ({ event_id: row.event.id, ...registrationItem(cancelled, row.ticketName, false) }));
      const promoted = await fillFromWaitlist(t, { db, event: row.event, baseUrl: env.config.baseUrl, preferTicketId: row.r.ticket_id, now });
      return `expired; ${promoted.length} moved up`;
    }),
};

export const REGISTRATION_JOBS: JobKinds = { [PENDING_EXPIRY_JOB]: expireHoldJob };
