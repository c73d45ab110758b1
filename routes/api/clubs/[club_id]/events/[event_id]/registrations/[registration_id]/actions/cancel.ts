// POST /api/clubs/[club_id]/events/[event_id]/registrations/[registration_id]/actions/cancel — cancel, optionally refund; the place goes to the waiting list
import { EventRegistrationItem, RegistrationCancel, RegistrationIdParams } from "../../../../../../../../../lib/events/schemas";
import { cancelRegistration } from "../../../../../../../../../lib/registrations/admin";
import { route } from "../../../../../../../../../server/route";

export const POST = route({
  summary: "Cancel a registration",
  operationId: "cancelRegistration",
  description:
    "A confirmed, pending or waitlisted registration becomes `cancelled` (checked in or already cancelled: 409). `refund_cents` (needs `finances:edit` too) records a negative payment, at most what was paid. The freed place goes to the oldest waitlisted registration that fits, who is mailed.",
  tags: ["events"],
  scope: cancelRegistration.scope,
  params: RegistrationIdParams,
  body: RegistrationCancel,
  response: EventRegistrationItem,
  errors: [409],
  handler: ({ ctx, params, body }) => cancelRegistration(ctx, { ...body, event_id: params.event_id, registration_id: params.registration_id }),
});
