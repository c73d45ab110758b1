// What a member import does for its own speed (issue 31) without changing what it writes: the
// SQLite writer readied for many writes while it runs and given back after (Db.bulkWrites), the
// search index touched only for members whose search text changed, the database asked sparingly
// whether another process wrote (pace), no forced garbage collection for a file of up to 5,000
// lines, and one every 5,000 lines of each pass of a longer file; new members' keys that grow at
// the end of their unique indexes (import18).
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { like } from "drizzle-orm";
import type { Db } from "../../db";
import { members } from "../../db/schema";
import { operatorCtx } from "../../lib/auth/operator";
import type { Ctx } from "../../lib/context";
import { hourLedReadableCode, timeOrderedBase62 } from "../../lib/ids";
import { importMembers } from "../../lib/members/import";
import { unknownPageToken } from "../../lib/members/internal";
import { pace } from "../../lib/members/import-journal";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";
import { refusalOf } from "../refusal";

let env: TestEnv;
let ctx: Ctx;
beforeAll(async () => {
  env = await setup();
  ctx = await operatorCtx(env.db, env.clubId, env.config);
});
afterAll(() => env.close());

const csv = (tag: string, n: number) =>
  `first name,last name,email,membership end\n${Array.from({ length: n }, (_, i) => `Anna,Nom${i},${tag}${i}@test.org,2030-12-31`).join("\n")}\n`;

