// POST /m/[manage_token]/erasure-request — Ask to be erased (form) (an HTML form of the member's page; answers a redirect back to it)
import { memberPageForm } from "../../../server/member-page-routes";

export const POST = memberPageForm("Ask to be erased (form)", "erasure");
