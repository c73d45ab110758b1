// POST /m/[manage_token]/mailings — Turn the club's mailings off or on (form) (an HTML form of the member's page; answers a redirect back to it)
import { z } from "zod";
import { memberPageForm } from "../../../server/member-page-routes";

export const POST = memberPageForm("Turn the club's mailings off or on (form)", "mailings", z.object({ enabled: z.enum(["true", "false"]) }));
