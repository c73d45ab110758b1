// GET /api/clubs/[club_id]/attendance — card scans over a day, a range of days or a period
import { AttendanceQuery, AttendanceResponse, getAttendance } from "../../../../lib/attendance";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "Attendance (card scans)",
  description:
    "Give `date`, or `from`/`to` (inclusive; `from` alone runs through today), or `period` (`today`, `week` = the current ISO week Monday to Sunday, `month`, `year`); none means today. Days are UTC. Mixing them, `to` before `from`, or `to` without `from` answers 422. `total_scans` and `unique_members` count every scan of the range (unknown codes count in `total_scans` only); `scans` lists the 1000 most recent, newest first.",
  tags: ["attendance"],
  stable: true,
  scope: getAttendance.scope,
  query: AttendanceQuery,
  response: AttendanceResponse,
  handler: ({ ctx, query }) => getAttendance(ctx, query),
});
