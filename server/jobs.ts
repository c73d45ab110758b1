// Every kind of background job the server's worker runs (lib/jobs), in one table: a job row whose
// kind is not here fails ("no handler for job kind ..."). An area with jobs of its own adds its
// table here.
import { CARD_JOBS } from "../lib/cards/jobs";
import { IDEMPOTENCY_JOBS } from "../lib/idempotency";
import type { JobKinds } from "../lib/jobs";
import { MAIL_JOBS } from "../lib/mail";
import { CARD_EMAIL_JOBS } from "../lib/members/card-email";
import { STRIPE_JOBS } from "../lib/stripe-events";
import { REGISTRATION_JOBS } from "../lib/registrations/expiry";
import { REMINDER_JOBS } from "../lib/reminders";
import { WEBHOOK_JOBS } from "../lib/webhooks/deliver";

export const JOB_KINDS: JobKinds = {
  ...CARD_JOBS,
  ...MAIL_JOBS,
  ...IDEMPOTENCY_JOBS,
  ...REMINDER_JOBS,
  ...REGISTRATION_JOBS,
  ...WEBHOOK_JOBS,
  ...CARD_EMAIL_JOBS,
  ...STRIPE_JOBS,
};
