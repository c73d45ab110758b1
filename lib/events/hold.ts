// How long an unpaid registration holds its place (issue 18): a `pending` registration made by
// the public (or moved up from the waiting list) gets `hold_expires_at`, the club's
// `pending_hold_hours` from now, and a job due at that time, written in the same transaction. The
// job (lib/registrations/expiry.ts) cancels it if it is still unpaid and gives the place to the
// waiting list. A job row, not a timer: it survives restarts and runs once, whichever process
// is up. With online payment (DESIGN.md section 13), a registration whose Stripe Checkout has
// started holds for PENDING_PAYMENT_MINUTES instead (`checkoutHoldUntil`), the time its payment
// page stays open.
import type { Queryable } from "../../db";
import { enqueueJob } from "../jobs";

/** The job kind that ends an unpaid registration's hold. */
export const PENDING_EXPIRY_JOB = "registration.expire";

/** When a hold of `hours` started at `now` (ISO) ends. */
export const holdUntil = (now: string, hours: number): string => new Date(Date.parse(now) + hours * 3_600_000).toISOString();

/** When the hold of a registration paid through Stripe Checkout, started at `now` (ISO), ends: PENDING_PAYMENT_MINUTES later. */
export const checkoutHoldUntil = (now: string, minutes: number): string => new Date(Date.parse(now) + minutes * 60_000).toISOString();

/** Queues, inside `t`, the end of a pending registration's hold at `at` (its `hold_expires_at`). */
export async function scheduleHoldExpiry(t: Queryable, reg: { club_id: string; id: string }, at: string): Promise<void> {
  await enqueueJob(t, { clubId: reg.club_id, kind: PENDING_EXPIRY_JOB, payload: { registration_id: reg.id }, runAfter: at });
}
