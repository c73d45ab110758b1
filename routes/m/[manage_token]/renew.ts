// POST /m/[manage_token]/renew — Renew from the page (form): by card on to Stripe's payment page, by bank transfer (the details mailed and shown), or with nothing to pay (an HTML form of the member's page; answers a redirect)
import { z } from "zod";
import { memberPageForm } from "../../../server/member-page-routes";

// An odd method is no method (the form of a renewal with nothing to pay), as the page's query is lenient.
export const POST = memberPageForm(
  "Renew from the page (form)",
  "renew",
  z.object({ payment_method: z.enum(["stripe", "bank_transfer"]).optional().catch(undefined) }),
);
