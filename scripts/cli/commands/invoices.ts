// `invoices run --until D [--dry-run] [--club C]`: the dues run (DESIGN.md section 20) of one club
// or every club, as POST invoices/run does it; a second run makes none.
import { operatorCtx } from "../../../lib/auth/operator";
import { runDues } from "../../../lib/dues/run";
import type { DuesRun } from "../../../lib/invoices/schemas";
import { clubsOf, command, dayFlag, requireFlag } from "../command";

export const commands = [
  command({
    words: ["invoices", "run"],
    summary: "Make a membership invoice for each member whose membership ends before --until and who has none for that period.",
    flags: {
      until: { type: "string", placeholder: "YYYY-MM-DD", description: "invoice the members whose membership ends before this day", required: true },
      "dry-run": { type: "boolean", description: "say what the run would make, write nothing" },
      club: { type: "string", placeholder: "CLUB", description: "only this club (id or slug); default: every club" },
    },
    async run(env, { flags }) {
      const until = dayFlag(requireFlag(flags.until, "until"), "until");
      const db = await env.db();
      const clubs: (DuesRun & { club_id: string })[] = [];
      for (const clubId of await clubsOf(db, flags.club)) {
        const ctx = await operatorCtx(db, clubId, env.config);
        clubs.push({ club_id: clubId, ...(await runDues(ctx, { until, dry_run: !!flags["dry-run"] })) });
      }
      return { dry_run: !!flags["dry-run"], until, created: clubs.reduce((n, c) => n + c.created, 0), clubs };
    },
    human: (r) =>
      `${r.dry_run ? "Would make" : "Made"} ${r.created} invoice(s)${r.clubs
        .map(
          (c) =>
            `\n  ${c.club_id}: ${c.created} (${c.totals.map((t) => `${(t.amount_cents / 100).toFixed(2)} ${t.currency}`).join(", ") || "0"}); skipped ${c.skipped.nothing_to_pay} with nothing to pay, ${c.skipped.already_invoiced} invoiced already`,
        )
        .join("")}`,
  }),
];
