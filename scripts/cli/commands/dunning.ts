// `dunning run [--date D] [--club C]`: raises each overdue invoice whose next reminder level is
// due as if today were D, and mails it (DESIGN.md section 20); a second run raises nothing new.
// The server runs the same every hour.
import { siteOf } from "../../../lib/context";
import { runDunning } from "../../../lib/dues/dunning";
import { command, DAY_RUN_FLAGS, dayRun } from "../command";

export const commands = [
  command({
    words: ["dunning", "run"],
    summary: "Mail the reminders of overdue invoices due today (or on --date), each level once.",
    flags: DAY_RUN_FLAGS,
    async run(env, { flags }) {
      const { db, today, clubId } = await dayRun(env, flags);
      return runDunning(db, { site: siteOf(env.config), today, clubId });
    },
    human: (r) =>
      `Reminders queued: ${r.reminded} (level 1 ${r.by_level["1"]}, level 2 ${r.by_level["2"]}, level 3 ${r.by_level["3"]}); fees added ${r.fees_added}; members suspended ${r.suspended}`,
  }),
];
