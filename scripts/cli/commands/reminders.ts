// `reminders run [--date D] [--club C]`: sends the reminders due as if today were D (DESIGN.md
// section 14); a second run sends nothing new. The server runs the same every hour.
import { runReminders } from "../../../lib/reminders";
import { todayUtc } from "../../../lib/members/status";
import { clubsOf, command, dayFlag } from "../command";

export const commands = [
  command({
    words: ["reminders", "run"],
    summary: "Queue the renewal reminders, expiry notices and event reminders due today (or on --date), each once.",
    flags: {
      date: { type: "string", placeholder: "YYYY-MM-DD", description: "run as if today were this day (UTC)" },
      club: { type: "string", placeholder: "CLUB", description: "only this club (id or slug); default: every club" },
    },
    async run(env, { flags }) {
      const today = dayFlag(flags.date ?? todayUtc(), "date");
      const db = await env.db();
      const clubId = flags.club ? (await clubsOf(db, flags.club))[0] : undefined;
      return runReminders(db, { baseUrl: env.config.baseUrl, today, clubId });
    },
    human: (r) => `Reminders queued: ${r.sent} (renewal ${r.by_kind.renewal}, expiry ${r.by_kind.expiry}, event ${r.by_kind.event})`,
  }),
];
