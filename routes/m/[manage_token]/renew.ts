// POST /m/[manage_token]/renew — Renew with nothing to pay (form) (an HTML form of the member's page; answers a redirect back to it)
import { memberPageForm } from "../../../server/member-page-routes";

export const POST = memberPageForm("Renew with nothing to pay (form)", "renew");