const writer = () => {
  const raw = env.db.raw;
  return {
    cache: (raw.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size,
    checkpoint: (raw.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint,
  };
};

describe.skipIf(onPostgres)("the SQLite writer during an import", () => {
  it("has a larger cache and rarer checkpoints while the import writes, its defaults once it is done", async () => {
    const before = writer();
    const during: ReturnType<typeof writer>[] = [];
    const result = await importMembers(ctx, { csv: csv("bulk", 120), onProgress: () => during.push(writer()) });
    expect(result).toMatchObject({ created: 120, errors: [] });
    expect(during.at(-1)).toEqual({ cache: -16_384, checkpoint: 16_000 });
    expect(writer()).toEqual(before);
  });

  it("keeps them while any run lasts, and gives them back once, when the last ends", () => {
    const before = writer();
    const first = env.db.bulkWrites();
    const second = env.db.bulkWrites();
    first();
    first();
    expect(writer()).toEqual({ cache: -16_384, checkpoint: 16_000 });
    second();
    expect(writer()).toEqual(before);
  });

  it("gives them back when the import is refused (another import of the club's lock holds it)", async () => {
    const before = writer();
    // A running import of another process (a pid that is alive: ours, under an id this process does not run).
    await env.db.query("INSERT INTO member_imports (id, club_id, status, host, pid, started_at, lease_until) VALUES ('other', ?, 'running', ?, 1, ?, ?)", [
      env.clubId,
      (await import("node:os")).hostname(),
      new Date().toISOString(),
      new Date(Date.now() + 60_000).toISOString(),
    ]);
    try {
      expect(await refusalOf(importMembers(ctx, { csv: csv("refused", 3) }))).toMatchObject({ code: "IMPORT_RUNNING" });
      expect(writer()).toEqual(before);
    } finally {
      await env.db.query("DELETE FROM member_imports WHERE id = 'other'");
    }
  });
});

describe.skipIf(onPostgres)("the search index during an update import", () => {
  const indexRows = async () => (await env.db.query<{ n: number }>("SELECT count(*) AS n FROM members_search_data"))[0].n;

  it("is left as it was when the file changes no name (end dates only), and follows a rename", async () => {
    expect(await importMembers(ctx, { csv: csv("dates", 60) })).toMatchObject({ created: 60, errors: [] });
    const before = await indexRows();
    const ends = `email,membership end\n${Array.from({ length: 60 }, (_, i) => `dates${i}@test.org,2031-06-30`).join("\n")}\n`;
    expect(await importMembers(ctx, { csv: ends, mode: "update" })).toMatchObject({ updated: 60, errors: [] });
    expect(await indexRows()).toBe(before);
    const renamed = `email,last name\ndates0@test.org,Quenouille\n`;
    expect(await importMembers(ctx, { csv: renamed, mode: "update" })).toMatchObject({ updated: 1, errors: [] });
    expect(await indexRows()).toBeGreaterThan(before);
    const [{ n }] = await env.db.query<{ n: number }>("SELECT count(*) AS n FROM members_search WHERE members_search MATCH '\"quenouille\"'");
    expect(n).toBe(1);
    await env.db.query("INSERT INTO members_search(members_search) VALUES ('integrity-check')");
  });
});

describe("an update import's statements (import19)", () => {
  /** Each column whose triggers fire when an UPDATE assigns it, value changed or not (as SQLite rewrites the indexes that hold it). */
  const WATCHED = ["search_text", "sort_name", "membership_end", "payment_status", "membership_start"];
  const watch = async () => {
    await env.db.query("CREATE TABLE test_assigned (col text)");
    if (onPostgres) {
      await env.db.query(
        "CREATE FUNCTION test_assigned() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO test_assigned VALUES (TG_ARGV[0]); RETURN NEW; END $$",
      );
      for (const c of WATCHED)
        await env.db.query(`CREATE TRIGGER test_assigned_${c} AFTER UPDATE OF ${c} ON members FOR EACH ROW EXECUTE FUNCTION test_assigned('${c}')`);
    } else
      for (const c of WATCHED)
        env.db.raw.exec(`CREATE TRIGGER test_assigned_${c} AFTER UPDATE OF ${c} ON members BEGIN INSERT INTO test_assigned VALUES ('${c}'); END`);
  };
  const unwatch = async () => {
    for (const c of WATCHED) await env.db.query(onPostgres ? `DROP TRIGGER test_assigned_${c} ON members` : `DROP TRIGGER test_assigned_${c}`);
    if (onPostgres) await env.db.query("DROP FUNCTION test_assigned()");
    await env.db.query("DROP TABLE test_assigned");
  };
  /** How many members' updates assigned each watched column since the last call. */
  const assigned = async () => {
    const rows = await env.db.query<{ col: string; n: number }>("SELECT col, count(*) AS n FROM test_assigned GROUP BY col");
    await env.db.query("DELETE FROM test_assigned");
    return Object.fromEntries(rows.map((r) => [r.col, Number(r.n)]));
  };

  it("assign the name, end and status columns (and the search and sort keys) only for the lines that change them", async () => {
    expect(await importMembers(ctx, { csv: csv("assign", 40) })).toMatchObject({ created: 40, errors: [] });
    await watch();
    try {
      // New ends alone: neither the search text nor the sort name, nor the status, is assigned.
      const ends = `email,membership end\n${Array.from({ length: 40 }, (_, i) => `assign${i}@test.org,2031-06-30`).join("\n")}\n`;
      expect(await importMembers(ctx, { csv: ends, mode: "update" })).toMatchObject({ updated: 40, errors: [] });
      expect(await assigned()).toEqual({ membership_end: 40, membership_start: 40 });
      // Mixed lines, one statement per kind of change: two renamed, one with a new status, one
      // with a new end, one unchanged.
      const mixed = [
        "email,last name,payment status,membership end",
        "assign0@test.org,Quenouille,,",
        "assign1@test.org,Rouet,,",
        "assign2@test.org,,pending,",
        "assign3@test.org,,,2032-01-31",
        "assign4@test.org,Nom4,,2031-06-30",
      ].join("\n");
      expect(await importMembers(ctx, { csv: `${mixed}\n`, mode: "update" })).toMatchObject({ updated: 4, skipped: 1, errors: [] });
      expect(await assigned()).toEqual({ search_text: 2, sort_name: 2, payment_status: 1, membership_end: 1, membership_start: 4 });
    } finally {
      await unwatch();
    }
    // What they wrote is what the lines say, the others' columns as they were.
    const rows = await env.db.read
      .select({
        email: members.email,
        last: members.last_name,
        sort: members.sort_name,
        text: members.search_text,
        status: members.payment_status,
        end: members.membership_end,
      })
      .from(members)
      .where(like(members.email, "assign%"));
    const by = new Map(rows.map((r) => [r.email, r]));
    expect(by.get("assign0@test.org")).toMatchObject({ last: "Quenouille", status: "paid", end: "2031-06-30" });
    expect(by.get("assign0@test.org")?.sort).toContain("quenouille");
    expect(by.get("assign0@test.org")?.text).toContain("quenouille");
    expect(by.get("assign2@test.org")).toMatchObject({ last: "Nom2", status: "pending", end: "2031-06-30" });
    expect(by.get("assign3@test.org")).toMatchObject({ last: "Nom3", status: "paid", end: "2032-01-31" });
  });
});

describe("the pace of an import", () => {
  it("asks the database whether another process wrote at most every 5 ms", async () => {
    let asks = 0;
    const rhythm = pace({
      othersWrote: () => {
        asks++;
        return false;
      },
    } as unknown as Db);
    const began = performance.now();
    let turns = 0;
    // Lines checked one after the other for 150 ms: the last 75 ms of a slice ask at each line.
    while (performance.now() - began < 150) {
      await rhythm.turn();
      turns++;
    }
    expect(turns).toBeGreaterThan(1_000);
    expect(asks).toBeLessThanOrEqual(Math.ceil((performance.now() - began) / 5) + 1);
  });

  /** The sleeps (ms asked) `Bun.sleep` is given while `run` runs. */
  async function sleepsDuring(run: () => Promise<void>): Promise<number[]> {
    const sleep = Bun.sleep;
    const asked: number[] = [];
    (Bun as { sleep: typeof Bun.sleep }).sleep = (ms: number | Date) => {
      asked.push(Number(ms));
      return sleep(0);
    };
    try {
      await run();
    } finally {
      (Bun as { sleep: typeof Bun.sleep }).sleep = sleep;
    }
    return asked;
  }
  const alone = () => pace({ othersWrote: () => false } as unknown as Db);

  it("takes no gap between pieces of work that hold no lock (checking, planning), however long they last", async () => {
    const rhythm = alone();
    const asked = await sleepsDuring(async () => {
      const began = performance.now();
      // Over a second of lines checked: a writing's second of work takes a gap; this takes none.
      while (performance.now() - began < 1_100) await rhythm.turn();
    });
    expect(asked).toEqual([]);
  });

  it("leaves the lock free once a second of writing, with its own work that holds no lock done in that gap", async () => {
    const rhythm = alone();
    let atGap = 0;
    let took = 0;
    const work = () => {
      atGap++;
      const began = performance.now();
      while (performance.now() - began < 30);
      took = performance.now() - began;
    };
    const asked = await sleepsDuring(async () => {
      await rhythm.pause(600, work);
      // Not yet a second's work: no gap, nothing of the gap's run.
      expect(atGap).toBe(0);
      await rhythm.pause(500, work);
    });
    expect(atGap).toBe(1);
    // The gap is the work and the sleep after it: the lock free 110 ms as before, not longer.
    expect(asked.length).toBe(1);
    expect(asked[0]).toBeLessThanOrEqual(110 - took);
    expect(asked[0] + took).toBeGreaterThan(105);
  });
});

/** The forced garbage collections (Bun.gc(true)) made while `run` runs. */
async function forcedDuring(run: () => Promise<void>): Promise<number> {
  const gc = Bun.gc;
  let forced = 0;
  (Bun as { gc: typeof Bun.gc }).gc = (force?: boolean) => {
    if (force) forced++;
    return gc(force);
  };
  try {
    await run();
  } finally {
    (Bun as { gc: typeof Bun.gc }).gc = gc;
  }
  return forced;
}

describe("garbage collection during an import", () => {
  it("forces none for a file of 5,000 lines, and some for a longer one", async () => {
    const five = await forcedDuring(async () => {
      expect(await importMembers(ctx, { csv: csv("five", 5_000) })).toMatchObject({ created: 5_000, errors: [] });
    });
    expect(five).toBe(0);
    const more = await forcedDuring(async () => {
      expect(await importMembers(ctx, { csv: csv("more", 5_001) })).toMatchObject({ created: 5_001, errors: [] });
    });
    // One as the check ends (the file's emails; the check's own every 20,000 lines); the
    // writing's own at its gaps (one a second of work), at most one per 2,500 lines written.
    expect(more).toBeGreaterThanOrEqual(1);
    expect(more).toBeLessThanOrEqual(3);
  }, 120_000);

  it("collects every 5,000 lines in the planning pass, in the check only every 20,000 and at its end", async () => {
    // A dry run checks every line (a collection as the check ends; none at lines 5,001 and
    // 10,001: import20), then plans them against the club's members in batches (at 5,000 and
    // 10,000 planned), and writes nothing.
    const forced = await forcedDuring(async () => {
      expect(await importMembers(ctx, { csv: csv("dry", 12_000), dry_run: true })).toMatchObject({ created: 12_000, written: false, errors: [] });
    });
    expect(forced).toBe(3);
  }, 120_000);
});

describe("the keys of imported members (import18)", () => {
  it("gives each a pass serial that sorts after those made before, a referral code led by the hour, and a page token nobody knows led by the clock", async () => {
    const before = timeOrderedBase62(24).slice(0, 8);
    const hourBefore = hourLedReadableCode(8)[0];
    const pageBefore = unknownPageToken().slice(0, 12);
    expect(await importMembers(ctx, { csv: csv("keys", 30) })).toMatchObject({ created: 30, errors: [] });
    const after = timeOrderedBase62(24).slice(0, 8);
    const hourAfter = hourLedReadableCode(8)[0];
    const pageAfter = unknownPageToken().slice(0, 12);
    const rows = await env.db.read
      .select({ serial: members.pass_serial_number, code: members.referral_code, page: members.manage_token })
      .from(members)
      .where(like(members.email, "keys%"));
    expect(rows.length).toBe(30);
    for (const r of rows) {
      // The clock first: the unique index of serials grows at its end, not on a random page.
      expect(r.serial.slice(0, 8) >= before && r.serial.slice(0, 8) <= after).toBe(true);
      expect(r.serial).toMatch(/^[0-9A-Za-z]{24}$/);
      // The hour's character first: the codes of (club, code) fill a 25th of that index's pages.
      expect([hourBefore, hourAfter]).toContain(r.code[0]);
      // A page nobody can open yet, in a hash's form led by the clock: the index of page tokens
      // grows at its end too; 64 hex characters, so the start's backfills leave it as it is.
      expect(r.page).toMatch(/^[0-9a-f]{64}$/);
      expect((r.page as string).slice(0, 12) >= pageBefore && (r.page as string).slice(0, 12) <= pageAfter).toBe(true);
    }
  });
});
