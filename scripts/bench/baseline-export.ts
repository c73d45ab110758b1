// Hand-written baseline for the CSV export: papaparse alone, in one process, on the same rows.
// Reads the club's members from the database file (SPEC rule 1's columns, in the export's order),
// then times `"\uFEFF" + Papa.unparse(rows, { escapeFormulae: true })` (DESIGN.md section 1),
// once untimed and RUNS times timed. Prints one JSON object: {times (ms), bytes, peakBeforeKb,
// peakAfterKb} (VmHWM before the rows were read, and at the end).
//
// Run by scripts/bench/export.ts: `bun scripts/bench/baseline-export.ts DB_PATH CLUB_ID RUNS`.
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import Papa from "papaparse";

const [dbPath, clubId, runsArg] = Bun.argv.slice(2);
const runs = Number(runsArg ?? 3);
const hwm = () => Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? Number.NaN);

const peakBeforeKb = hwm();
const db = new Database(dbPath, { readonly: true });
const rows = db
  .query(
    `SELECT id, referral_code, pass_serial_number, first_name, last_name, email, membership_start, membership_end,
            payment_status, payment_method, created_at
     FROM members WHERE club_id = ? ORDER BY created_at, id`,
  )
  .all(clubId);
db.close();

let csv = "";
const times: number[] = [];
for (let i = 0; i <= runs; i++) {
  const started = performance.now();
  csv = `\uFEFF${Papa.unparse(rows, { escapeFormulae: true })}`;
  if (i > 0) times.push(performance.now() - started);
}
console.log(JSON.stringify({ times, bytes: Buffer.byteLength(csv), peakBeforeKb, peakAfterKb: hwm() }));
