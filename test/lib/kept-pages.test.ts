// lib/members/kept.ts `keptPage`: a page is read once while the club's members version and the
// day stand, again after a write or on another day, and at most KEPT_PAGES are kept per database
// (the least recently asked dropped first). `keptSearch` the same for a search's count, at most
// KEPT_SEARCHES of them; `keptTerms` for what a club's items show of it (lib/members/internal
// `listTerms`, `pageItems`). On PostgreSQL the version is read once for the requests that ask
// while a read is on its way, never from a read begun before them.
import { afterAll, beforeAll, describe, expect, it } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { type Db, rowsAsArrays } from "../../db";
import { members } from "../../db/schema";
import { KEPT_PAGES, KEPT_SEARCHES, KEPT_TERMS, keptPage, keptSearch, keptTerms, membersVersion } from "../../lib/members/kept";
import { operatorCtx } from "../../lib/auth/operator";
import { membersPage } from "../../lib/members";
import { pageItems, selectPage } from "../../lib/members/internal";
import { onPostgres } from "../databases";
import { setup, type TestEnv } from "../helpers";
import { seedMember } from "../members-fixtures";

let env: TestEnv;
beforeAll(async () => {
  env = await setup();
});
afterAll(() => env.close());

/** keptPage for `key`, counting the reads it makes. */
const reads = new Map<string, number>();
const page = (key: string, day = "2026-11-24") =>
  keptPage(env.db, env.clubId, key, day, async () => {
    reads.set(key, (reads.get(key) ?? 0) + 1);
    return { key };
  });

/**
 * That `ask` keeps at most `most` values, dropping the least recently asked: `most` asked, the
 * first asked again, one more; then the first and the third are still kept (read once each), and
 * the second, dropped, is read again. `reads`: how many times a key's value was read.
 */
async function dropsLeastRecent(most: number, ask: (key: string) => Promise<unknown>, reads: (key: string) => number | undefined) {
  for (let i = 0; i < most; i++) await ask(`k${i}`);
  await ask("k0"); // asked again: now the most recent
  await ask("extra"); // one too many: k1, the least recently asked, goes
  await ask("k0");
  await ask("k2");
  expect([reads("k0"), reads("k2"), reads("extra")]).toEqual([1, 1, 1]);
  await ask("k1");
  expect(reads("k1")).toBe(2);
}

describe("keptPage", () => {
  it("reads a page once while nothing changes, again after a member write and on another day", async () => {
    const first = await page("a");
    expect(await page("a")).toBe(first);
    expect(reads.get("a")).toBe(1);
    await seedMember(env);
    await page("a");
    expect(reads.get("a")).toBe(2);
    await page("a", "2026-11-25");
    expect(reads.get("a")).toBe(3);
  });

  it("reads a page once for the callers that ask for it while it is being read, at the same version", async () => {
    let pageReads = 0;
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const slow = () =>
      keptPage(env.db, env.clubId, "burst", "2026-11-24", async () => {
        pageReads++;
        await held;
        return { n: pageReads };
      });
    const asked = [slow(), slow(), slow()];
    await Bun.sleep(20);
    release();
    const answers = await Promise.all(asked);
    expect(pageReads).toBe(1);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);
  });

  it(`keeps at most ${KEPT_PAGES} pages, dropping the least recently asked`, async () => {
    reads.clear();
    await dropsLeastRecent(
      KEPT_PAGES,
      (key) => page(key),
      (key) => reads.get(key),
    );
  });
});

describe("keptSearch", () => {
  const counts = new Map<string, number>();
  const count = (key: string, day = "") =>
    keptSearch(env.db, env.clubId, key, day, async () => {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts.get(key) as number;
    });

  it("counts a search once while nothing changes, again after a member write and on another day", async () => {
    expect([await count("all::zolc"), await count("all::zolc")]).toEqual([1, 1]);
    await seedMember(env);
    expect(await count("all::zolc")).toBe(2);
    expect(await count("all::zolc", "2026-11-25")).toBe(3);
  });

  it(`keeps at most ${KEPT_SEARCHES} counts, dropping the least recently asked`, async () => {
    counts.clear();
    await dropsLeastRecent(
      KEPT_SEARCHES,
      (key) => count(key),
      (key) => counts.get(key),
    );
  });
});

/**
 * `env.db` with its reads of the kept statements `names` counted (`reads(name)`, the first by
 * default); `after`, when given, awaited once each read is back, before its answer is handed on (a
 * read held on its way).
 */
function countingReads(names: string[], after?: () => Promise<void> | undefined): { db: Db; reads: (name?: string) => number } {
  const n = new Map<string, number>();
  const db: Db = Object.create(env.db, {
    prepareRead: {
      value: (name: string, build: Parameters<Db["prepareRead"]>[1]) => {
        const statement = env.db.prepareRead(name, build) as { execute(values: Record<string, unknown>): Promise<unknown[]> };
        if (!names.includes(name)) return statement;
        return {
          ...statement,
          async execute(values: Record<string, unknown>) {
            const rows = await statement.execute(values);
            n.set(name, (n.get(name) ?? 0) + 1);
            await after?.();
            return rows;
          },
        };
      },
    },
  });
  return { db, reads: (name = names[0]) => n.get(name) ?? 0 };
}

