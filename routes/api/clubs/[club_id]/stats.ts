// GET /api/clubs/[club_id]/stats — member counts and revenue, this month and all time
import { ClubStats, clubStats } from "../../../../lib/stats";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "Club stats",
  operationId: "getClubStats",
  description:
    "Members by status (active, expired, pending, suspended, new this month) and revenue this month (UTC calendar month) and all time: gross, payment-provider fees, platform commission, net to the club, and the membership and event shares of gross.",
  tags: ["stats"],
  stable: true,
  scope: clubStats.scope,
  response: ClubStats,
  handler: ({ ctx }) => clubStats(ctx, {}),
});
