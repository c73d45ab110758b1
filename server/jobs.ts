// Every kind of background job the server's worker runs (lib/jobs), in one table: a job row whose
// kind is not here fails ("no handler for job kind ..."). An area with jobs of its own adds its
// table here.
import { CARD_JOBS } from "../lib/cards/jobs";
import type { JobKinds } from "../lib/jobs";
import { WEBHOOK_JOBS } from "../lib/webhooks/deliver";

export const JOB_KINDS: JobKinds = { ...CARD_JOBS, ...WEBHOOK_JOBS };
