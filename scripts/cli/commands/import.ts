// `import members FILE.csv --club C [--dry-run] [--partial]`: last season's spreadsheet into a club,
// through the same verb as POST /api/clubs/<club_id>/members/import.
import { existsSync, readFileSync } from "node:fs";
import { operatorCtx } from "../../../lib/auth/operator";
import { findClubByRef } from "../../../lib/clubs";
import { importMembers } from "../../../lib/members/import";
import { command, requireFlag, UsageError } from "../command";
import { progressBar } from "../progress";

export const commands = [
  command({
    words: ["import", "members"],
    summary: "Import members from a CSV file (the export's columns, or headings such as first name / prénom / Vorname). All or nothing unless --partial.",
    flags: {
      club: { type: "string", required: true, placeholder: "C", description: "the club's id or slug" },
      "dry-run": { type: "boolean", description: "check every line, write nothing" },
      partial: { type: "boolean", description: "write the good lines even when some lines fail" },
    },
    args: ["FILE.csv"],
    async run(env, { flags, args }) {
      if (!existsSync(args[0])) throw new UsageError(`no such file: ${args[0]}`);
      const db = env.db();
      const club = await findClubByRef(db, requireFlag(flags.club, "club"));
      const ctx = await operatorCtx(db, club.id, env.config);
      // A bar on stderr for large files, when it is a terminal; never with --json.
      const progress = progressBar("import", "lines", { isTTY: !env.json && process.stderr.isTTY === true });
      let result: Awaited<ReturnType<typeof importMembers>>;
      try {
        result = await importMembers(ctx, {
          csv: readFileSync(args[0], "utf8"),
          dry_run: !!flags["dry-run"],
          partial: !!flags.partial,
          onProgress: progress.update,
        });
      } finally {
        progress.finish();
      }
      return {
        created: result.created,
        updated: result.updated,
        skipped: result.skipped,
        errors: result.errors,
        dry_run: result.dry_run,
        written: result.written,
      };
    },
    human: (r) =>
      [
        `${r.dry_run ? "Dry run: would create" : "Created"} ${r.created}, ${r.dry_run ? "update" : "updated"} ${r.updated}, skipped ${r.skipped}${r.written ? "" : r.dry_run ? "" : " (nothing written)"}`,
        ...r.errors.map((e) => `line ${e.line}: ${e.detail}`),
      ].join("\n"),
  }),
];
