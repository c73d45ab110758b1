// `reminders run [--date D] [--club C]`: sends the reminders due as if today were D (DESIGN.md
// section 14); a second run sends nothing new. The server runs the same every hour.
import { runReminders } from "../../../lib/reminders";
import { command, DAY_RUN_FLAGS, dayRun } from "../command";

export const commands = [
  command({
    words: ["reminders", "run"],
    summary: "Queue the renewal reminders, expiry notices and event reminders due today (or on --date), each once.",
    flags: DAY_RUN_FLAGS,
    async run(env, { flags }) {
      const { db, today, clubId } = await dayRun(env, flags);
      return runReminders(db, { baseUrl: env.config.baseUrl, today, clubId });
    },
    human: (r) => `Reminders queued: ${r.sent} (renewal ${r.by_kind.renewal}, expiry ${r.by_kind.expiry}, event ${r.by_kind.event})`,
  }),
];
