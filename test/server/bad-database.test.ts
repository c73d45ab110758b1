// A database the server cannot use (issue 18, item 6) stops the start with one line saying why
// and what to do, as a bad setting does: no stack trace, no server answering 500 to every write.
// A read-only file and a full disk need a file system of their own: as root (CI), a private
// mount namespace (`unshare -m`) mounts a read-only bind or a 1 MB tmpfs over the data folder for
// the server alone; without root, the read-only file is a chmod and the full disk is skipped.
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, it } from "bun:test";
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { onPostgres } from "../databases";
import { freePort } from "../ports";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "club-baddb-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const isRoot = process.getuid?.() === 0;
const canMount = isRoot && Bun.spawnSync(["unshare", "-m", "true"]).exitCode === 0;

/** A database with the migrations applied and a few rows, in a folder of its own. */
async function realDatabase(name: string): Promise<string> {
  const folder = join(dir, name);
  mkdirSync(folder);
  const path = join(folder, "club.db");
  await (await openDb(path)).close();
  return path;
}

/** Starts the server (through `wrap`, a command run before it) and returns its exit code and output. */
async function start(dbPath: string, wrap: string[] = []) {
  const port = freePort();
  const proc = Bun.spawn([...wrap, "bun", "app/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: dbPath, BASE_URL: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), 20_000);
  const code = await proc.exited;
  clearTimeout(timer);
  return { code, stderr: (await new Response(proc.stderr).text()).trim(), stdout: await new Response(proc.stdout).text() };
}

/** One line, "Cannot start: ...", with no stack trace and no key printed. */
function expectRefused(run: { code: number; stderr: string; stdout: string }, says: RegExp) {
  expect(run.code).toBe(1);
  expect(run.stderr.split("\n")).toHaveLength(1);
  expect(run.stderr).toMatch(/^Cannot start: /);
  expect(run.stderr).toMatch(says);
  expect(run.stdout).not.toContain("mk_live_");
}

describe.skipIf(onPostgres)("the server refuses to start on", () => {
  it("a truncated database file", async () => {
    const path = await realDatabase("truncated");
    const db = new Database(path);
    db.exec(
      "CREATE TABLE filler (x TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO filler SELECT hex(randomblob(500)) FROM n",
    );
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close();
    truncateSync(path, Math.floor(readFileSync(path).length / 2));
    expectRefused(await start(path), /damaged|not a readable SQLite database/);
  });

  it("a file damaged in place after the clean stop of a start that had checked it (its size unchanged)", async () => {
    const path = await realDatabase("damaged-after-stop");
    const db = new Database(path);
    db.exec(
      "CREATE TABLE filler (x TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO filler SELECT hex(randomblob(500)) FROM n",
    );
    db.close();
    // A checked start and a clean stop leave the mark that spares the next start its whole read (db/sqlite.ts).
    const checked = Bun.spawnSync(
      ["bun", "-e", `const { openDb } = await import("./db/index.ts"); await (await openDb(${JSON.stringify(path)}, { check: true })).close();`],
      {
        cwd: ROOT,
      },
    );
    expect(checked.exitCode).toBe(0);
    expect(readFileSync(`${path}-checked`, "utf8")).toContain("checkedAt");
    const size = readFileSync(path).length;
    const fd = openSync(path, "r+");
    writeSync(fd, Buffer.alloc(4096 * 20, 0xa5), 0, 4096 * 20, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    expect(readFileSync(path).length).toBe(size);
    expectRefused(await start(path), /damaged/);
  });

  it("a file that is not a database", async () => {
    const path = join(dir, "garbage.db");
    writeFileSync(path, "id,name\n1,not a database at all\n".repeat(200));
    expectRefused(await start(path), /not a readable SQLite database.*Restore it from a backup/);
  });

  it("a database file it cannot write", async () => {
    const path = await realDatabase("readonly");
    const folder = join(path, "..");
    if (canMount) {
      const bind = `mount --bind ${folder} ${folder} && mount -o remount,ro,bind ${folder} && exec "$@"`;
      expectRefused(await start(path, ["unshare", "-m", "sh", "-c", bind, "sh"]), /cannot be opened for writing/);
    } else {
      chmodSync(path, 0o444);
      chmodSync(folder, 0o555);
      try {
        expectRefused(await start(path), /cannot be opened for writing/);
      } finally {
        chmodSync(folder, 0o755);
      }
    }
  });

  it.skipIf(!canMount)("a disk without room to write (a 1 MB tmpfs; needs root)", async () => {
    const folder = join(dir, "full");
    mkdirSync(folder);
    const tiny = `mount -t tmpfs -o size=1m tmpfs ${folder} && exec "$@"`;
    expectRefused(await start(join(folder, "club.db"), ["unshare", "-m", "sh", "-c", tiny, "sh"]), /has 0 MB free; the server needs at least 32 MB/);
  });
});
