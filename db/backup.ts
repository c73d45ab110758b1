// Online backup of the database (`cli backup FILE`), on its engine's own terms, so it lives in
// db/. SQLite: a `VACUUM INTO` on a connection of its own reads one consistent snapshot while the
// server goes on reading and writing (WAL), and writes a compact copy. PostgreSQL: `pg_dump
// --format=custom` (one consistent snapshot too; restore with pg_restore). Either copy is written
// beside the target, synced to disk, then linked into place, so FILE is either absent or complete.
import { Database } from "bun:sqlite";
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Db } from ".";

export type BackupResult = { path: string; bytes: number };

export class BackupTargetExists extends Error {
  constructor(readonly path: string) {
    super(`backup target already exists: ${path}`);
  }
}

function fsyncPath(path: string) {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** pg_dump could not copy the database: its own words, for the operator. */
export class BackupFailed extends Error {}

/** Writes the PostgreSQL database `url` names into `partial` with pg_dump (custom format). */
async function dumpPostgres(url: string, partial: string): Promise<void> {
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn(["pg_dump", "--format=custom", "--no-owner", `--file=${partial}`, `--dbname=${url}`], { stdout: "ignore", stderr: "pipe" });
  } catch {
    throw new BackupFailed("pg_dump is not installed (Debian: apt-get install postgresql-client)");
  }
  const [code, said] = await Promise.all([proc.exited, new Response(proc.stderr as ReadableStream).text()]);
  if (code !== 0) {
    rmSync(partial, { force: true });
    throw new BackupFailed(`pg_dump failed: ${said.trim().split("\n")[0] ?? `exit ${code}`}`);
  }
}

/**
 * Copies `db` into `file` (which must not exist yet) and returns its absolute path and size.
 * `url` is the DATABASE_URL `db` was opened with (pg_dump needs its password).
 */
export async function backupTo(db: Db, file: string, url: string): Promise<BackupResult> {
  const target = resolve(file);
  if (existsSync(target)) throw new BackupTargetExists(target);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  if (db.engine === "postgres") await dumpPostgres(url, partial);
  else copySqlite(db, partial);
  return linked(partial, target);
}

function copySqlite(db: Db, partial: string): void {
  // An in-memory database has no file another connection could open: use its own connection.
  const conn = db.path === ":memory:" ? db.raw : new Database(db.path, { readonly: true });
  try {
    conn.exec("PRAGMA busy_timeout = 5000");
    conn.prepare("VACUUM INTO ?").run(partial);
    // The search index (FTS5, migration 0032) points at members by rowid, which SQLite says VACUUM
    // may renumber for a table without an INTEGER PRIMARY KEY: the copy's is built again from its members.
    const copy = new Database(partial);
    try {
      copy.exec("INSERT INTO members_search(members_search) VALUES ('rebuild')");
    } finally {
      copy.close();
    }
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    if (conn !== db.raw) conn.close();
  }
}

function linked(partial: string, target: string): BackupResult {
  // Neither VACUUM INTO nor pg_dump syncs the file it writes: do it before it takes the final
  // name. link() refuses an existing name, so a file created meanwhile is never overwritten.
  fsyncPath(partial);
  try {
    linkSync(partial, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new BackupTargetExists(target);
    throw err;
  } finally {
    rmSync(partial, { force: true });
  }
  fsyncPath(dirname(target));
  return { path: target, bytes: statSync(target).size };
}
