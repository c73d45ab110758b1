// `backup FILE`: an online, consistent copy of the whole database (every club), while the server runs.
import { BackupTargetExists, backupTo } from "../../../db/backup";
import { Conflict } from "../../../lib/errors";
import { command } from "../command";

export const commands = [
  command({
    words: ["backup"],
    summary: "Copy the database into FILE (online and consistent: VACUUM INTO on SQLite, pg_dump on PostgreSQL). FILE must not exist.",
    flags: {},
    args: ["FILE"],
    async run(env, { args }) {
      try {
        return await backupTo(await env.db(), args[0], env.config.databaseUrl);
      } catch (err) {
        if (err instanceof BackupTargetExists) throw new Conflict("BACKUP_TARGET_EXISTS", { path: err.path });
        throw err;
      }
    },
    human: (r) => `Backup written: ${r.path} (${r.bytes} bytes)`,
  }),
];
