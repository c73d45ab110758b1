// A fingerprint of the data tables that costs nothing to read: triggers count every committed
// insert, update and delete per table (a rolled-back change rolls its count back too). Two equal
// fingerprints around a refused request prove it stored nothing. The audit log is left out: every
// request writes one row there by design, and so are the columns a key's request stamps by
// design (`api_keys.last_used_at`, written with the audit row).
import type { Database } from "bun:sqlite";

const COUNTS = "_rel_changes";
/** Columns every request may write (bookkeeping, not data): an update of only these is not counted. */
const BOOKKEEPING: Record<string, string[]> = { api_keys: ["last_used_at"] };

export function dataTables(raw: Database, exclude: string[] = ["audit_log"]): string[] {
  // Not the search index (FTS5's virtual table and its shadow tables): it follows `members`, counted already.
  const rows = raw.query("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name").all() as {
    name: string;
  }[];
  return rows
    .map((r) => r.name)
    .filter((n) => !n.startsWith("sqlite_") && !n.startsWith("__drizzle") && !n.startsWith("members_search_") && n !== COUNTS && !exclude.includes(n));
}

/** Installs the counting triggers (once per database file). */
export function installChangeCounter(raw: Database, exclude?: string[]): string[] {
  const tables = dataTables(raw, exclude);
  raw.exec(`CREATE TABLE IF NOT EXISTS ${COUNTS} (tbl TEXT PRIMARY KEY, n INTEGER NOT NULL)`);
  for (const t of tables) {
    raw.query(`INSERT OR IGNORE INTO ${COUNTS} (tbl, n) VALUES (?, 0)`).run(t);
    const skip = BOOKKEEPING[t] ?? [];
    const columns = (raw.query(`PRAGMA table_info("${t}")`).all() as { name: string }[])
      .map((c) => `"${c.name}"`)
      .filter((c) => !skip.includes(c.slice(1, -1)));
    for (const op of ["INSERT", "UPDATE", "DELETE"]) {
      const on = op === "UPDATE" && skip.length ? `UPDATE OF ${columns.join(", ")}` : op;
      raw.exec(
        `CREATE TRIGGER IF NOT EXISTS "_rel_${t}_${op.toLowerCase()}" AFTER ${on} ON "${t}" BEGIN UPDATE ${COUNTS} SET n = n + 1 WHERE tbl = '${t}'; END`,
      );
    }
  }
  return tables;
}

/** Changes per table so far, e.g. `{members: 12, ...}`. */
export function changeCounts(raw: Database): Record<string, number> {
  const rows = raw.query(`SELECT tbl, n FROM ${COUNTS}`).all() as { tbl: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.tbl, r.n]));
}

/** The tables whose count differs between two fingerprints. */
export function changedTables(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys(after).filter((t) => after[t] !== before[t]);
}
