// POST /m/[manage_token]/auto-renewal — Turn my automatic renewal off or on (form) (an HTML form of the member's page; answers a redirect back to it)
import { z } from "zod";
import { memberPageForm } from "../../../server/member-page-routes";

export const POST = memberPageForm("Turn my automatic renewal off or on (form)", "auto_renewal", z.object({ enabled: z.enum(["true", "false"]) }));
