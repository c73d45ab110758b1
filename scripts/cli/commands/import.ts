// `import members FILE.csv --club C [--mode create|update] [--allow-shorten] [--dry-run] [--partial]`:
// last season's spreadsheet into a club, through the same verb as POST /api/clubs/<club_id>/members/import.
import { existsSync, readFileSync } from "node:fs";
import { operatorCtx } from "../../../lib/auth/operator";
import { findClubByRef } from "../../../lib/clubs/internal";
import { importMembers } from "../../../lib/members/import";
import { IMPORT_MODES, type ImportChange, type ImportMode } from "../../../lib/members/schemas";
import { command, requireFlag, UsageError } from "../command";
import { progressBar } from "../progress";

/** One line of a dry run for a person: what the line would do, field: from -> to. */
function changeLine(c: ImportChange): string {
  if (c.action === "create") {
    const to = (name: string) => c.fields.find((f) => f.field === name)?.to ?? "";
    return `line ${c.line}: create ${c.email} (${to("first_name")} ${to("last_name")}, until ${to("membership_end")})`;
  }
  if (c.action === "update") return `line ${c.line}: update ${c.email}: ${c.fields.map((f) => `${f.field}: ${f.from ?? ""} -> ${f.to ?? ""}`).join("; ")}`;
  return `line ${c.line}: ${c.action} ${c.email}`;
}

export const commands = [
  command({
    words: ["import", "members"],
    summary:
      "Import members from a CSV file (the export's columns, or headings such as prénom / Vorname / Mitglied bis; UTF-8 or Windows-1252; comma, semicolon or tab). New members only unless --mode update. All or nothing unless --partial.",
    flags: {
      club: { type: "string", required: true, placeholder: "C", description: "the club's id or slug" },
      mode: {
        type: "string",
        placeholder: "create|update",
        description: "create (default): existing emails are reported, not touched; update: also update them, only the columns the file has",
      },
      "allow-shorten": { type: "boolean", description: "with --mode update: let the file move a membership end earlier" },
      "dry-run": { type: "boolean", description: "check every line and show what would change, write nothing" },
      partial: { type: "boolean", description: "write the good lines even when some lines fail" },
    },
    args: ["FILE.csv"],
    async run(env, { flags, args }) {
      const mode = (flags.mode ?? "create") as ImportMode;
      if (!IMPORT_MODES.includes(mode)) throw new UsageError(`--mode expects create or update, got "${flags.mode}"`);
      if (!existsSync(args[0])) throw new UsageError(`no such file: ${args[0]}`);
      const db = await env.db();
      const club = await findClubByRef(db, requireFlag(flags.club, "club"));
      const ctx = await operatorCtx(db, club.id, env.config);
      // A bar on stderr for large files, when it is a terminal; never with --json.
      const progress = progressBar("import", "lines", { isTTY: !env.json && process.stderr.isTTY === true });
      try {
        // The bytes as they are: the verb tells UTF-8 from Windows-1252.
        return await importMembers(ctx, {
          csv: new Uint8Array(readFileSync(args[0])),
          mode,
          allow_shorten: !!flags["allow-shorten"],
          dry_run: !!flags["dry-run"],
          partial: !!flags.partial,
          onProgress: progress.update,
        });
      } finally {
        progress.finish();
      }
    },
    human: (r) =>
      [
        `${r.dry_run ? "Dry run: would create" : "Created"} ${r.created}, ${r.dry_run ? "update" : "updated"} ${r.updated}, skipped ${r.skipped}${r.written ? "" : r.dry_run ? "" : " (nothing written)"}`,
        ...(r.changes ?? []).filter((c) => c.action !== "skip" && c.action !== "unchanged").map(changeLine),
        ...r.warnings.map((w) => `line ${w.line}: ${w.detail}`),
        ...r.errors.map((e) => `line ${e.line}: ${e.detail}`),
      ].join("\n"),
  }),
];
