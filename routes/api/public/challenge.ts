// GET /api/public/challenge — a proof-of-work challenge for the next public form (no credentials)
import { FORM_CHALLENGE_RATE, FormChallenge, formChallenge } from "../../../lib/forms";
import { route } from "../../../server/route";

export const GET = route({
  summary: "A challenge for a public form",
  operationId: "getFormChallenge",
  description:
    "A signed challenge, valid 10 minutes and for one form: find a `nonce` (up to 64 characters) such that SHA-256 of `challenge + nonce` (UTF-8) starts with `bits` zero bits, and send both with the form (public event registration; the join form later). `bits` is 16 by default (a fraction of a second in a phone's browser); 0 when the server runs without the check. The README has a 10-line solver for browsers. Rate-limited per client address.",
  tags: ["public"],
  auth: "public",
  rateLimit: FORM_CHALLENGE_RATE,
  response: FormChallenge,
  handler: ({ ctx }) => formChallenge(ctx),
});
