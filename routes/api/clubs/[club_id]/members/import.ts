// POST /api/clubs/[club_id]/members/import — create or update members from a CSV file
import { csvFromBody, importMembers } from "../../../../../lib/members/import";
import { ImportQuery, ImportResult } from "../../../../../lib/members/schemas";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Import members from a CSV file",
  description:
    "Body: the CSV as `text/csv`, or a multipart form with the file in `file`. Columns: the export's own, or common headings (first name / prénom / Vorname / nome, last name / nom / Nachname / cognome, email / e-mail / courriel, membership_end / fin abonnement / Mitgliedschaftsende / scadenza ...). Members are matched by email: created, updated, or skipped when unchanged. All or nothing: one faulty line and nothing is written, unless `partial=true`. `dry_run=true` only counts.",
  tags: ["members"],
  scope: importMembers.scope,
  query: ImportQuery,
  response: ImportResult,
  handler: async ({ ctx, query, body }) => importMembers(ctx, { csv: await csvFromBody(body), ...query }),
});
