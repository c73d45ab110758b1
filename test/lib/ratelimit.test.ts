// The sliding window: exact counts at the window's edges, with a controlled clock; on PostgreSQL
// counted in the database, so that several processes count together.
import { afterAll, describe, expect, it } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Db, openDb } from "../../db";
import { RateLimited } from "../../lib/errors";
import { hitRate, limitAddress, purgeRateHits, SlidingWindowLimiter } from "../../lib/ratelimit";
import { dropDatabase, freshDatabaseUrl, onPostgres } from "../databases";

describe("SlidingWindowLimiter", () => {
  it("refuses past the limit and lets through again once the oldest request leaves the window", () => {
    const limiter = new SlidingWindowLimiter(3, 60_000);
    const t0 = 1_000_000;
    expect(limiter.hit("k", t0).allowed).toBe(true);
    expect(limiter.hit("k", t0 + 10_000).allowed).toBe(true);
    expect(limiter.hit("k", t0 + 20_000).remaining).toBe(0);
    const refused = limiter.hit("k", t0 + 30_000);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(30);
    expect(limiter.hit("k", t0 + 59_999).allowed).toBe(false);
    expect(limiter.hit("k", t0 + 60_000).allowed).toBe(true);
    expect(limiter.hit("other", t0 + 60_000).remaining).toBe(2);
  });

  it("forgets the keys of past windows by itself, so that many passing addresses do not pile up", () => {
    const limiter = new SlidingWindowLimiter(10, 60_000);
    const t0 = 5_000_000;
    for (let i = 0; i < 1000; i++) limiter.hit(`ip:${i}`, t0 + i);
    expect(limiter.size).toBe(1000);
    limiter.hit("ip:late", t0 + 120_000);
    expect(limiter.size).toBe(1);
  });
});

describe("limitAddress", () => {
  const dir = mkdtempSync(join(tmpdir(), "club-rate-"));
  const opened: { db: Db; url: string }[] = [];
  const open = async (url?: string) => {
    const at = url ?? (await freshDatabaseUrl(dir, `rate-${opened.length}.db`));
    const db = await openDb(at);
    opened.push({ db, url: at });
    return db;
  };
  afterAll(async () => {
    for (const { db } of opened) await db.close();
    for (const url of new Set(opened.map((o) => o.url))) await dropDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  });
  const refusal = (p: Promise<void>) =>
    p.then(
      () => null,
      (err: unknown) => err,
    );

  it("refuses an address beyond its scope's rate with 429 and Retry-After; other addresses, scopes and databases count apart", async () => {
    const db = await open();
    const t0 = 9_000_000;
    for (let i = 0; i < 3; i++) await limitAddress(db, "login", 3, "10.0.0.1", t0 + i);
    const refused = await refusal(limitAddress(db, "login", 3, "10.0.0.1", t0 + 10));
    expect(refused).toBeInstanceOf(RateLimited);
    expect((refused as RateLimited).retryAfterSeconds).toBe(60);
    expect(await refusal(limitAddress(db, "login", 3, "10.0.0.2", t0 + 10))).toBeNull();
    expect(await refusal(limitAddress(db, "cards", 3, "10.0.0.1", t0 + 10))).toBeNull();
    expect(await refusal(limitAddress(await open(), "login", 3, "10.0.0.1", t0 + 10))).toBeNull();
    // The window slides: once the first request is a minute old, one more gets through.
    expect(await refusal(limitAddress(db, "login", 3, "10.0.0.1", t0 + 60_000))).toBeNull();
    expect(await refusal(limitAddress(db, "login", 3, "10.0.0.1", t0 + 60_000))).toBeInstanceOf(RateLimited);
  });

  it.skipIf(!onPostgres)("on PostgreSQL, several processes count together: 40 requests at once through 4 of them let 10 through", async () => {
    const first = await open();
    const url = opened[opened.length - 1].url;
    const processes = [first, await open(url), await open(url), await open(url)];
    const t0 = 20_000_000;
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => refusal(limitAddress(processes[i % 4], "join", 10, "10.9.9.9", t0 + i))));
    expect(outcomes.filter((o) => o === null)).toHaveLength(10);
    expect(outcomes.filter((o) => o instanceof RateLimited)).toHaveLength(30);
    // Refusals are not counted: the database holds the ten let through, and they are forgotten once past every window.
    const held = await first.query<{ n: string }>("select sum(n) as n from rate_counts where scope = 'join'");
    expect(Number(held[0].n)).toBe(10);
    expect(await purgeRateHits(first, t0 + 3_600_040)).toBe(10);
  });
  it.skipIf(!onPostgres)("on PostgreSQL, two processes' refusals are not counted: the Retry-After they were given is true for both", async () => {
    const one = await open();
    const two = await open(opened[opened.length - 1].url);
    const t0 = 30_000_000;
    for (let i = 0; i < 5; i++) expect((await hitRate(i % 2 ? two : one, "card", "ip:10.1.1.1", 5, 60_000, t0 + i)).allowed).toBe(true);
    // Twenty refusals half a minute on, through both: each says 30 seconds.
    const refused = await Promise.all(Array.from({ length: 20 }, (_, i) => hitRate(i % 2 ? two : one, "card", "ip:10.1.1.1", 5, 60_000, t0 + 30_000)));
    expect(refused.map((d) => [d.allowed, d.retryAfterSeconds, d.remaining])).toEqual(Array(20).fill([false, 30, 0]));
    // 30 seconds later the five have left the window and the twenty were never counted: five more, at once through both, and no sixth.
    const later = await Promise.all(Array.from({ length: 8 }, (_, i) => hitRate(i % 2 ? two : one, "card", "ip:10.1.1.1", 5, 60_000, t0 + 61_000)));
    expect(later.filter((d) => d.allowed)).toHaveLength(5);
  });

  it.skipIf(!onPostgres)("on PostgreSQL, the window slides for two processes: what is still inside it counts, what has left it frees its place", async () => {
    const one = await open();
    const two = await open(opened[opened.length - 1].url);
    const t0 = 40_000_000;
    const hit = (db: Db, at: number) => hitRate(db, "join", "ip:10.2.2.2", 5, 60_000, at);
    for (const at of [t0, t0 + 1, t0 + 2]) expect((await hit(one, at)).allowed).toBe(true);
    expect((await hit(two, t0 + 30_000)).allowed).toBe(true);
    expect((await hit(one, t0 + 45_000)).remaining).toBe(0);
    const full = await hit(two, t0 + 50_000);
    expect([full.allowed, full.retryAfterSeconds]).toEqual([false, 10]);
    // Once the first three have left (their second is past), three places, for both processes together.
    const after = await Promise.all([one, two, one, two, one, two].map((db) => hit(db, t0 + 61_000)));
    expect(after.filter((d) => d.allowed)).toHaveLength(3);
    expect((await hit(two, t0 + 75_000)).allowed).toBe(false);
    // The first of the middle two leaves its place at t0 + 91 s.
    expect((await Promise.all([hit(one, t0 + 91_000), hit(two, t0 + 91_000)])).filter((d) => d.allowed)).toHaveLength(1);
  });
});
