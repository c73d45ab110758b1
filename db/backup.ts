// Online backup of the database file (`cli backup FILE`). SQLite-only, so it lives in db/: a
// `VACUUM INTO` on a connection of its own reads one consistent snapshot while the server goes on
// reading and writing (WAL), and writes a compact copy. The copy is written beside the target,
// synced to disk, then linked into place, so FILE is either absent or complete.
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

/** Copies `db` into `file` (which must not exist yet) and returns its absolute path and size. */
export function backupTo(db: Db, file: string): BackupResult {
  const target = resolve(file);
  if (existsSync(target)) throw new BackupTargetExists(target);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  // An in-memory database has no file another connection could open: use its own connection.
  const conn = db.path === ":memory:" ? db.raw : new Database(db.path, { readonly: true });
  try {
    conn.exec("PRAGMA busy_timeout = 5000");
    conn.prepare("VACUUM INTO ?").run(partial);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    if (conn !== db.raw) conn.close();
  }
  // SQLite does not sync the file VACUUM INTO writes: do it before it takes the final name.
  // link() refuses an existing name, so a file created meanwhile is never overwritten.
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
