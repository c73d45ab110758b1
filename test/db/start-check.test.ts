// A server's start reads a SQLite file whole (`PRAGMA quick_check`) before it serves: 1.1 s, 7.7 s
// from the disk, for 100,000 members and a million mailing recipients, the address answering 503
// meanwhile. A file no one changed since a server that had checked it stopped cleanly is not read
// whole again (db/sqlite.ts `checkedBefore`); a file changed since, a stop that was not clean, a
// WAL holding changes or a last check older than a week makes the start check it again.
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, it } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { onPostgres } from "../databases";

const dir = mkdtempSync(join(tmpdir(), "club-startcheck-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROOT = join(import.meta.dir, "..", "..");

/**
 * A checked start and clean stop of `path` in a process of its own, as the server's (db/ opened
 * with `check`, closed, the process gone): when it says the file was last checked whole. Without
 * `check`, the CLI's (nothing said).
 */
function start(path: string, check = true): string {
  const code = `const { openDb } = await import(${JSON.stringify(join(ROOT, "db/index.ts"))});
const db = await openDb(${JSON.stringify(path)}, { check: ${check} });
console.log(db.checkedAt);
await db.close();
process.exit(0);`;
  const run = Bun.spawnSync(["bun", "-e", code], { cwd: ROOT });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return run.stdout.toString().trim();
}

/** A database file in a folder of its own, started and stopped once: its mark left. */
function checkedFile(name: string): { path: string; checkedAt: string } {
  mkdirSync(join(dir, name));
  const path = join(dir, name, "club.db");
  return { path, checkedAt: start(path) };
}

/** Another program's write to the file; `held`: its connection kept open, the change in its WAL only. */
function writeElsewhere(path: string, held = false): Database {
  const other = new Database(path);
  other.exec("PRAGMA journal_mode = WAL");
  if (held) other.exec("PRAGMA wal_autocheckpoint = 0");
  other.exec("CREATE TABLE scratch (x TEXT); INSERT INTO scratch VALUES ('y')");
  if (!held) other.close();
  return other;
}

describe.skipIf(onPostgres)("a checked start of a SQLite file", () => {
  it("checks a new file, and not again after a clean stop while no one changes it", async () => {
    const before = new Date().toISOString();
    const { path, checkedAt } = checkedFile("clean");
    expect(checkedAt >= before).toBe(true);
    expect(existsSync(`${path}-checked`)).toBe(true);
    expect(start(path)).toBe(checkedAt);
    expect(start(path)).toBe(checkedAt);
    // Opened without the check (the CLI), writing nothing: the mark stays good.
    expect(start(path, false)).toBe("undefined");
    expect(start(path)).toBe(checkedAt);
  });

  it("checks again a file written since (another process, a restore)", async () => {
    const { path, checkedAt } = checkedFile("written");
    writeElsewhere(path);
    const again = start(path);
    expect(again > checkedAt).toBe(true);
    // And the file as that check left it is not read whole at the next.
    expect(start(path)).toBe(again);
  });

  it("checks again while a WAL holds changes not in the file", async () => {
    const { path, checkedAt } = checkedFile("wal");
    const other = writeElsewhere(path, true);
    try {
      const db = await openDb(path, { check: true });
      expect((db.checkedAt as string) > checkedAt).toBe(true);
      await db.close();
    } finally {
      other.close();
    }
  });

  it("checks again after a start that did not stop cleanly (its mark went as it opened)", async () => {
    const { path, checkedAt } = checkedFile("crashed");
    const db = await openDb(path, { check: true });
    expect(db.checkedAt).toBe(checkedAt);
    // Killed here: no close, so no mark.
    expect(existsSync(`${path}-checked`)).toBe(false);
    db.raw.close();
    expect(start(path)).not.toBe(checkedAt);
  });

  it("checks again when the last check is older than a week (or later than now), whatever the file", async () => {
    const { path } = checkedFile("old");
    const mark = JSON.parse(readFileSync(`${path}-checked`, "utf8"));
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000).toISOString();
    writeFileSync(`${path}-checked`, JSON.stringify({ ...mark, checkedAt: eightDaysAgo }));
    const again = start(path);
    expect(again > eightDaysAgo).toBe(true);
    expect(Date.parse(again)).toBeGreaterThan(Date.now() - 60_000);
    // Nor one said to be tomorrow's (a clock set back since).
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    writeFileSync(`${path}-checked`, JSON.stringify({ ...JSON.parse(readFileSync(`${path}-checked`, "utf8")), checkedAt: tomorrow }));
    expect(start(path) < tomorrow).toBe(true);
  });
});

describe.skipIf(onPostgres)("a checked start while another process changes the file's schema (its migration)", () => {
  it("waits for it to finish, and is not refused", async () => {
    const { path } = checkedFile("migrating");
    // Another process creating and dropping tables for a second, as fast as it can. The check's
    // `PRAGMA quick_check` connects FTS5's members_search, which SQLite refuses with SQLITE_SCHEMA
    // ("vtable constructor failed") when the schema changed meanwhile: a start among others on a
    // new file met it (CI). Before it was tried again, most opens here were refused.
    const churn = Bun.spawn(
      [
        "bun",
        "-e",
        `const { Database } = await import("bun:sqlite");
const c = new Database(${JSON.stringify(path)});
c.exec("PRAGMA busy_timeout = 5000");
console.log("changing");
for (let i = 0, until = Date.now() + 1000; Date.now() < until; i++) {
  c.exec("CREATE TABLE IF NOT EXISTS churn_" + (i % 2) + " (x)");
  c.exec("DROP TABLE IF EXISTS churn_" + ((i + 1) % 2));
}
c.close();`,
      ],
      { stdout: "pipe" },
    );
    await churn.stdout.getReader().read();
    let done = false;
    void churn.exited.then(() => {
      done = true;
    });
    const refused: string[] = [];
    let opened = 0;
    while (!done) {
      try {
        await (await openDb(path, { check: true })).close();
        opened++;
      } catch (err) {
        refused.push(String(err));
      }
      await Bun.sleep(10);
    }
    expect(await churn.exited).toBe(0);
    expect(refused).toEqual([]);
    expect(opened).toBeGreaterThan(0);
  });
});
