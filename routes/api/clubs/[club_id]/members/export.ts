// GET /api/clubs/[club_id]/members/export — the members as a CSV (default) or PDF file
import { exportMembers } from "../../../../../lib/members/export";
import { MemberExportQuery } from "../../../../../lib/members/schemas";
import { route } from "../../../../../server/route";

export const GET = route({
  summary: "Export members (CSV or PDF)",
  description:
    "CSV (default): UTF-8 with a byte-order mark; columns id, referral_code, pass_serial_number, first_name, last_name, email, membership_start, membership_end, payment_status, payment_method, created_at, then the club's custom fields (by `key`). Cells starting with = + - @ are escaped. `format=pdf`: an A4 roster sorted by last then first name. `member_ids` keeps only those members.",
  tags: ["members"],
  stable: true,
  scope: exportMembers.scope,
  query: MemberExportQuery,
  raw: true,
  files: { "text/csv": "The members as CSV (default),", "application/pdf": "or as a PDF roster (`format=pdf`)." },
  handler: async ({ ctx, query }) => {
    const file = await exportMembers(ctx, query);
    return { ...file, headers: { "x-total-count": String(file.count) } };
  },
});
