// Preloaded into the real server by test/reliability/red-team-money.rel.ts (`bun --preload`): a
// request whose X-Request-Id starts with `pause-` stops once its answer is made and its write has
// committed, before the answer leaves, and says so with a file of that name in PAUSE_DIR: where
// its audit row would be written (`AuditWriter.record`), or, for a key's keyed success on SQLite,
// whose audit row commits with the write (`AuditWriter.writeIn`), right after that commit. The
// test then kills the server with SIGKILL: a crash between the write and the answer leaving, the
// moment the client's retry with the same Idempotency-Key is meant for.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuditWriter } from "../../lib/audit";
import { KeyedWrite } from "../../lib/idempotency";

const dir = process.env.PAUSE_DIR;
const paused = (id: string | null | undefined): id is string => !!id?.startsWith("pause-");
const pause = (id: string) => {
  writeFileSync(join(dir as string, id), "");
  return new Promise<void>(() => {});
};
if (dir) {
  const record = AuditWriter.prototype.record;
  AuditWriter.prototype.record = function (this: AuditWriter, ...args: Parameters<AuditWriter["record"]>) {
    const id = args[0].request_id;
    return paused(id) ? pause(id) : record.apply(this, args);
  };
  // The request id of the last audit row written inside a transaction: the writer runs one
  // transaction's writes at a time, so a keyed write's `keep` sees its own.
  let lastWrittenIn: { id: string | null | undefined } | null = null;
  const writeIn = AuditWriter.prototype.writeIn;
  AuditWriter.prototype.writeIn = function (this: AuditWriter, ...args: Parameters<AuditWriter["writeIn"]>) {
    lastWrittenIn = { id: args[1].request_id };
    return writeIn.apply(this, args);
  };
  const commit = KeyedWrite.prototype.commit;
  KeyedWrite.prototype.commit = async function (this: KeyedWrite, keep?: Parameters<KeyedWrite["commit"]>[0]) {
    let id: string | null | undefined;
    const spied =
      keep &&
      (async (t: Parameters<NonNullable<typeof keep>>[0]) => {
        const before = lastWrittenIn;
        await keep(t);
        if (lastWrittenIn !== before) id = lastWrittenIn?.id;
      });
    await commit.call(this, spied);
    if (paused(id)) return pause(id);
  };
}
