// Preloaded into the real server by test/reliability/red-team-money.rel.ts (`bun --preload`): a
// request whose X-Request-Id starts with `pause-` stops where its audit row would be written,
// once its answer is made and its write has committed, and says so with a file of that name in
// PAUSE_DIR. The test then kills the server with SIGKILL: a crash between the write and the
// answer leaving, the moment the client's retry with the same Idempotency-Key is meant for.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuditWriter } from "../../lib/audit";

const dir = process.env.PAUSE_DIR;
if (dir) {
  const record = AuditWriter.prototype.record;
  AuditWriter.prototype.record = function (this: AuditWriter, ...args: Parameters<AuditWriter["record"]>) {
    const id = args[0].request_id;
    if (!id?.startsWith("pause-")) return record.apply(this, args);
    writeFileSync(join(dir, id), "");
    return new Promise<void>(() => {});
  };
}
