// The sliding window: exact counts at the window's edges, with a controlled clock.
import { describe, expect, it } from "bun:test";
import { RateLimited } from "../../lib/errors";
import { limitAddress, SlidingWindowLimiter } from "../../lib/ratelimit";

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
  it("refuses an address beyond its scope's rate with 429 and Retry-After; other addresses, scopes and apps count apart", () => {
    const app = {};
    const t0 = 9_000_000;
    for (let i = 0; i < 3; i++) limitAddress(app, "login", 3, "10.0.0.1", t0 + i);
    let refused: unknown;
    try {
      limitAddress(app, "login", 3, "10.0.0.1", t0 + 10);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(RateLimited);
    expect((refused as RateLimited).retryAfterSeconds).toBe(60);
    expect(() => limitAddress(app, "login", 3, "10.0.0.2", t0 + 10)).not.toThrow();
    expect(() => limitAddress(app, "cards", 3, "10.0.0.1", t0 + 10)).not.toThrow();
    expect(() => limitAddress({}, "login", 3, "10.0.0.1", t0 + 10)).not.toThrow();
  });
});
