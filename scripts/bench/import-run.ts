// One import in a process of its own, as `bun run cli import members` runs it (the operator's
// context, the file's bytes, `importMembers`), measured from the inside: the time of the import
// alone and the process's memory high-water mark (VmHWM) just before it and at the end. Prints one
// JSON object: {ms, peakBeforeKb, peakAfterKb, result: {created, updated, skipped, errors, warnings, written}}.
//
// Run by scripts/bench/import.ts: `bun scripts/bench/import-run.ts DB_PATH CLUB_ID FILE MODE`.
import { readFileSync } from "node:fs";
import { openDb } from "../../db";
import { operatorCtx } from "../../lib/auth/operator";
import { loadConfig } from "../../lib/config";
import { importMembers } from "../../lib/members/import";
import type { ImportMode } from "../../lib/members/schemas";

const [dbPath, clubId, file, mode] = Bun.argv.slice(2);
const hwm = () => Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? Number.NaN);

const db = await openDb(dbPath);
const ctx = await operatorCtx(db, clubId, loadConfig({ DATABASE_URL: dbPath, BASE_URL: "http://127.0.0.1" }));
const csv = new Uint8Array(readFileSync(file));
const peakBeforeKb = hwm();
const started = performance.now();
const r = await importMembers(ctx, { csv, mode: mode as ImportMode });
const ms = performance.now() - started;
const peakAfterKb = hwm();
db.close();
console.log(
  JSON.stringify({
    ms,
    peakBeforeKb,
    peakAfterKb,
    result: { created: r.created, updated: r.updated, skipped: r.skipped, errors: r.errors.length, warnings: r.warnings.length, written: r.written },
  }),
);
