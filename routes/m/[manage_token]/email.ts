// POST /m/[manage_token]/email — Change my email (form) (an HTML form of the member's page; answers a redirect back to it)
import { z } from "zod";
import { memberPageForm } from "../../../server/member-page-routes";

export const POST = memberPageForm("Change my email (form)", "email", z.object({ email: z.string().max(320) }));
