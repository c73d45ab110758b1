// POST /m/[manage_token]/name — Correct my name (form) (an HTML form of the member's page; answers a redirect back to it)
import { z } from "zod";
import { memberPageForm } from "../../../server/member-page-routes";

export const POST = memberPageForm(
  "Correct my name (form)",
  "name",
  z.object({ first_name: z.string().max(200).optional(), last_name: z.string().max(200).optional() }),
);
