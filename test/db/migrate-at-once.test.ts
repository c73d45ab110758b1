// Several processes opening one new SQLite file at once (a host's units starting together):
// each migration is applied once, by one of them, and every process opens the file. Before the
// migrations ran under the write lock from their first look, 9 of 30 such opens failed on a table
// another process had just made.
import { afterAll, expect, it } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onPostgres } from "../databases";

const dir = mkdtempSync(join(tmpdir(), "club-migrate-at-once-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const OPEN = join(import.meta.dir, "../fixtures/open-sqlite.ts");
const journal = JSON.parse(readFileSync(join(import.meta.dir, "../../db/migrations/meta/_journal.json"), "utf8")) as { entries: { when: number }[] };

it.skipIf(onPostgres)(
  "six processes opening one empty file at once: all open it, each migration applied once",
  async () => {
    for (let round = 0; round < 4; round++) {
      const path = join(dir, `club-${round}.db`);
      const opens = Array.from({ length: 6 }, () => Bun.spawn(["bun", OPEN, path], { stderr: "pipe", stdout: "ignore" }));
      const failures = (await Promise.all(opens.map(async (p) => ((await p.exited) === 0 ? null : await new Response(p.stderr).text())))).filter(Boolean);
      expect(failures).toEqual([]);
      const db = new Database(path, { readonly: true });
      try {
        const applied = db.query("SELECT created_at FROM __drizzle_migrations ORDER BY created_at").all() as { created_at: number }[];
        expect(applied.map((m) => Number(m.created_at))).toEqual(journal.entries.map((e) => e.when));
        expect(db.query("SELECT count(*) AS n FROM sqlite_master WHERE name = 'members'").get()).toEqual({ n: 1 });
      } finally {
        db.close();
      }
    }
  },
  120_000,
);
