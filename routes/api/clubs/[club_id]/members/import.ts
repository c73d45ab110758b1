// POST /api/clubs/[club_id]/members/import — create (or, with mode=update, update) members from a spreadsheet
import { csvFromBody, importMembers } from "../../../../../lib/members/import";
import { ImportQuery, ImportResult } from "../../../../../lib/members/schemas";
import { daysFromNow } from "../../../../../lib/schema-types";
import { route } from "../../../../../server/route";

export const POST = route({
  summary: "Import members from a CSV file",
  description: [
    "Body: the file as `text/csv`, or a multipart form with the file in `file`. Encoding: UTF-8 (with or without BOM), UTF-16 with a BOM, or Windows-1252 (Excel's CSV); separator: comma, semicolon or tab. Columns: the export's own, or headings in French, German, Italian or English (first name / prénom / Vorname / nome, last name / nom / Nachname / cognome, email / e-mail / courriel, membership_end / fin abonnement / échéance / Mitglied bis / Enddatum / scadenza / end date ...); a missing column is reported with the headings recognised for it.",
    "Members are matched by email. `mode=create` (default) creates new members only: a line whose email the club already has is reported in `warnings` (MEMBER_EXISTS) and nothing of that member changes. `mode=update` also updates existing members, in the columns the file has only, and never moves a membership end earlier unless `allow_shorten=true` (else END_NOT_SHORTENED in `warnings`).",
    "All or nothing: one faulty line and nothing is written, unless `partial=true`. `dry_run=true` writes nothing and lists in `changes`, line by line, what would be done (field: from -> to).",
  ].join("\n\n"),
  tags: ["members"],
  scope: importMembers.scope,
  query: ImportQuery,
  response: ImportResult,
  bytes: true,
  requestBody: () => ({
    required: true,
    content: {
      "text/csv": {
        schema: { type: "string", description: "The CSV file, UTF-8 (a byte-order mark is allowed); `,` or `;` separated." },
        example: `first_name,last_name,email,membership_end\nNoah,Keller,noah.keller@example.org,${daysFromNow(365)}\nChiara,Rossi,chiara.rossi@example.org,${daysFromNow(365)}\n`,
      },
      "multipart/form-data": {
        schema: { type: "object", properties: { file: { type: "string", contentMediaType: "text/csv", description: "The CSV file." } }, required: ["file"] },
      },
    },
  }),
  handler: async ({ ctx, query, body }) => importMembers(ctx, { csv: await csvFromBody(body), ...query }),
});
