// GET /api/clubs/[club_id]/members/[member_id]/data-export — everything stored about a member (GDPR art. 15/20)
import { exportMemberData } from "../../../../../../lib/members/history";
import { MemberDataExport } from "../../../../../../lib/members/schemas";
import { route } from "../../../../../../server/route";

export const GET = route({
  summary: "Export a member's data (GDPR)",
  operationId: "exportMemberData",
  description:
    "Everything stored about the member as one JSON document, for a request of access or portability (GDPR art. 15 and 20): the member, its history, payments, event registrations and card scans.",
  tags: ["members"],
  scope: exportMemberData.scope,
  response: MemberDataExport,
  handler: ({ ctx, params }) => exportMemberData(ctx, { member_id: params.member_id }),
});
