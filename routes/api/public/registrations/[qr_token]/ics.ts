// GET /api/public/registrations/[qr_token]/ics — the registration's calendar file
import { z } from "zod";
import { PUBLIC_EVENTS_RATE } from "../../../../../lib/events/public";
import { registrationIcs } from "../../../../../lib/registrations/public";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "Calendar file of a registration",
  operationId: "getRegistrationCalendar",
  description: "An iCalendar (text/calendar) file for the event of the registration whose ticket carries this `qr_token`.",
  tags: ["public"],
  auth: "public",
  rateLimit: PUBLIC_EVENTS_RATE,
  raw: true,
  files: { "text/calendar": "The event as an iCalendar file." },
  params: z.object({ qr_token: z.string().min(10).max(100) }),
  errors: [404],
  handler: ({ ctx, params }) => registrationIcs(ctx, params.qr_token),
});
