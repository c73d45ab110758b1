// GET /api/clubs/[club_id]/audit-log — every request made with the club's keys, newest first
import { AuditLogList, AuditLogQuery, listAuditLog } from "../../../../lib/audit";
import { route } from "../../../../server/route";

export const GET = route({
  summary: "The audit log",
  operationId: "listAuditLog",
  description: "One row per request made with a key (HTTP or MCP), filterable by key prefix, path prefix, transport and days.",
  tags: ["audit"],
  scope: listAuditLog.scope,
  query: AuditLogQuery,
  response: AuditLogList,
  handler: ({ ctx, query }) => listAuditLog(ctx, query),
});
