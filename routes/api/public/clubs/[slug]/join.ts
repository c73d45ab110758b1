// POST /api/public/clubs/[slug]/join — become a member online (no credentials)
import { z } from "zod";
import { JOIN_RATE, joinClub } from "../../../../../lib/join";
import { JoinAnswer, JoinRequest } from "../../../../../lib/join/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Join a club",
  operationId: "joinClub",
  description:
    "Per the club's `membership_mode`: `open` makes a `pending` member, active once paid (at once when nothing is left to pay); `application` makes a pending member whose `application_status` is `pending_approval` until an admin approves or rejects it; `closed` answers 403 `JOIN_CLOSED`. The amount is the tier's price less a `membership` promo code and the referral reward (`referral_code`: an active member's card code, when the club's referral is on), never below 0. `payment_method`: `bank_transfer` answers the club's payout details and the member's creditor reference (RF...), also mailed in the club's language; `stripe` answers `checkout_url`, Stripe's payment page (a subscription per `subscription` and the club's settings), and the membership is active once Stripe reports the payment; 409 `PAYMENT_METHOD_UNAVAILABLE` where card payments are not configured or not enabled; 502 when Stripe fails (the pending member can pay from their page). An address that is already a member's: 409 `ALREADY_MEMBER`, nobody is created, and that member is mailed the link to their page to renew. `custom_fields` are checked against the club's definitions (422). Against bots, as the public registration: a solved `challenge` with its `nonce` (403 `CHALLENGE_*`) and the honeypot `website` left empty (403 `HONEYPOT_FILLED`). Rate-limited per client address (20 a minute).",
  tags: ["public"],
  auth: "public",
  rateLimit: JOIN_RATE,
  params: z.object({ slug: z.string().min(1).max(200) }),
  body: JoinRequest,
  status: 201,
  response: JoinAnswer,
  errors: [403, 404, 409, 502],
  handler: ({ ctx, params, body }) => joinClub(ctx, params.slug, body),
});
