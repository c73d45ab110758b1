// POST /api/public/manage/[manage_token]/renew — how to pay my renewal
import { MEMBER_PAGE_RATE, renewMembership } from "../../../../../lib/member-page";
import { RenewAnswer, RenewRequest, ManageParams } from "../../../../../lib/member-page/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Renew my membership",
  operationId: "renewMemberPage",
  description:
    "`bank_transfer`: the club's payout details, the amount and the member's creditor reference (RF...); the treasurer records the payment. `stripe`: `checkout_url`, Stripe's payment page (automatic renewal per `subscription` and the club's settings; the membership is renewed once Stripe reports the payment); 409 where card payments are not configured or enabled; 502 when Stripe fails. Nothing to pay (a free tier, or a referral credit covering the price): renewed at once (`renewed: true`, a payment of 0 recorded), once the renewal is due (from the club's longest `renewal_reminder_days` before the end, or once no longer active; 409 `RENEWAL_NOT_DUE` before).",
  tags: ["public"],
  auth: "public",
  rateLimit: MEMBER_PAGE_RATE,
  params: ManageParams,
  body: RenewRequest,
  response: RenewAnswer,
  errors: [404, 409, 502],
  handler: ({ ctx, params, body }) => renewMembership(ctx, params.manage_token, body),
});
