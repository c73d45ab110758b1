// Every kind of background job the server's worker runs (lib/jobs), in one table: a job row whose
// kind is not here fails ("no handler for job kind ..."). An area with jobs of its own adds its
// table here; a recurring one (lib/jobs `recurringJob`) goes in RECURRING too, so the server
// starts its chain.
import { CARD_JOBS } from "../lib/cards/jobs";
import { idempotencyPurge } from "../lib/idempotency";
import { type JobKinds, jobsPurge, type Recurring } from "../lib/jobs";
import { MAIL_JOBS } from "../lib/mail";
import { MAILING_JOBS } from "../lib/mailings/send";
import { CARD_EMAIL_JOBS } from "../lib/members/card-email";
import { STRIPE_JOBS } from "../lib/stripe-events";
import { REGISTRATION_JOBS } from "../lib/registrations/expiry";
import { remindersSchedule } from "../lib/reminders";
import { dunningSchedule } from "../lib/dues/dunning";
import { INVOICE_JOBS } from "../lib/invoices/send";
import { deliveryLogPurge, WEBHOOK_JOBS } from "../lib/webhooks/deliver";
import { oauthPurge } from "../lib/oauth/grants";
import { oauthClientsPurge } from "../lib/oauth/clients";
import { ratePurge } from "../lib/ratelimit";

/** The jobs that repeat for as long as the server runs: the reminders, the dunning, and the purges that keep tables from growing for ever. */
export const RECURRING: readonly Recurring[] = [
  idempotencyPurge,
  remindersSchedule,
  dunningSchedule,
  jobsPurge,
  deliveryLogPurge,
  oauthPurge,
  oauthClientsPurge,
  ratePurge,
];

export const JOB_KINDS: JobKinds = Object.assign(
  { ...CARD_JOBS, ...MAIL_JOBS, ...INVOICE_JOBS, ...REGISTRATION_JOBS, ...WEBHOOK_JOBS, ...CARD_EMAIL_JOBS, ...STRIPE_JOBS, ...MAILING_JOBS },
  ...RECURRING.map((r) => r.kinds),
);
