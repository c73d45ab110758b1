// POST /api/clubs/[club_id]/events/[event_id]/checkin — check a scanned ticket or member card in
import { checkinEvent } from "../../../../../../lib/events";
import { CheckinPayload, CheckinResult, EventIdParams } from "../../../../../../lib/events/schemas";
import { route } from "../../../../../../server/route";

export const POST = route({
  summary: "Check in at an event",
  description:
    "`code` is a ticket `qr_token` or the card code (`referral_code`) of a member registered to the event. The verdict is `valid` (first scan), `already` (with the first `checked_in_at`) or `not_registered`. Send a `nonce` per scan: a retry with it gets the same answer and checks in once. Every scan is recorded.",
  tags: ["events"],
  stable: true,
  scope: checkinEvent.scope,
  params: EventIdParams,
  body: CheckinPayload,
  response: CheckinResult,
  errors: [409],
  handler: ({ ctx, params, body }) => checkinEvent(ctx, { ...body, event_id: params.event_id }),
});
