// The background jobs of the wallet cards, by kind: a pass update's fan-out and the deliveries it
// queues (an APNs push per device, a Google object or class write). The server's table
// (server/jobs) takes them in; each module here loads its wallet library only when a job runs.
import type { JobKinds } from "../jobs";
import { APPLE_PUSH, applePushJob } from "./apple/apns";
import { GOOGLE_CLASS_UPDATE, GOOGLE_OBJECT_UPDATE, googleClassJob, googleObjectJob } from "./google";
import { WALLET_PASS_UPDATE } from "../passes";
import { passUpdateJob } from "./pass-updates";
import { VOIDED_PASS_FORGET, voidedPassForgetJob } from "../passes/voided";

export const CARD_JOBS: JobKinds = {
  [WALLET_PASS_UPDATE]: passUpdateJob,
  [APPLE_PUSH]: applePushJob,
  [GOOGLE_OBJECT_UPDATE]: googleObjectJob,
  [GOOGLE_CLASS_UPDATE]: googleClassJob,
  [VOIDED_PASS_FORGET]: voidedPassForgetJob,
};
