// Several processes opening one new SQLite file at once (a host's units starting together):
// each migration is applied once, by one of them, and every process opens the file. Before the
// migrations ran under the write lock from their first look, 9 of 30 such opens failed on a table
// another process had just made.
import { afterAll, expect, it } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb } from "../../db";
import { members } from "../../db/schema";
import { initClub } from "../../lib/auth/init";
import { newMemberRow } from "../../lib/members";
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

// Members without a page token (rows of an older file) get one at the start that finds them. Two
// processes starting at once both read the members without one; the one that wrote second replaced
// the tokens the first had written, and perhaps already mailed, with its own.
it.skipIf(onPostgres)(
  "three processes starting at once on members without a page token: the tokens each one saw are the ones kept",
  async () => {
    const path = join(dir, "tokens.db");
    const db = await openDb(path);
    const club = await initClub(db, { clubName: "Club", email: "owner@example.org", locale: "fr", currency: "CHF" });
    const rows = Array.from({ length: 5000 }, (_, i) =>
      newMemberRow(club.club_id, {
        first_name: "Ada",
        last_name: `Muster${i}`,
        email: `m${i}@example.org`,
        membership_start: "2026-01-01",
        membership_end: "2026-12-31",
        payment_status: "paid",
      }),
    );
    await db.tx(async (t) => {
      for (let i = 0; i < rows.length; i += 500) await t.insert(members).values(rows.slice(i, i + 500));
    });
    db.close();
    for (let round = 0; round < 4; round++) {
      const file = new Database(path);
      file.run("UPDATE members SET manage_token = NULL");
      file.close();
      const opens = Array.from({ length: 3 }, () => Bun.spawn(["bun", OPEN, path, "tokens"], { stderr: "pipe", stdout: "pipe" }));
      const seen = await Promise.all(
        opens.map(async (p) => {
          const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
          if (code !== 0) throw new Error(err);
          return JSON.parse(out) as Record<string, string | null>;
        }),
      );
      const kept = new Database(path, { readonly: true });
      const final = Object.fromEntries(
        (kept.query("SELECT id, manage_token FROM members").all() as { id: string; manage_token: string }[]).map((r) => [r.id, r.manage_token]),
      );
      kept.close();
      expect(Object.values(final).every((t) => typeof t === "string" && t.length === 43)).toBe(true);
      // Counted, not compared whole: a failure would print 5,000 tokens.
      expect(seen.map((one) => Object.keys(final).filter((id) => one[id] !== final[id]).length)).toEqual([0, 0, 0]);
    }
  },
  120_000,
);