describe("keptTerms", () => {
  let reads = 0;
  const terms = (db: Db = env.db, version?: number) =>
    keptTerms(
      db,
      env.clubId,
      async () => {
        reads++;
        return { n: reads };
      },
      version,
    );

  it("reads a club's terms once while nothing changes, again after a member write or a tier's new name", async () => {
    reads = 0;
    const first = await terms();
    expect(await terms()).toBe(first);
    expect(reads).toBe(1);
    await seedMember(env);
    expect((await terms()).n).toBe(2);
    const tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Kept", price_cents: 100 } })).body;
    expect((await terms()).n).toBe(2); // a new tier names no member yet: the version stands
    expect((await env.call("PUT", `/api/clubs/${env.clubId}/tiers/${tier.id}`, { body: { name: "Kept again" } })).status).toBe(200);
    expect((await terms()).n).toBe(3);
  });

  it("takes the version the caller read, and reads none of its own", async () => {
    const { db, reads: versionReads } = countingReads(["members.version"]);
    const version = await membersVersion(db, env.clubId);
    expect(versionReads()).toBe(1);
    await terms(db, version);
    await terms(db, version);
    expect(versionReads()).toBe(1);
    await terms(db);
    expect(versionReads()).toBe(2);
  });

  it(`keeps at most ${KEPT_TERMS} clubs' terms, dropping the least recently asked`, async () => {
    const readsOf = new Map<string, number>();
    const of = (club: string) =>
      keptTerms(env.db, club, async () => {
        readsOf.set(club, (readsOf.get(club) ?? 0) + 1);
        return {};
      });
    await dropsLeastRecent(KEPT_TERMS, of, (club) => readsOf.get(club));
  });
});

describe("a search's page", () => {
  it("reads the club's grace period and tiers' names once while the members version stands", async () => {
    const { db, reads } = countingReads(["clubs.grace", "members.page.tiers"]);
    const ctx = await operatorCtx(db, env.clubId, env.config);
    await seedMember(env, { first_name: "Kept", last_name: "Terms", email: "kept-terms@test.org" });
    const search = async () => (await membersPage(ctx, { search: "kept-terms" } as never)).items.map((i) => i.email);
    expect(await search()).toEqual(["kept-terms@test.org"]);
    expect(await search()).toEqual(["kept-terms@test.org"]);
    expect([reads("clubs.grace"), reads("members.page.tiers")]).toEqual([1, 1]);
    await seedMember(env); // a member's write: the version moves
    await search();
    expect([reads("clubs.grace"), reads("members.page.tiers")]).toEqual([2, 2]);
  });
});

describe("pageItems", () => {
  it("names a tier its kept terms do not know (made and given after they were read) from the tiers themselves", async () => {
    const tier = (await env.call("POST", `/api/clubs/${env.clubId}/tiers`, { body: { name: "Newer", price_cents: 100 } })).body;
    const m = await seedMember(env, { email: "newer-tier@test.org", tier_id: tier.id });
    const page = env.db.prepareRead("test.kept-pages.one", (q) => selectPage(q).where(eq(members.id, sql.placeholder("id"))));
    const rows = await rowsAsArrays(page, { id: m.id });
    const [item] = await pageItems(env.db, env.clubId, rows, "2026-11-24", { grace: 0, tierNames: new Map() });
    expect(item).toMatchObject({ id: m.id, tier_id: tier.id, tier_name: "Newer" });
    const [stale] = await pageItems(env.db, env.clubId, rows, "2026-11-24", { grace: 0, tierNames: new Map([[tier.id, "Older"]]) });
    expect(stale.tier_name).toBe("Older"); // a known tier is named from the terms, as kept under their version
  });
});

describe.skipIf(!onPostgres)("the members version on PostgreSQL", () => {
  it("is read once for the pages asked while a read is on its way, and never from a read begun before them", async () => {
    // The club's version read through `db`, counted; `held`: the next one is read, then held until released.
    let held: Promise<void> | null = null;
    let release = () => {};
    const { db, reads: versionReads } = countingReads(["members.version"], () => {
      const gate = held;
      held = null;
      return gate ?? undefined;
    });
    let pageReads = 0;
    const page = () =>
      keptPage(db, env.clubId, "held", "2026-11-24", async () => {
        pageReads++;
        return { n: pageReads };
      });
    await page();
    expect([versionReads(), pageReads]).toEqual([1, 1]);

    held = new Promise<void>((r) => {
      release = r;
    });
    const a = page(); // its version read, before the write, is held on its way back
    await Bun.sleep(20);
    await seedMember(env); // a write, committed after that read
    const [b, c] = [page(), page()]; // asked after the write, while the read is on its way
    await Bun.sleep(20);
    expect(versionReads()).toBe(2); // no read of their own yet
    release();
    expect((await a).n).toBe(1); // the read begun before the write: the page kept
    // One version read after the write for both, and the page read again once for both.
    expect([(await b).n, (await c).n]).toEqual([2, 2]);
    expect([versionReads(), pageReads]).toEqual([3, 2]);
  });
});
