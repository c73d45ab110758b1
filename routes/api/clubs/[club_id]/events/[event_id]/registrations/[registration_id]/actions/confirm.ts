// POST /api/clubs/[club_id]/events/[event_id]/registrations/[registration_id]/actions/confirm — pending -> confirmed, with the payment received
import { EventRegistrationItem, RegistrationConfirm, RegistrationIdParams } from "../../../../../../../../../lib/events/schemas";
import { confirmRegistration } from "../../../../../../../../../lib/registrations/admin";
import { route } from "../../../../../../../../../server/route";

export const POST = route({
  summary: "Confirm a registration",
  operationId: "confirmRegistration",
  description:
    "A pending registration (awaiting payment) becomes `confirmed`, and the payment is recorded: `amount_cents` (default: the registration's amount; 0 records none) by `payment_method` (default `bank_transfer`). Any other status: 409 `REGISTRATION_NOT_PENDING`.",
  tags: ["events"],
  scope: confirmRegistration.scope,
  params: RegistrationIdParams,
  body: RegistrationConfirm,
  response: EventRegistrationItem,
  errors: [409],
  handler: ({ ctx, params, body }) => confirmRegistration(ctx, { ...body, event_id: params.event_id, registration_id: params.registration_id }),
});
