// `dunning run [--date D] [--club C]`: raises each overdue invoice whose next reminder level is
// due as if today were D, and mails it (DESIGN.md section 20); a second run raises nothing new.
// The server runs the same every hour.
import { siteOf } from "../../../lib/context";
import { todayUtc } from "../../../lib/days";
import { runDunning } from "../../../lib/invoices/dunning";
import { clubsOf, command, dayFlag } from "../command";

export const commands = [
  command({
    words: ["dunning", "run"],
    summary: "Mail the reminders of overdue invoices due today (or on --date), each level once.",
    flags: {
      date: { type: "string", placeholder: "YYYY-MM-DD", description: "run as if today were this day (UTC)" },
      club: { type: "string", placeholder: "CLUB", description: "only this club (id or slug); default: every club" },
    },
    async run(env, { flags }) {
      const today = dayFlag(flags.date ?? todayUtc(), "date");
      const db = await env.db();
      const clubId = flags.club ? (await clubsOf(db, flags.club))[0] : undefined;
      return runDunning(db, { site: siteOf(env.config), today, clubId });
    },
    human: (r) =>
      `Reminders queued: ${r.reminded} (level 1 ${r.by_level["1"]}, level 2 ${r.by_level["2"]}, level 3 ${r.by_level["3"]}); fees added ${r.fees_added}; members suspended ${r.suspended}`,
  }),
];
