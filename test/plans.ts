// SQLite's plan of a statement as the server runs it (db/sqlite.ts `boundAsPlanned` applied), for
// tests that a statement reads through the index meant for it rather than every row.
import { Database } from "bun:sqlite";
import type { Db } from "../db";
import { boundAsPlanned } from "../db/sqlite";

/** The details of SQLite's EXPLAIN QUERY PLAN of `query` (a Drizzle query, not run) on `db`'s file. */
export function sqlitePlan(db: Db, query: { toSQL(): { sql: string; params: unknown[] } }): string[] {
  const { sql, params } = query.toSQL();
  // Its own connection, as the server's reader would keep the EXPLAIN's snapshot open.
  const conn = new Database(db.path, { readonly: true });
  try {
    return (conn.query(`EXPLAIN QUERY PLAN ${boundAsPlanned(sql)}`).all(...(params as string[])) as { detail: string }[]).map((p) => p.detail);
  } finally {
    conn.close();
  }
}
